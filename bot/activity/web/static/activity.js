// The Activity: Discord's Embedded App SDK proves who is looking and where, the bot's server
// gives a session for that person at that channel's table, and a server-sent event stream
// brings every new scene of the table. Moves go back as POST /api/act; the server checks them.
//
// Nothing here writes to the console: once the SDK is ready it forwards console output to
// Discord as the Activity's logs (CAPTURE_LOG), where an error is a real error.

import { DiscordSDK } from "../sdk/index.mjs";
import { Refused, getJson, postJson } from "./api.js";
import { Participants } from "./participants.js";
import { Table, notice } from "./table.js";
import { useWords, word } from "./words.js";

const $ = (selector) => document.querySelector(selector);

function gate(text, { retry = null } = {}) {
  $("#gate").hidden = false;
  $("#app").hidden = true;
  $("#gate-text").textContent = text;
  const again = $("#gate-retry");
  again.hidden = !retry;
  again.textContent = word("retry") || "↻";
  again.onclick = retry;
}

async function signIn(sdk, config) {
  gate(word("loading"));
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: config.client_id, response_type: "code", state: "", prompt: "none",
      scope: ["identify"],
    }));
  } catch {
    // the person closed Discord's consent step: they may change their mind
    gate(word("authorize"), { retry: () => signIn(sdk, config) });
    return;
  }
  try {
    const { access_token: accessToken } = await postJson("api/token", { code });
    await sdk.commands.authenticate({ access_token: accessToken });
    const session = await postJson("api/session", {
      access_token: accessToken, instance_id: sdk.instanceId,
    });
    useWords(session.words, session.lang);
    open(sdk, session);
  } catch (error) {
    gate(error instanceof Refused && error.sentence ? error.sentence : word("failed"),
      { retry: () => signIn(sdk, config) });
  }
}

function open(sdk, session) {
  $("#gate").hidden = true;
  $("#app").hidden = false;
  document.body.dataset.user = session.user?.id ?? "";
  let scene = null;
  const table = new Table({
    act: async (action) => {
      notice("");
      try {
        await postJson("api/act", { session: session.session, version: scene?.version, action });
        table.afterAct();
      } catch (error) {
        notice(error instanceof Refused && error.sentence ? error.sentence : word("failed"));
      }
    },
  });
  new Participants(sdk, $("#participants"));
  const stream = new EventSource(`api/stream?session=${encodeURIComponent(session.session)}`);
  stream.addEventListener("scene", (event) => {
    scene = JSON.parse(event.data);
    useWords(scene.words);
    $("#offline").hidden = true;
    table.draw(scene);
  });
  stream.addEventListener("error", () => {
    // EventSource comes back by itself after a dropped line; a refused one (the session has
    // expired) is closed for good
    const closed = stream.readyState === EventSource.CLOSED;
    $("#offline").textContent = word(closed ? "expired" : "offline");
    $("#offline").hidden = false;
  });
}

async function main() {
  const config = await getJson("api/config");
  useWords(config.words, config.lang);
  const sdk = new DiscordSDK(config.client_id);
  document.body.dataset.platform = sdk.platform;
  await sdk.ready();
  await signIn(sdk, config);
}

main().catch(() => gate(word("failed"), { retry: () => location.reload() }));
