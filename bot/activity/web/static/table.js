// One scene of the channel's table, drawn (docs/activity.md, "The scene"): the title and
// status, the seats, the piles, the latest moves, the timer, the result, the person's hand and
// the actions offered. The scene is game-neutral; so is this file — it never names a game.

import { cardBack, cardPicture } from "./cards.js";
import { Hand } from "./hand.js";
import { counted, word } from "./words.js";

const $ = (selector) => document.querySelector(selector);
const FAN = 8;
const STACK = 5;

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = text;
  return element;
}

const ids = (cards) => (cards ?? []).map((card) => card.id);
const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** A short visible note that screen readers read at once (a refused move). */
export function notice(text) {
  const element = $("#notice");
  element.textContent = text ?? "";
  element.hidden = !text;
}

export class Table {
  constructor({ act }) {
    this.act = act;
    this.scene = null;
    this.inFlight = 0;
    this.hand = new Hand($("#hand"), {
      onChange: () => this.drawActions(),
      onDrop: (cards, pile) => this.drop(cards, pile),
    });
    setInterval(() => this.tick(), 250);
  }

  /** Draw ``scene`` unless an older one arrives after a newer (a stream and an act's answer
   *  may cross). */
  draw(scene) {
    const before = this.scene;
    // the same table as drawn already (an act's answer and the stream bring it twice), or an
    // older one: drawing it again would only take the focus from where the person is
    if (before && before.table === scene.table && scene.version <= before.version) return;
    this.scene = scene;
    document.body.dataset.state = scene.state;
    document.body.dataset.version = String(scene.version);
    $("#title").textContent = scene.title ?? "";
    $("#status").textContent = scene.status ?? "";
    $("#options").textContent = scene.options ?? "";
    this.drawSeats();
    this.drawPiles();
    this.drawLatest();
    this.drawResult();
    this.drawHand();
    this.drawActions();
    this.tick();
    this.announce(before, scene);
  }

  drawSeats() {
    const seats = this.scene.seats ?? [];
    $("#seats").hidden = !seats.length;
    $("#seats ol").replaceChildren(...seats.map((seat) => {
      const item = make("li", "seat");
      item.dataset.seat = seat.id;
      item.classList.toggle("you", Boolean(seat.you));
      item.classList.toggle("to-move", Boolean(seat.to_move));
      if (seat.to_move) item.setAttribute("aria-current", "true");
      const name = make("span", "name", seat.name);
      for (const [flag, key] of [["you", "you"], ["host", "host"], ["computer", "computer"]]) {
        if (seat[flag]) name.append(make("span", "tag", word(key)));
      }
      item.append(name);
      if (seat.cards !== null && seat.cards !== undefined) {
        const stack = make("span", "stack");
        for (let i = 0; i < Math.min(seat.cards, STACK); i++) stack.append(cardBack());
        item.append(stack, make("span", "count", counted("cards", seat.cards)));
      }
      if (seat.status) item.append(make("span", "seat-status", seat.status));
      return item;
    }));
  }

  drawPiles() {
    const piles = this.scene.piles ?? [];
    $("#felt").hidden = !piles.length && !(this.scene.result ?? []).length;
    const area = $("#piles");
    const from = area.contains(document.activeElement)
      ? document.activeElement.closest(".pile")?.dataset.pile : undefined;
    area.replaceChildren(...piles.map((pile) => {
      const element = make("figure", "pile");
      element.dataset.pile = pile.id;
      if (pile.kind) element.dataset.kind = pile.kind;
      const shown = pile.cards ?? [];
      const cards = make("span", "pile-cards");
      if (shown.length) {
        for (const card of shown.slice(-FAN)) cards.append(cardPicture(card.id, card.name));
      } else if (pile.count) {
        const back = cardBack();
        back.removeAttribute("aria-hidden");
        back.setAttribute("role", "img");
        back.setAttribute("aria-label", word("face_down"));
        cards.append(back);
      } else {
        cards.append(make("span", "card empty"));
      }
      const caption = make("figcaption", null, pile.label);
      const total = pile.count ?? shown.length;
      if (total > Math.min(shown.length, FAN)) {
        caption.append(make("span", "count", counted("cards", total)));
      }
      if (this.moves().some((a) => a.target === pile.id && ids(a.cards).length)) {
        element.title = word("drop_here");
      }
      const takes = this.moves().filter((a) => a.target === pile.id && !(a.cards ?? []).length);
      if (takes.length === 1) {
        // a pile one takes from (a draw pile): pressing it makes that move
        const button = make("button", "pile-take");
        button.type = "button";
        button.append(cards);
        button.setAttribute("aria-label", `${takes[0].label}: ${pile.label}`);
        button.addEventListener("click", () => this.act(takes[0]));
        element.append(button, caption);
      } else {
        element.append(cards, caption);
      }
      return element;
    }));
    if (from !== undefined) {
      // a pile pressed from the keyboard (a draw) was drawn again: the same pile, if one still
      // takes from it
      this.refocus([...area.querySelectorAll(".pile")]
        .find((p) => p.dataset.pile === from)?.querySelector(".pile-take"));
    }
  }

