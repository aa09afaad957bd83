"""Playing cards shared by every game: a compact int code, parsing of user text, display.

A card is a plain ``int`` so that engines can keep hands as lists of ints and compare, hash and
serialise them without any per-card object overhead (the engines' inner loops run tens of
thousands of moves per second). The code packs::

    code = deck * 64 + suit * 16 + rank

``rank`` is 2..14 (ace high; a game may count it low) for natural cards and 0 for a joker;
``suit`` is 0..3 in the order ♠ ♥ ♦ ♣ (a tie-break order games may use); for a joker the suit
field numbers the pack's two jokers. ``deck`` tells the copies apart when two packs are shuffled
together, so every physical card has its own code and "no card twice" is checkable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.errors import KortbordError

JOKER_RANK = 0
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANKS: tuple[int, ...] = tuple(range(2, 15))
SUITS: tuple[int, ...] = (0, 1, 2, 3)
SPADES, HEARTS, DIAMONDS, CLUBS = SUITS

SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
SUIT_LETTERS = ("s", "h", "d", "c")
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
JOKER_TEXT = "🃏"


def make(rank: int, suit: int, deck: int = 0) -> int:
    """The code of a natural card."""
    return deck * 64 + suit * 16 + rank


def make_joker(index: int, deck: int = 0) -> int:
    """The code of joker ``index`` (0 or 1) of pack ``deck``."""
    return deck * 64 + index * 16 + JOKER_RANK


def rank(card: int) -> int:
    return card & 15


def suit(card: int) -> int:
    return (card >> 4) & 3


def deck_of(card: int) -> int:
    return card >> 6


def is_joker(card: int) -> bool:
    return card & 15 == JOKER_RANK


def new_deck(decks: int = 1, jokers: bool = False) -> list[int]:
    """Every card of ``decks`` packs in a fixed order (shuffle it yourself, seeded)."""
    cards = [make(r, s, d) for d in range(decks) for s in SUITS for r in RANKS]
    if jokers:
        cards += [make_joker(j, d) for d in range(decks) for j in (0, 1)]
    return cards


def rank_name(r: int) -> str:
    return "Joker" if r == JOKER_RANK else RANK_NAMES[r]


@dataclass(frozen=True, slots=True)
class CardEmoji:
    """A card's picture as the application's own emoji: Discord shows ``markup`` in message
    text as the picture, and a screen reader reads its ``name``."""

    name: str
    id: int

    @property
    def markup(self) -> str:
        return f"<:{self.name}:{self.id}>"


_EMOJIS: dict[int, CardEmoji] = {}
"""Each face's emoji (by ``face_of``), once the Discord layer has them all; empty: letters. One
process speaks for one application, so its emojis are a fact of the process, like its
catalogs, and every text of every game reads them here rather than each render taking them."""
_LETTERS: dict[str, str] = {}
"""Each emoji's markup back to the card's letters (``plain``)."""
_MARKUP = re.compile(r"<:\w{2,32}:\d{15,21}>")


def face_of(card: int) -> int:
    """What a card shows, whichever pack it is from: rank and suit (a joker: which joker)."""
    return card & 63


def use_emojis(emojis: dict[int, CardEmoji]) -> None:
    """Show cards in text as these emojis (by ``face_of``) from now on; ``{}``: as letters."""
    _EMOJIS.clear()
    _EMOJIS.update(emojis)
    _LETTERS.clear()
    _LETTERS.update((e.markup, letters(face)) for face, e in emojis.items())


def emoji(card: int) -> CardEmoji | None:
    """The card's emoji, for a button or menu option; ``None`` while cards are letters."""
    return _EMOJIS.get(card & 63)


def display(card: int) -> str:
    """A card in chat text: its emoji when the application has the cards' emojis, else
    ``letters``."""
    found = _EMOJIS.get(card & 63)
    return letters(card) if found is None else found.markup


def letters(card: int) -> str:
    """A card in letters and a suit sign, where an emoji cannot show (labels, menu options,
    autocomplete) or does not fit: ``7♥``, ``10♠``, ``Q♦``, ``🃏``."""
    r = card & 15
    if r == JOKER_RANK:
        return JOKER_TEXT
    return RANK_NAMES[r] + SUIT_SYMBOLS[(card >> 4) & 3]


def plain(text: str) -> str:
    """``text`` with every card emoji written as letters again: for a text that is too long
    with them, rather than cutting it in the middle of one."""
    if not _LETTERS or "<:" not in text:
        return text
    return _MARKUP.sub(lambda m: _LETTERS.get(m.group(0), m.group(0)), text)


def text(card: int) -> str:
    """Plain ASCII text a user can type back: ``7h``, ``10s``, ``Qd``, ``joker``."""
    r = card & 15
    if r == JOKER_RANK:
        return "joker"
    return RANK_NAMES[r] + SUIT_LETTERS[(card >> 4) & 3]


def display_many(cards: Iterable[int]) -> str:
    return " ".join(display(c) for c in cards)


def sort_key(card: int) -> tuple[int, int, int]:
    """Order for showing a hand: by rank (jokers last), then suit, then pack."""
    r = card & 15
    return (r if r else 99, (card >> 4) & 3, card >> 6)


def sorted_hand(cards: Iterable[int]) -> list[int]:
    return sorted(cards, key=sort_key)


