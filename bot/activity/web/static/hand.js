// The person's own hand: tap cards to pick them (then play them from the moves below), or drag
// a card onto a pile; arrow keys walk the hand, Space or Enter picks, Tab reaches the moves.
// Cards are told apart by their place in the hand: two packs may hold the same card twice.

import { cardButton } from "./cards.js";

const DRAG_START_PX = 8;

export class Hand {
  constructor(element, { onChange, onDrop }) {
    this.element = element;
    this.onChange = onChange;
    this.onDrop = onDrop;
    this.cards = [];
    this.picked = new Set();
    this.focused = 0;
    element.addEventListener("keydown", (event) => this.key(event));
  }

  /** Draw ``cards`` ({id, name}); a pick stays while the same card is still in its place. */
  draw(cards, playable) {
    // the same hand, the same cards playable: kept as it is, with the focus and the picks
    const shown = JSON.stringify([cards.map((c) => c.id), [...playable].sort()]);
    if (shown === this.shown) return;
    this.shown = shown;
    const focusInside = this.element.contains(document.activeElement);
    const before = this.cards;
    this.picked = new Set([...this.picked].filter(
      (at) => cards[at] !== undefined && cards[at].id === before[at]?.id));
    this.cards = cards;
    this.focused = Math.min(this.focused, Math.max(0, cards.length - 1));
    this.element.replaceChildren(...cards.map((card, at) => {
      const button = cardButton(card.id, card.name);
      button.dataset.at = String(at);
      button.tabIndex = at === this.focused ? 0 : -1;
      button.setAttribute("aria-pressed", String(this.picked.has(at)));
      button.classList.toggle("dead", !playable.has(card.id));
      button.addEventListener("pointerdown", (event) => this.press(event, button, at));
      button.addEventListener("click", (event) => {
        // a click from the keyboard (Enter, Space) has no pointer: detail 0; a tap is handled
        // in press(), which tells it from a drag
        if (event.detail === 0) this.toggle(at);
      });
      button.addEventListener("focus", () => this.roam(at, false));
      return button;
    }));
    if (focusInside && cards.length) this.button(this.focused)?.focus();
  }

  /** The picked cards' ids, in hand order. */
  selection() {
    return [...this.picked].sort((a, b) => a - b).map((at) => this.cards[at].id);
  }

  clear() {
    this.picked.clear();
    for (const button of this.element.querySelectorAll("[aria-pressed]")) {
      button.setAttribute("aria-pressed", "false");
    }
    this.onChange();
  }

  button(at) {
    return this.element.querySelector(`[data-at="${at}"]`);
  }

  toggle(at) {
    if (this.picked.has(at)) this.picked.delete(at);
    else this.picked.add(at);
    this.button(at)?.setAttribute("aria-pressed", String(this.picked.has(at)));
    this.onChange();
  }

  roam(at, focus = true) {
    this.focused = at;
    for (const button of this.element.querySelectorAll(".card")) {
      button.tabIndex = Number(button.dataset.at) === at ? 0 : -1;
    }
    if (focus) this.button(at)?.focus();
  }

  key(event) {
    const last = this.cards.length - 1;
    const to = { ArrowRight: this.focused + 1, ArrowDown: this.focused + 1,
      ArrowLeft: this.focused - 1, ArrowUp: this.focused - 1, Home: 0, End: last }[event.key];
    if (to === undefined || last < 0) return;
    event.preventDefault();
    this.roam(Math.max(0, Math.min(last, to)));
  }

  /** A press on a card: a tap picks it, a drag carries it (with whatever else is picked, if
   *  it is picked) to the pile it is let go over. Pointer events serve mouse, pen and touch. */
  press(event, button, at) {
    if (event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
    // the hand may be drawn anew before the press ends (a move elsewhere): a tap counts only
    // while the same card is still in its place, and a drag carries the card it started on
    const id = this.cards[at].id;
    const same = () => this.cards[at]?.id === id;
    let ghost = null;
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_START_PX) return;
      if (!ghost) {
        ghost = button.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("aria-label");
        ghost.setAttribute("aria-hidden", "true");
        document.body.append(ghost);
        document.body.classList.add("dragging");
      }
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
      for (const pile of document.querySelectorAll(".pile.over")) pile.classList.remove("over");
      pileAt(e)?.classList.add("over");
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!ghost) {
        if (e.type === "pointerup" && same()) this.toggle(at);
        return;
      }
      ghost.remove();
      document.body.classList.remove("dragging");
      const pile = pileAt(e);
      pile?.classList.remove("over");
      if (pile && e.type === "pointerup") {
        const carried = same() && this.picked.has(at) ? this.selection() : [id];
        this.onDrop(carried, pile.dataset.pile);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }
}

function pileAt(event) {
  const under = document.elementsFromPoint(event.clientX, event.clientY);
  return under.map((e) => e.closest?.(".pile")).find(Boolean) ?? null;
}
