// The bot's Activity server, through Discord's proxy: every request is relative to the page's
// own origin (https://<application id>.discordsays.com/ and its root URL mapping).

export class Refused extends Error {
  constructor(status, body) {
    super(body.error ?? "");
    this.status = status;
    this.body = body;
    this.sentence = body.error ?? "";
  }
}

async function answer(response) {
  const body = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw new Refused(response.status, body);
  return body;
}

export async function getJson(path) {
  return answer(await fetch(path, { headers: { Accept: "application/json" } }));
}

export async function postJson(path, body) {
  return answer(await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  }));
}