class CardTextError(KortbordError, ValueError):
    """User text that does not name a card, or names cards the hand does not hold. ``kind`` is
    ``"empty"``, ``"not_a_card"`` (``text`` is the token), ``"no_cards"`` or ``"not_held"``
    (``text`` names what is missing); whoever shows it quotes ``text`` shortened and escaped."""

    def __init__(self, kind: str, text: str = "") -> None:
        super().__init__(f"{kind}: {text[:40]}")
        self.kind = kind
        self.text = text


@dataclass(frozen=True, slots=True)
class CardPattern:
    """What a user typed for one card: a rank (or joker) and perhaps a suit."""

    rank: int
    suit: int | None = None

    def matches(self, card: int) -> bool:
        if card & 15 != self.rank:
            return False
        return self.suit is None or self.rank == JOKER_RANK or (card >> 4) & 3 == self.suit

    def __str__(self) -> str:
        if self.rank == JOKER_RANK:
            return "joker"
        return RANK_NAMES[self.rank] + (SUIT_LETTERS[self.suit] if self.suit is not None else "")


_RANK_WORDS = {
    "a": ACE, "ace": ACE, "ess": ACE, "1": ACE, "14": ACE,
    "k": KING, "king": KING, "kung": KING, "13": KING,
    "q": QUEEN, "queen": QUEEN, "d": QUEEN, "dam": QUEEN, "12": QUEEN,
    "j": JACK, "jack": JACK, "kn": JACK, "knekt": JACK, "11": JACK,
    "t": 10, "10": 10,
    **{str(n): n for n in range(2, 10)},
}
_JOKER_WORDS = {"joker", "jk", "jok", "jo", "jkr", "🃏", "*"}
_SUIT_WORDS = {
    "s": SPADES, "♠": SPADES, "♤": SPADES, "spades": SPADES, "spade": SPADES,
    "h": HEARTS, "♥": HEARTS, "♡": HEARTS, "hearts": HEARTS, "heart": HEARTS,
    "d": DIAMONDS, "♦": DIAMONDS, "♢": DIAMONDS, "diamonds": DIAMONDS, "diamond": DIAMONDS,
    "c": CLUBS, "♣": CLUBS, "♧": CLUBS, "clubs": CLUBS, "club": CLUBS,
}
_TOKEN = re.compile(r"[\s,;+]+")
# rank then optional suit; the rank alternatives are tried longest first so "10s" is ten of spades
_CARD = re.compile(
    r"^(?P<rank>10|1[1-4]|[2-9]|1|ace|king|queen|jack|knekt|kung|dam|ess|kn|[akqjdt])"
    r"(?:\s*(?:of\s*)?(?P<suit>spades?|hearts?|diamonds?|clubs?|[shdc♠♤♥♡♦♢♣♧]))?$"
)


def parse_card(token: str) -> CardPattern:
    """Parse one card as a user would type it: ``7h``, ``7♥``, ``10s``, ``Qd``, ``joker``, ``7``."""
    t = token.strip().lower().replace("\ufe0f", "")
    if not t:
        raise CardTextError("empty")
    if t in _JOKER_WORDS:
        return CardPattern(JOKER_RANK)
    m = _CARD.match(t)
    if m is None:
        raise CardTextError("not_a_card", token.strip())
    suit_text = m.group("suit")
    rank_text = m.group("rank")
    # "d" alone is the Swedish queen (dam); as a trailing suit it is diamonds
    return CardPattern(_RANK_WORDS[rank_text], _SUIT_WORDS[suit_text] if suit_text else None)


def parse_cards(text_in: str) -> list[CardPattern]:
    """Parse a list of cards separated by spaces or commas (``7h 7s``, ``7 7``, ``joker``).

    A token like ``7h7s`` with no separator is also accepted.
    """
    tokens = [t for t in _TOKEN.split(text_in.strip()) if t]
    if not tokens:
        raise CardTextError("no_cards")
    patterns: list[CardPattern] = []
    for token in tokens:
        try:
            patterns.append(parse_card(token))
        except CardTextError:
            split = _split_glued(token)
            if split is None:
                raise
            patterns.extend(split)
    return patterns


_GLUED = re.compile(r"(10|[2-9akqjt])([shdc♠♥♦♣])", re.IGNORECASE)


def _split_glued(token: str) -> list[CardPattern] | None:
    t = token.lower().replace("\ufe0f", "")
    parts = _GLUED.findall(t)
    if not parts or "".join(r + s for r, s in parts) != t:
        return None
    return [CardPattern(_RANK_WORDS[r], _SUIT_WORDS[s]) for r, s in parts]


def pick_from_hand(patterns: Sequence[CardPattern], hand: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that ``patterns`` name, each card at most once.

    Patterns with a suit are matched before suitless ones so that ``7 7h`` picks the seven of
    hearts for ``7h`` and another seven for ``7``.
    """
    available = list(hand)
    chosen: list[int] = []
    for pattern in sorted(patterns, key=lambda p: p.suit is None):
        for i, card in enumerate(available):
            if pattern.matches(card):
                chosen.append(available.pop(i))
                break
        else:
            raise CardTextError("not_held", _describe_missing(pattern, patterns))
    return chosen


def _describe_missing(pattern: CardPattern, patterns: Sequence[CardPattern]) -> str:
    wanted = sum(1 for p in patterns if p == pattern)
    name = str(pattern) if pattern.rank == JOKER_RANK or pattern.suit is not None else (
        RANK_NAMES[pattern.rank]
    )
    return f"{wanted}× {name}" if wanted > 1 else name
