"""What a Tonk table holds: ``TonkState``, the plain data the engine's parts read and write.

``TonkEngine`` (``engine.py``) extends it with the table's flow: creation, the deal, the moves and
the views. The parts that only read or rebuild a table — what must always hold (``checks``) and
the stored form (``stored``) — take a ``TonkState`` and import only this module of the engine's,
so none of them depends on the engine that calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.gamekit.contract import DealSource, Seat
from bot.games.tonk.events import CutForDeal, Event
from bot.games.tonk.moves import Move
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.settlement import HandResult
from bot.games.tonk.terms import HAND_OVER, TableSpread


class TonkState:
    """The state of one Tonk table: plain attributes, read and written directly by the engine
    and its parts (no properties, since playouts touch them at every move). A new state is a
    table before its cut for deal; ``TonkEngine.new`` deals it."""

    KIND: ClassVar[str] = "tonk"
    STATE_VERSION: ClassVar[int] = 3
    """2 added ``departed``, the names of players who left; a version-1 form loads without. 3
    keeps the committed deals' source (``deals``) instead of ``seed`` and ``shuffles``; a table
    with an ``int`` seed stores as version 2, as it always did."""

    def __init__(self, options: TonkOptions, seed: int | DealSource, seats: Sequence[Seat]
                 ) -> None:
        self.options = options
        self._deals = None if isinstance(seed, int) else seed
        self.seed = seed if isinstance(seed, int) else 0
        self._shuffles = 0
        self._seats: list[Seat] = list(seats)
        self._departed: dict[int, str] = {}
        self.phase = HAND_OVER
        self.hand_number = 0
        self.dealer: int | None = None
        self.next_dealer: int | None = None
        self.cut: CutForDeal | None = None
        self._players: list[int] = []
        self._hands: dict[int, list[int]] = {}
        self._stock: list[int] = []
        self._discards: list[int] = []
        self._spreads: list[TableSpread] = []
        self._next_spread_id = 1
        self.to_move: int | None = None
        self._taken: int | None = None
        self._laid_new = False
        self._locked: set[int] = set()
        self.turns = 0
        self._timeouts: dict[int, int] = {}
        self.last_hand_result: HandResult | None = None
        self.opening_events: list[Event] = []
        # not state, only bookkeeping for speed and the quick check (never stored):
        self._in_spreads = 0
        """Running count of the cards in spreads, so counting the cards needs no pass over them."""
        self._touched: list[int] = []
        """The indexes of the spreads the last move laid or hit."""
        self._offered: tuple[int, tuple[Move, ...]] | None = None
        """The player and the moves ``legal_moves`` last listed, valid until the next ``apply``:
        a move that is one of them needs no second validation."""
