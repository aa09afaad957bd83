// A test Activity (not the bot's page): the real Embedded App SDK through its whole start —
// ready, authorize, the backend's code exchange, authenticate — then the participants, live.
import {DiscordSDK} from "/sdk/index.mjs";

const show = (id, text) => { document.getElementById(id).textContent = text; };

async function start() {
  const {client_id: clientId} = await (await fetch("/api/config")).json();
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  show("status", "ready");
  const {code} = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  show("status", "authorized");
  const exchanged = await fetch("/api/token", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({code}),
  });
  const {access_token: accessToken} = await exchanged.json();
  const auth = await sdk.commands.authenticate({access_token: accessToken});
  show("user", auth.user.global_name || auth.user.username);
  const names = ({participants}) => participants.map((p) => p.global_name || p.username).join(", ");
  await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (update) => {
    show("participants", names(update));
  });
  show("participants", names(await sdk.commands.getInstanceConnectedParticipants()));
  show("locale", (await sdk.commands.userSettingsGetLocale()).locale);
  if (new URLSearchParams(location.search).get("instance_id")) {
    console.log(`authenticated as ${auth.user.id}`);
  }
  show("status", "authenticated");
}

start().catch((error) => {
  show("status", `failed: ${error.message || JSON.stringify(error)}`);
});
