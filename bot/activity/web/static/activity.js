// The Activity: Discord's Embedded App SDK proves who is looking and where, the bot's server
// gives a session for that person at that channel's table, and a server-sent event stream
// brings every new scene of the table. Actions go back as POST /api/act; the server checks
// them (docs/activity.md).
//
// Nothing here writes to the console: once the SDK is ready it forwards console output to
// Discord as the Activity's logs (CAPTURE_LOG), where an error should mean a real error.

import { DiscordSDK } from "../sdk/index.mjs";
import { Refused, getJson, postJson } from "./api.js";
import { Participants } from "./participants.js";
import { Table, notice } from "./table.js";
import { useWords, word } from "./words.js";

const $ = (selector) => document.querySelector(selector);
const EXPIRED = 401;
const STALE = 409;

function gate(key, { sentence = "", retry = null } = {}) {
  $("#gate").hidden = false;
  $("#app").hidden = true;
  $("#gate-text").textContent = sentence || word(key);
  const again = $("#gate-retry");
  again.hidden = !retry;
  again.textContent = word("retry") || "↻";
  again.onclick = retry;
}

class Activity {
  constructor(sdk, config) {
    this.sdk = sdk;
    this.config = config;
    this.session = null;
    this.stream = null;
    this.table = new Table({ act: (action) => this.act(action) });
  }

  /** Sign in with Discord; ``why`` is what the page says meanwhile (a first sign-in, or a
   *  session that ran out). */
  async signIn(why = "authorizing") {
    this.stream?.close();
    gate(why);
    let code;
    try {
      ({ code } = await this.sdk.commands.authorize({
        client_id: this.config.client_id, response_type: "code", state: "", prompt: "none",
        scope: ["identify"],
      }));
    } catch {
      // the person turned down Discord's consent step: they may change their mind
      gate("authorize", { retry: () => this.signIn() });
      return;
    }
    try {
      gate("connecting");
      const { access_token: accessToken } = await postJson("api/token", { code });
      await this.sdk.commands.authenticate({ access_token: accessToken });
      this.session = await postJson("api/session", {
        access_token: accessToken, instance_id: this.sdk.instanceId,
      });
      useWords(this.session.words, this.session.lang);
      this.open();
    } catch (error) {
      gate("failed", { sentence: error instanceof Refused ? error.sentence : "",
        retry: () => this.signIn() });
    }
  }

  open() {
    $("#gate").hidden = true;
    $("#app").hidden = false;
    this.participants ??= new Participants(this.sdk, $("#participants"));
    // the table shown so far, if any: after a game's end the stream still shows how it ended
    const shown = this.table.scene?.table;
    const query = new URLSearchParams({ session: this.session.session });
    if (shown != null) query.set("table", String(shown));
    const stream = new EventSource(`api/stream?${query}`);
    this.stream = stream;
    stream.addEventListener("scene", (event) => {
      const scene = JSON.parse(event.data);
      useWords(scene.words, scene.lang);
      $("#offline").hidden = true;
      this.table.draw(scene);
    });
    stream.addEventListener("error", () => {
      // EventSource comes back by itself after a dropped line; one the server refused (the
      // session expired) is closed for good, and the person signs in again
      if (stream.readyState === EventSource.CLOSED) {
        this.signIn("expired");
        return;
      }
      $("#offline").textContent = word("reconnecting");
      $("#offline").hidden = false;
    });
  }

  async act(action) {
    notice("");
    const body = {
      session: this.session.session, version: this.table.scene?.version,
      action: { id: action.id }, table: this.table.scene?.table ?? null,
    };
    // the picks this move is made with are spent once it is sent: the stream may bring the
    // person's next turn before this answer, and a card picked then is for the next move
    this.table.acting(+1);
    try {
      const answer = await postJson("api/act", body);
      if (answer.scene) this.table.draw(answer.scene);
    } catch (error) {
      if (error instanceof Refused && error.status === EXPIRED) {
        this.signIn("expired");
        return;
      }
      if (error instanceof Refused && error.status === STALE && error.body.scene) {
        this.table.draw(error.body.scene);
      }
      notice(error instanceof Refused && error.sentence ? error.sentence : word("failed"));
    } finally {
      this.table.acting(-1);
    }
  }
}

async function main() {
  gate("loading");
  const config = await getJson("api/config");
  useWords(config.words, config.lang);
  const sdk = new DiscordSDK(config.client_id);
  document.body.dataset.platform = sdk.platform;
  await sdk.ready();
  await new Activity(sdk, config).signIn();
}

main().catch(() => gate("failed", { retry: () => location.reload() }));
