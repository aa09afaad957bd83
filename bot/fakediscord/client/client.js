// The fake Discord client: shows a channel to one person (?user=<id>), launches the app's
// Activity there and embeds it in an iframe on the Activity's own origin, relaying the
// Embedded App SDK's postMessage RPC to the fake (/.fake/client/relay), which answers as
// Discord's client does (bot/fakediscord/clientrpc.py). The consent step is a dialog with an
// "Authorize" button (?authorize=auto approves at once).
//
// For tests: window.fakeClient holds what happened (ready, logs: CAPTURE_LOG args, rpc:
// [cmd, ok], closed) and records() fetches the fake's records (CSP reports included).

const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;

const params = new URLSearchParams(location.search);
const channelId = location.pathname.split("/")[3];
const userId = params.get("user");
const platform = params.get("platform") === "mobile" ? "mobile" : "desktop";
const autoAuthorize = params.get("authorize") === "auto";

const client = {
  ready: false, closed: false, frameId: null, logs: [], rpc: [], errors: [],
  records: () => call("records"),
};
window.fakeClient = client;

const $ = (selector) => document.querySelector(selector);
let state = null;
let origin = null;
let events = null;
let relaying = Promise.resolve();
const iframe = $("#activity");

async function call(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(`/.fake/client/${path}`, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function fail(error) {
  client.errors.push(String(error.message || error));
  $("#status").textContent = String(error.message || error);
}

function post(op, payload) {
  iframe.contentWindow.postMessage([op, payload], origin);
}

function showParticipants(instance) {
  const list = $("#participants ul");
  list.replaceChildren(...(instance ? instance.users : []).map((user) => {
    const item = document.createElement("li");
    item.textContent = user.name;
    item.dataset.userId = user.id;
    return item;
  }));
}

function render() {
  const {user, channel, application, instance} = state;
  document.title = `${channel.name} — Discord (fake client)`;
  $("#guild").textContent = channel.guild ? `${channel.guild} ›` : "";
  $("#channel-name").textContent = channel.name;
  $("#channel-name").classList.toggle("voice", channel.type === 2);
  $("#me").textContent = user.name;
  const launch = $("#launch");
  launch.textContent = instance ? "Join Activity" : `Launch ${application.name}`;
  launch.disabled = !application.activities || (!instance && !application.entry_point);
  $("#status").textContent = instance
    ? `${application.name} is running here.` : application.activities
      ? "" : `${application.name} has no Activity.`;
  showParticipants(instance);
}

async function open(instance) {
  const frame = await call("frame", {user: userId, instance: instance.id, platform});
  client.frameId = frame.frame_id;
  origin = frame.origin;
  events = new EventSource(`/.fake/client/events?frame=${frame.frame_id}`);
  events.addEventListener("participants", (e) => showParticipants(JSON.parse(e.data)));
  events.addEventListener("dispatch", (e) => post(FRAME, JSON.parse(e.data)));
  $("#launcher").hidden = true;
  $("#stage").hidden = false;
  iframe.src = `${origin}/?${new URLSearchParams(frame.query)}`;
}

function closeStage() {
  client.closed = true;
  if (events) events.close();
  iframe.removeAttribute("src");
  $("#stage").hidden = true;
  $("#launcher").hidden = false;
  $("#status").textContent = "You left the Activity.";
}

async function leave() {
  if (client.frameId && !client.closed) await call("close", {frame: client.frameId});
  closeStage();
}

function askConsent({nonce, application, scopes}) {
  const dialog = $("#consent");
  const answer = async (approve) => {
    if (dialog.open) dialog.close();
    const reply = await call("consent", {frame: client.frameId, nonce, approve});
    client.rpc.push(["AUTHORIZE", reply.frame.evt !== "ERROR"]);
    post(FRAME, reply.frame);
  };
  if (autoAuthorize) return answer(true);
  $("#consent-title").textContent = `${application} wants to access your Discord account`;
  $("#scopes").replaceChildren(...scopes.map((scope) => {
    const item = document.createElement("li");
    item.textContent = scope;
    return item;
  }));
  $("#authorize").onclick = () => answer(true).catch(fail);
  $("#cancel").onclick = () => answer(false).catch(fail);
  dialog.showModal();
  return undefined;
}

async function relay(op, payload) {
  const answer = await call("relay", {frame: client.frameId, op, payload});
  if (op === FRAME && payload.cmd === "CAPTURE_LOG") client.logs.push(payload.args);
  if (answer.ready) {
    client.ready = true;
    post(FRAME, answer.ready);
  } else if (answer.close) {
    post(CLOSE, answer.close);
  } else if (answer.frame) {
    client.rpc.push([answer.frame.cmd, answer.frame.evt !== "ERROR"]);
    post(FRAME, answer.frame);
  } else if (answer.consent) {
    await askConsent(answer.consent);
  } else if (answer.closed) {
    closeStage();
  }
}

window.addEventListener("message", (event) => {
  if (!origin || event.source !== iframe.contentWindow || event.origin !== origin) return;
  if (!Array.isArray(event.data) || ![HANDSHAKE, FRAME, CLOSE].includes(event.data[0])) return;
  const [op, payload] = event.data;
  // one at a time, in the order sent, as the client's RPC server reads them
  relaying = relaying.then(() => relay(op, payload)).catch(fail);
});

window.addEventListener("pagehide", () => {
  if (client.frameId && !client.closed) {
    const body = new Blob([JSON.stringify({frame: client.frameId})], {type: "application/json"});
    navigator.sendBeacon("/.fake/client/close", body);
  }
});

$("#launch").addEventListener("click", async () => {
  try {
    const {instance} = await call("launch", {user: userId, channel: channelId});
    await open(instance);
  } catch (error) {
    fail(error);
  }
});
$("#leave").addEventListener("click", () => leave().catch(fail));

async function start() {
  document.body.classList.toggle("mobile", platform === "mobile");
  state = await call(`state?user=${userId}&channel=${channelId}`);
  render();
  const mine = state.instance && state.instance.users.some((u) => u.id === state.user.id);
  if (mine) await open(state.instance);
}

start().catch(fail);
