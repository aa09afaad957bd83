// A card drawn with text and CSS from its id ("7H", "10S", "QS", "JK" for every joker): rank
// and suit for the eye, and the card's name from the scene (the catalogs' words, in the
// person's language) for screen readers. No pictures to fetch.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RED = new Set(["D", "H"]);
const JOKER = "JK";

export function parseCard(id) {
  if (id === JOKER) return { rank: "", symbol: "★", colour: "joker" };
  const suit = id.slice(-1);
  return { rank: id.slice(0, -1), symbol: SUITS[suit] ?? "?", colour: RED.has(suit) ? "red" : "black" };
}

function face(element, id) {
  const { rank, symbol, colour } = parseCard(id);
  element.classList.add("card", colour);
  element.dataset.card = id;
  for (const [cls, text] of [["corner", `${rank}${symbol}`], ["pip", symbol]]) {
    const part = document.createElement("span");
    part.className = cls;
    part.textContent = text;
    part.setAttribute("aria-hidden", "true");
    element.append(part);
  }
  return element;
}

/** A card shown, not pressed: a picture with the card's name as its text alternative. */
export function cardPicture(id, name) {
  const element = face(document.createElement("span"), id);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", name || id);
  return element;
}

/** A card of the person's hand: a toggle button named by the card. */
export function cardButton(id, name) {
  const element = face(document.createElement("button"), id);
  element.type = "button";
  element.setAttribute("aria-label", name || id);
  element.setAttribute("aria-pressed", "false");
  return element;
}

/** The back of a card: a stack someone holds or the cards left to draw (its count says more). */
export function cardBack() {
  const element = document.createElement("span");
  element.className = "card back";
  element.setAttribute("aria-hidden", "true");
  return element;
}
