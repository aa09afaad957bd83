"""Every turn that comes back to a person notifies them, even when the table's writes are folded
(issue 32).

Discord notifies on new messages only, so a person is told it is their turn by a new table
message that mentions them. When moves come faster than the table can be written, the versions
in between are folded into one write: A moves (B's turn), B moves at once from the hand panel
that announced it (A's turn again), and the table's next write shows A's turn. The table message
it replaces pinged A for A's previous turn, so a publisher that compares only "whom it pinged"
edited it in place and A was never told that a new turn of theirs had begun.

To fold deterministically, the post that would ping B fails once (an injected 400, which
discord.py does not retry itself, as it retries 5xx) and is tried again after the publisher's
backoff; B moves meanwhile, from their panel, so the retry shows A's turn.
"""

from __future__ import annotations

import pytest

from bot.discord import panels
from bot.fakediscord import Driver, User
from bot.fakediscord.model import StoredMessage
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import title
from tests.e2e.test_request_budget import _counter, _fresh_panel, _labels, _table

pytestmark = pytest.mark.e2e

ROUNDS = 3
MOVE_SELECTS = ("play", "rank", "discard")
MOVE_BUTTONS = ("Draw from stock", "Draw", "Pass", "Draw and play")


def _posts(method: str, route: str) -> bool:
    """A table post: the bot's own message, or a follow-up of a person's interaction."""
    return method == "POST" and route in ("/channels/{channel_id}/messages",
                                          "/webhooks/{webhook_id}/{webhook_token}")


async def _move_from(driver: Driver, user: User, panel: StoredMessage) -> None:
    """The first move the panel offers, made on the panel (it updates in place)."""
    for select in panel.selects():
        action = str(select.get("custom_id", "")).split(":")[3:4]
        if action and action[0] in MOVE_SELECTS and select.get("options"):
            moved = await driver.select(user, panel, [select["options"][0]["value"]],
                                        custom_id=select["custom_id"])
            break
    else:
        labels = _labels(panel)
        label = next((b for b in MOVE_BUTTONS if b in labels), None)
        label = label or next((b for b in labels if b.startswith(("Take", "Drop"))), None)
        assert label, panel.content
        moved = await driver.click(user, panel, label)
    assert moved.type == 7, moved.content


@pytest.mark.machine_speed
async def test_a_turn_that_comes_back_in_a_folded_write_pings_its_person_anew(
    bot_runner: BotRunner, driver: Driver, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # nobody counts as playing, so every turn is a ping (a player's panel announcing the turn
    # instead is test_quiet_turns.py's)
    monkeypatch.setattr(panels, "PLAYING_SECONDS", -1.0)
    bot = await bot_runner.start()
    anna, bo = world.anna, world.bo
    people = {anna.id: anna, bo.id: bo}
    await driver.slash(anna, world.channel, "dubb start", {})
    lobby = await driver.wait_for_message(
        world.channel, lambda m: "waiting for players" in title(m))
    await driver.click(bo, lobby, "Join")
    await driver.click(anna, lobby, "Start")
    table = await driver.wait_for(
        lambda: (t := _table(driver, world.channel, "dubb")) and _counter(t) >= 0 and t,
        what="the first turn")
    # both open their hands, so that each panel announces its player's turn (issue 13)
    for person in people.values():
        opened = await driver.click(person, table, "Your hand")
        assert opened.message is not None and opened.message.ephemeral

    async def turn() -> tuple[int, int | None]:
        snapshot = await bot.service.get(world.channel.id)
        assert snapshot is not None and snapshot.engine is not None
        return snapshot.counter, snapshot.engine.to_move

    folded = 0
    for _ in range(12):
        if folded == ROUNDS:
            break
        counter, first = await turn()
        if first is None or first not in people:
            break  # the game is over
        panel = await driver.wait_for(lambda c=counter, p=first: _fresh_panel(
            driver, people[p], c) or _own_panel(driver, people[p], c),
            what="the mover's panel")
        # the post that would tell the next player fails once and is tried again later
        driver.fake.fail_next(1, status=400, match=_posts)
        await _move_from(driver, people[first], panel)
        counter, second = await turn()
        if second == first or second not in people:
            driver.fake.clear_faults()
            continue
        pinged_before = len(driver.pings(people[first]))
        # the second player moves at once, from the panel that announced the turn
        panel = await driver.wait_for(lambda c=counter, p=second: _fresh_panel(
            driver, people[p], c), what="the second player's panel")
        await _move_from(driver, people[second], panel)
        driver.fake.clear_faults()
        _, back = await turn()
        if back != first:
            continue
        folded += 1
        # the turn came back to the first player: a new message mentions them
        await driver.wait_for(lambda n=pinged_before, p=first: len(
            driver.pings(people[p])) > n, what="the returning player's ping")

    assert folded == ROUNDS, f"only {folded} turns came back to their player"
    assert driver.fake.rate_limited == []


def _own_panel(driver: Driver, user: User, counter: int) -> StoredMessage | None:
    """The person's latest panel when it was drawn at this counter (their own last move
    answered, the turn still theirs)."""
    panels = driver.ephemerals(user)
    if panels and _counter(panels[-1]) == counter:
        return panels[-1]
    return None
