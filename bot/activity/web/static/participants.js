// Who has the Activity open in this channel, as Discord tells it (the SDK's connected
// participants and their updates): the people at the table may be more or fewer.

const EVENT = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";

const shownName = (user) => user.nickname || user.global_name || user.username || user.id;

export class Participants {
  constructor(sdk, element) {
    this.list = element.querySelector("ul");
    sdk.commands.getInstanceConnectedParticipants()
      .then(({ participants }) => this.draw(participants))
      .catch(() => {});
    sdk.subscribe(EVENT, ({ participants }) => this.draw(participants)).catch(() => {});
  }

  draw(participants) {
    this.list.replaceChildren(...participants.map((user) => {
      const item = document.createElement("li");
      item.textContent = shownName(user);
      item.dataset.user = user.id;
      return item;
    }));
    this.list.parentElement.hidden = !participants.length;
  }
}
