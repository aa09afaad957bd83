// One scene of the channel's table, drawn: the title and status, the seats, the piles, the
// latest moves, the timer, the result, the person's hand and the moves offered. The scene is
// game-neutral; so is this file — it never names a game.

import { cardBack, cardPicture } from "./cards.js";
import { Hand } from "./hand.js";
import { counted, word } from "./words.js";

const $ = (selector) => document.querySelector(selector);

/** A short visible note that screen readers read at once (a refused move, a lost line). */
export function notice(text) {
  const element = $("#notice");
  element.textContent = text ?? "";
  element.hidden = !text;
}
const FAN = 6;

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = text;
  return element;
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export class Table {
  constructor({ act }) {
    this.act = act;
    this.scene = null;
    this.hand = new Hand($("#hand"), {
      onChange: () => this.drawMoves(),
      onDrop: (cards, pile) => this.drop(cards, pile),
    });
    setInterval(() => this.tick(), 250);
  }

  draw(scene) {
    const before = this.scene;
    this.scene = scene;
    document.body.dataset.state = scene.state;
    $("#title").textContent = scene.title ?? scene.game?.name ?? "";
    $("#status").textContent = scene.status ?? "";
    this.drawSeats();
    this.drawPiles();
    this.drawLatest();
    this.drawResult();
    this.drawHand();
    this.drawMoves();
    this.tick();
    this.announce(before, scene);
  }

  names() {
    return this.scene.card_names ?? {};
  }

  drawSeats() {
    const list = $("#seats ol");
    list.replaceChildren(...(this.scene.seats ?? []).map((seat) => {
      const item = make("li", "seat");
      item.classList.toggle("you", Boolean(seat.you));
      item.classList.toggle("to-move", Boolean(seat.to_move));
      if (seat.to_move) item.setAttribute("aria-current", "true");
      const held = typeof seat.cards === "number" ? seat.cards : (seat.cards ?? []).length;
      const name = make("span", "name", seat.name);
      if (seat.you) name.append(make("span", "tag", word("you")));
      if (seat.to_move) name.append(make("span", "tag turn", word("to_move")));
      const stack = make("span", "stack");
      for (let i = 0; i < Math.min(held, 5); i++) stack.append(cardBack());
      const count = make("span", "count", counted("cards", held));
      item.append(name, stack, count);
      if (seat.status) item.append(make("span", "seat-status", seat.status));
      return item;
    }));
  }

  drawPiles() {
    const names = this.names();
    const piles = this.scene.piles ?? [];
    $("#piles").replaceChildren(...piles.map((pile, index) => {
      const element = make("figure", "pile");
      element.dataset.pile = String(index);
      if (pile.kind) element.dataset.kind = pile.kind;
      const shown = pile.cards ?? [];
      const cards = make("span", "pile-cards");
      if (shown.length) {
        for (const id of shown.slice(-FAN)) cards.append(cardPicture(id, names[id]));
      } else if (pile.count) {
        cards.append(cardBack());
      } else {
        cards.append(make("span", "card empty"));
      }
      const caption = make("figcaption", null, pile.label);
      const hidden = (pile.count ?? shown.length) - Math.min(shown.length, FAN);
      if (hidden > 0) caption.append(make("span", "count", counted("cards", pile.count)));
      const draw = this.pileMoves(index);
      if (draw.length === 1) {
        // a pile one can take from (the stock): a press on it makes that move
        const button = make("button", "pile-take");
        button.type = "button";
        button.append(cards);
        button.setAttribute("aria-label", `${draw[0].label} — ${pile.label}`);
        button.addEventListener("click", () => this.act(draw[0]));
        element.append(button, caption);
      } else {
        element.append(cards, caption);
      }
      return element;
    }));
  }

  pileMoves(index) {
    return this.moves().filter((a) => a.pile === index && !(a.cards ?? []).length);
  }

  drawLatest() {
    const lines = this.scene.latest ?? [];
    $("#latest").hidden = !lines.length;
    $("#latest ol").replaceChildren(...lines.map((line) => make("li", null, line)));
  }

  drawResult() {
    const result = this.scene.result;
    $("#result").hidden = !result?.length;
    $("#result ul").replaceChildren(...(result ?? []).map((line) => make("li", null, line)));
  }

  drawHand() {
    const hand = this.scene.hand;
    $("#hand-area").hidden = !hand;
    if (!hand) return;
    const playable = new Set(this.moves().flatMap((a) => a.cards ?? []));
    this.hand.draw(hand.cards ?? [], this.names(), playable);
    $("#hand-total").textContent = hand.total ?? "";
    $("#hand-total").hidden = !hand.total;
  }

  moves() {
    return (this.scene?.actions ?? []).filter((a) => (a.kind ?? "move") === "move");
  }

  /** The moves bar: every move that takes no card, and the moves of exactly the picked cards. */
  drawMoves() {
    if (!this.scene) return;
    const picked = this.hand.selection();
    const offered = (this.scene.actions ?? []).filter((action) => {
      const cards = action.cards ?? [];
      return !cards.length || (picked.length && sameCards(cards, picked));
    });
    $("#actions").replaceChildren(...offered.map((action) => {
      const button = make("button", `action ${action.kind ?? "move"}`, action.label);
      button.type = "button";
      button.dataset.action = action.id;
      button.addEventListener("click", () => this.act(action));
      return button;
    }));
    const cardMoves = this.moves().some((a) => (a.cards ?? []).length);
    const hint = picked.length && !offered.some((a) => (a.cards ?? []).length)
      ? word("no_move_with_these") : cardMoves && !picked.length ? word("pick_hint") : "";
    $("#hint").textContent = hint;
  }

  /** Cards let go over pile ``index``: the offered move of those cards onto that pile. */
  drop(cards, index) {
    const fits = this.moves().filter((a) => sameCards(a.cards ?? [], cards));
    const onto = fits.filter((a) => a.pile === index);
    const move = onto[0] ?? (fits.length === 1 && fits[0].pile == null ? fits[0] : null);
    if (move) this.act(move);
    else notice(word("not_there"));
  }

  tick() {
    const deadline = this.scene?.deadline;
    const timer = $("#timer");
    if (!deadline || this.scene.state !== "playing") {
      timer.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    timer.hidden = false;
    timer.classList.toggle("urgent", left <= 10);
    $("#timer-left").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    $("#timer").setAttribute("aria-label", `${word("time_left")} ${$("#timer-left").textContent}`);
  }

  /** What a screen reader hears: each new latest move, and the person's own turn. */
  announce(before, now) {
    const said = new Set(before?.latest ?? []);
    const news = (now.latest ?? []).filter((line) => !said.has(line));
    const mine = (scene) => (scene?.seats ?? []).some((s) => s.you && s.to_move);
    if (mine(now) && !mine(before)) news.push(word("your_turn"));
    if (now.result?.length && !before?.result?.length) news.push(...now.result);
    if (news.length) this.say(news.join(". "));
  }

  say(text) {
    if (text) $("#announce").textContent = text;
  }

  afterAct() {
    this.hand.clear();
  }
}
