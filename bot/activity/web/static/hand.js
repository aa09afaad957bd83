// The person's own hand: tap cards to pick them (then play them from the moves below), or drag
// a card onto a pile; arrow keys walk the hand, Space or Enter picks, Tab reaches the moves.

import { cardButton } from "./cards.js";

const DRAG_START_PX = 8;

export class Hand {
  constructor(element, { onChange, onDrop }) {
    this.element = element;
    this.onChange = onChange;
    this.onDrop = onDrop;
    this.picked = new Set();
    this.focused = null;
    element.addEventListener("keydown", (event) => this.key(event));
  }

  /** Draw ``cards`` (ids) with their names; what was picked and still held stays picked. */
  draw(cards, names, playable) {
    const focusInside = this.element.contains(document.activeElement);
    this.picked = new Set([...this.picked].filter((id) => cards.includes(id)));
    if (!cards.includes(this.focused)) this.focused = cards[0] ?? null;
    this.element.replaceChildren(...cards.map((id) => {
      const button = cardButton(id, names[id]);
      button.tabIndex = id === this.focused ? 0 : -1;
      button.setAttribute("aria-pressed", String(this.picked.has(id)));
      button.classList.toggle("dead", !playable.has(id));
      button.addEventListener("pointerdown", (event) => this.press(event, button, id));
      button.addEventListener("click", (event) => {
        // a click from the keyboard (Enter) arrives with detail 0; pointer taps pick in press()
        if (event.detail === 0) this.toggle(id);
      });
      button.addEventListener("focus", () => this.roam(id, false));
      return button;
    }));
    if (focusInside && this.focused) this.button(this.focused)?.focus();
  }

  selection() {
    return [...this.picked];
  }

  clear() {
    this.picked.clear();
    for (const button of this.element.querySelectorAll("[aria-pressed]")) {
      button.setAttribute("aria-pressed", "false");
    }
    this.onChange();
  }

  button(id) {
    return this.element.querySelector(`[data-card="${CSS.escape(id)}"]`);
  }

  toggle(id) {
    if (this.picked.has(id)) this.picked.delete(id);
    else this.picked.add(id);
    this.button(id)?.setAttribute("aria-pressed", String(this.picked.has(id)));
    this.onChange();
  }

  roam(id, focus = true) {
    this.focused = id;
    for (const button of this.element.querySelectorAll(".card")) {
      button.tabIndex = button.dataset.card === id ? 0 : -1;
    }
    if (focus) this.button(id)?.focus();
  }

  key(event) {
    const ids = [...this.element.querySelectorAll(".card")].map((b) => b.dataset.card);
    const at = ids.indexOf(this.focused);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
      Home: 0, End: ids.length - 1 }[event.key];
    if (to === undefined || !ids.length) return;
    event.preventDefault();
    this.roam(ids[Math.max(0, Math.min(ids.length - 1, to))]);
  }

  /** A press on a card: a tap picks it, a drag carries it (with whatever else is picked, if
   *  it is picked) to the pile it is let go over. Pointer events serve mouse, pen and touch. */
  press(event, button, id) {
    if (event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
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
        if (e.type === "pointerup") this.toggle(id);
        return;
      }
      ghost.remove();
      document.body.classList.remove("dragging");
      const pile = pileAt(e);
      pile?.classList.remove("over");
      if (pile && e.type === "pointerup") {
        const carried = this.picked.has(id) ? this.selection() : [id];
        this.onDrop(carried, Number(pile.dataset.pile));
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