  drawLatest() {
    const lines = this.scene.latest ?? [];
    $("#latest").hidden = !lines.length;
    $("#latest ol").replaceChildren(...lines.map((line) => make("li", null, line)));
  }

  drawResult() {
    const result = this.scene.result ?? [];
    $("#result").hidden = !result.length;
    $("#result ul").replaceChildren(...result.map((line) => make("li", null, line)));
  }

  drawHand() {
    const hand = this.scene.hand;
    $("#hand-area").hidden = !hand;
    if (!hand) return;
    // cards no offered move uses are dimmed, on the person's turn only (else all would be)
    const used = this.moves().flatMap((a) => ids(a.cards));
    const playable = new Set(used.length ? used : ids(hand.cards));
    const inHand = $("#hand").contains(document.activeElement);
    this.hand.draw(hand.cards ?? [], playable);
    // the last card played from the keyboard: the focus goes on to the moves
    if (inHand && !$("#hand").contains(document.activeElement)) this.refocus();
    $("#hand-total").textContent = hand.total ?? "";
    $("#hand-total").hidden = !hand.total;
  }

  moves() {
    return (this.scene?.actions ?? []).filter((a) => a.kind === "move");
  }

  /** The actions bar: every action that takes no card, and the moves of exactly the picked
   *  cards. */
  drawActions() {
    if (!this.scene) return;
    const picked = this.hand.selection();
    const offered = (this.scene.actions ?? []).filter((action) => {
      const cards = ids(action.cards);
      return !cards.length || (picked.length && sameCards(cards, picked));
    });
    $("#hint").textContent = this.hint(picked, offered);
    // the same buttons as shown already: kept, with the focus on the one it is on
    const shown = JSON.stringify([offered.map((a) => [a.id, a.label]), picked.length > 0]);
    if (shown === this.shownActions) return;
    this.shownActions = shown;
    const buttons = offered.map((action) => {
      const button = make("button", "action", action.label);
      button.type = "button";
      button.dataset.kind = action.kind;
      button.dataset.action = action.id;
      button.addEventListener("click", () => this.act(action));
      return button;
    });
    if (picked.length) {
      const clear = make("button", "action", word("clear"));
      clear.type = "button";
      clear.dataset.kind = "clear";
      clear.addEventListener("click", () => this.hand.clear());
      buttons.push(clear);
    }
    const bar = $("#actions");
    const focused = bar.contains(document.activeElement) ? document.activeElement : null;
    bar.replaceChildren(...buttons);
    if (focused) {
      // the focus was on a button drawn away (a move just pressed from the keyboard)
      const action = focused.dataset.action;
      this.refocus(action ? buttons.find((b) => b.dataset.action === action) : undefined);
    }
  }

  /** The focus was on a control drawn away: ``instead`` (the same move's new control), else
   *  the hand, where the next move starts, else the first move; never the page. */
  refocus(instead) {
    const card = $("#hand-area").hidden ? null : this.hand.button(this.hand.focused);
    (instead ?? card ?? $("#actions button"))?.focus();
  }

  hint(picked, offered) {
    if (picked.length && !offered.some((a) => ids(a.cards).length)) return word("no_move_with_these");
    if (!picked.length && this.moves().some((a) => ids(a.cards).length)) return word("pick_hint");
    if (!(this.scene.actions ?? []).length && this.scene.state === "playing") return word("no_moves");
    return "";
  }


  /** Cards let go over the pile ``pileId``: the offered move of exactly those cards onto it. */
  drop(cards, pileId) {
    const fits = this.moves().filter((a) => sameCards(ids(a.cards), cards));
    const move = fits.find((a) => a.target === pileId)
      ?? (fits.length === 1 && fits[0].target == null ? fits[0] : null);
    if (move) this.act(move);
    else notice(word("not_there"));
  }

  tick() {
    const deadline = this.scene?.deadline;
    const timer = $("#timer");
    if (!deadline) {
      timer.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    timer.hidden = false;
    timer.classList.toggle("urgent", left <= 10);
    $("#timer-left").textContent = text;
    timer.setAttribute("aria-label", `${word("time_left")}: ${text}`);
  }

  /** What a screen reader hears: each new latest move, the person's own turn, the result. */
  announce(before, now) {
    const said = new Set(before?.latest ?? []);
    const news = (now.latest ?? []).filter((line) => !said.has(line));
    const mine = (scene) => (scene?.seats ?? []).some((s) => s.you && s.to_move);
    // a turn of one's own that is new: it was not, or the others moved and the clock restarted
    const restarted = now.deadline != null && now.deadline !== before?.deadline;
    if (mine(now) && (!mine(before) || restarted)) news.push(word("your_turn"));
    if (now.result?.length && !before?.result?.length) news.push(...now.result);
    if (news.length) $("#announce").textContent = news.join(" ");
  }

  /** A move sent (``+1``: its picks are spent) or answered (``-1``); while any is on its
   *  way the actions bar is marked busy, for assistive technology. */
  acting(step) {
    if (step > 0) this.hand.clear();
    this.inFlight += step;
    $("#actions").setAttribute("aria-busy", String(this.inFlight > 0));
  }
}
