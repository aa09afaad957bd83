"""Committed deals, deal algorithm version 1: every shuffle of a hand follows from one secret that
is committed to before the hand is dealt and revealed once it is over (docs/fair-deals.md says it
byte by byte, with test vectors, so that anyone can check a deal in another language).

A table gets one fresh 32-byte master secret from ``secrets``. Hand ``h`` of table ``t`` has the
key ``HMAC-SHA256(master, "kortbord/hand/v1" || t || h)``: one-way, so revealing a hand's key
tells nothing of the master, of any other hand's key, or of any other table's. The commitment
shown before the deal is ``SHA-256("kortbord/commit/v1" || t || h || key)``. The hand's shuffles
(the deal, every reshuffle, a cut for deal) are numbered from 0 within the hand; shuffle
``i`` is a Fisher-Yates shuffle drawing 32-bit words from ``HMAC-SHA256(key, "kortbord/shuffle/v1"
|| i || block)`` for blocks 0, 1, 2, ..., each number taken by rejection sampling so every
order is equally likely.

Engines reach this only as a ``DealSource`` (``bot.gamekit.contract``): they ask for
shuffles, by hand.
Nothing here imports the rest of the bot.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Mapping
from typing import Any

DEAL_VERSION = 1
"""The algorithm below; a change to any byte of it is a new version."""
MASTER_BYTES = 32
_HAND = b"kortbord/hand/v1"
_COMMIT = b"kortbord/commit/v1"
_SHUFFLE = b"kortbord/shuffle/v1"
_DAY = b"kortbord/daily/v1"
_WORD = 1 << 32


def _table_hand(table_id: int, hand: int) -> bytes:
    if not 0 <= table_id < 1 << 63 or not 1 <= hand < _WORD:
        raise ValueError(f"no deal for table {table_id}, hand {hand}")
    return table_id.to_bytes(8, "big") + hand.to_bytes(4, "big")


def new_master() -> bytes:
    """A fresh table secret."""
    return secrets.token_bytes(MASTER_BYTES)


def hand_key(master: bytes, table_id: int, hand: int) -> bytes:
    """The secret of one hand, revealed once that hand is over."""
    return hmac.new(master, _HAND + _table_hand(table_id, hand), hashlib.sha256).digest()


def commitment(key: bytes, table_id: int, hand: int) -> str:
    """What the table shows before the hand is dealt, as 64 hex digits."""
    return hashlib.sha256(_COMMIT + _table_hand(table_id, hand) + key).hexdigest()


def day_commitment(kind: str, day: str, secret: bytes) -> str:
    """The commitment to a daily deal's secret (``docs/daily.md``), shown before its day:
    ``SHA-256("kortbord/daily/v1" || kind || 0 || day || 0 || secret)``, ``day`` written
    ``YYYY-MM-DD``, as 64 hex digits."""
    words = kind.encode() + b"\x00" + day.encode() + b"\x00"
    return hashlib.sha256(_DAY + words + secret).hexdigest()


def _words(key: bytes, index: int) -> Iterator[int]:
    prefix = _SHUFFLE + index.to_bytes(4, "big")
    block = 0
    while True:
        digest = hmac.new(key, prefix + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at:at + 4], "big")
        block += 1


def shuffle_with(key: bytes, index: int, cards: list[int]) -> None:
    """Shuffle ``cards`` in place as shuffle ``index`` of the hand whose secret is ``key``:
    for ``j`` from the last position down to 1, swap position ``j`` with a position ``r`` drawn
    uniformly from 0..j (a word ``w`` is kept when ``w < 2**32 - 2**32 % (j + 1)``, and then
    ``r = w % (j + 1)``; a word at or above that limit is skipped)."""
    words = _words(key, index)
    for j in range(len(cards) - 1, 0, -1):
        bound = j + 1
        limit = _WORD - _WORD % bound
        word = next(words)
        while word >= limit:
            word = next(words)
        r = word % bound
        cards[j], cards[r] = cards[r], cards[j]


class CommittedDeals:
    """The deals of one table from its master secret: what the host gives a new engine. It
    remembers the hand it last shuffled for and how many shuffles that hand has had, so the
    engine's stored form carries it whole."""

    __slots__ = ("_hand", "_key", "_master", "_shuffles", "table_id")

    def __init__(self, master: bytes, table_id: int, hand: int = 0, shuffles: int = 0) -> None:
        if len(master) != MASTER_BYTES:
            raise ValueError(f"a table secret is {MASTER_BYTES} bytes")
        self._master = master
        self.table_id = table_id
        self._hand = hand
        self._shuffles = shuffles
        self._key = hand_key(master, table_id, hand) if hand else b""

    def shuffle(self, hand: int, cards: list[int]) -> None:
        if hand != self._hand:
            if hand < self._hand:
                raise ValueError(f"hand {hand} comes after hand {self._hand}")
            self._hand, self._shuffles = hand, 0
            self._key = hand_key(self._master, self.table_id, hand)
        shuffle_with(self._key, self._shuffles, cards)
        self._shuffles += 1

    def key(self, hand: int) -> bytes:
        return hand_key(self._master, self.table_id, hand)

    def commitment(self, hand: int) -> str:
        return commitment(self.key(hand), self.table_id, hand)

    def to_stored(self) -> dict[str, Any]:
        return {"version": DEAL_VERSION, "table": self.table_id, "master": self._master.hex(),
                "hand": self._hand, "shuffles": self._shuffles}

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> CommittedDeals:
        """``to_stored``'s form back; ``ValueError`` if it is not one."""
        try:
            if data["version"] != DEAL_VERSION:
                raise ValueError(f"unknown deal version {data['version']!r}")
            hand, shuffles, table = data["hand"], data["shuffles"], data["table"]
            if not all(type(x) is int and x >= 0 for x in (hand, shuffles, table)):
                raise ValueError("hand, shuffles and table are whole numbers")
            return cls(bytes.fromhex(data["master"]), table, hand, shuffles)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a stored deal source: {exc!r}") from exc


class RevealedDeals:
    """The deals of a finished table from its revealed hand secrets alone: what a verifier
    replays the engine with. A shuffle for a hand whose secret is unknown is a
    ``KeyError``."""

    __slots__ = ("_hand", "_keys", "_shuffles", "table_id")

    def __init__(self, table_id: int, keys: Mapping[int, bytes]) -> None:
        self.table_id = table_id
        self._keys = dict(keys)
        self._hand = 0
        self._shuffles = 0

    def shuffle(self, hand: int, cards: list[int]) -> None:
        if hand != self._hand:
            self._hand, self._shuffles = hand, 0
        shuffle_with(self._keys[hand], self._shuffles, cards)
        self._shuffles += 1

    def to_stored(self) -> dict[str, Any]:
        raise TypeError("a verifier's deals are never stored")
