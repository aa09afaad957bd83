"""A Tonk table's stored form (``TonkEngine.to_stored``, ``TonkEngine.from_stored``): writing
it, and reading it back — validation here is the one place where untrusted dicts come in."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)

from bot.deals import CommittedDeals
from bot.gamekit.contract import DealSource, Seat
from bot.games.tonk.checks import check_invariants
from bot.games.tonk.events import CutForDeal
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.settlement import HandResult
from bot.games.tonk.spreads import FULL_DECK
from bot.games.tonk.state import TonkState
from bot.games.tonk.terms import Phase, TableSpread

Table = TypeVar("Table", bound=TonkState)


def _card(c: int) -> int:
    if c not in FULL_DECK:
        raise ValueError(f"{c} is not a card code")
    return c


Card = Annotated[StrictInt, AfterValidator(_card)]
Cards = list[Card]
_CONFIG = ConfigDict(extra="forbid")


class _Seat(BaseModel):
    model_config = _CONFIG
    player_id: StrictInt
    name: StrictStr = Field(min_length=1)


class _Cut(BaseModel):
    model_config = _CONFIG
    rounds: list[list[tuple[StrictInt, Card]]]
    dealer: StrictInt


class _Spread(BaseModel):
    model_config = _CONFIG
    id: StrictInt = Field(ge=1)
    owner: StrictInt
    cards: Cards


class StoredTonk(BaseModel):
    model_config = _CONFIG
    format_version: Literal[1, 2, 3]
    kind: Literal["tonk"]
    options: dict[str, Any]
    seed: StrictInt | None = None
    """Versions 1 and 2: the Mersenne Twister's seed, and how many shuffles it made."""
    shuffles: StrictInt = Field(default=0, ge=0)
    deals: dict[str, Any] | None = None
    """Version 3: the committed deals' source (``bot.deals.CommittedDeals``)."""
    seats: list[_Seat]
    departed: list[tuple[StrictInt, StrictStr]] = []
    phase: Literal["start", "after_draw", "hand_over", "table_closed"]
    hand_number: StrictInt = Field(ge=0)
    dealer: StrictInt | None
    next_dealer: StrictInt | None
    cut: _Cut | None
    players: list[StrictInt]
    hands: list[Cards]
    stock: Cards
    discards: Cards
    spreads: list[_Spread]
    next_spread_id: StrictInt = Field(ge=1)
    to_move: StrictInt | None
    taken_discard: Card | None
    laid_new_spread: StrictBool
    hit_locked: list[StrictInt]
    turns: StrictInt = Field(ge=0)
    timeouts: list[tuple[StrictInt, StrictInt]]
    last_hand_result: dict[str, Any] | None


def validate_stored(data: dict[str, Any]) -> tuple[StoredTonk, TonkOptions]:
    """The stored form checked for shape and types; raises ``ValueError`` when it is not one.

    Lists stand for tuples (JSON has no tuples); integers must be integers.
    """
    try:
        stored = StoredTonk.model_validate(data)
        options = TonkOptions.model_validate(stored.options, strict=True)
    except Exception as exc:
        raise ValueError(f"not a stored Tonk table: {exc}") from exc
    if (stored.format_version == 3) != (stored.deals is not None) or (
            stored.deals is None) == (stored.seed is None):
        raise ValueError("not a stored Tonk table: version 3 keeps deals, older ones a seed")
    if len(stored.players) != len(stored.hands):
        raise ValueError("not a stored Tonk table: players and hands differ in number")
    return stored, options


def stored_form(table: TonkState) -> dict[str, Any]:
    """``table``'s whole state as JSON-safe data: version 3 with committed deals, version 2 (the
    seed and the number of shuffles) with an ``int`` seed."""
    deals: dict[str, Any] = (
        {"format_version": 2, "seed": table.seed, "shuffles": table._shuffles}
        if table._deals is None
        else {"format_version": table.STATE_VERSION, "deals": table._deals.to_stored()})
    return {
        "format_version": deals.pop("format_version"),
        "kind": table.KIND,
        "options": table.options.model_dump(),
        **deals,
        "seats": [{"player_id": s.player_id, "name": s.name} for s in table._seats],
        "departed": [[p, name] for p, name in table._departed.items()],
        "phase": table.phase.value,
        "hand_number": table.hand_number,
        "dealer": table.dealer,
        "next_dealer": table.next_dealer,
        "cut": None if table.cut is None else {
            "rounds": [[[p, c] for p, c in r] for r in table.cut.rounds],
            "dealer": table.cut.dealer,
        },
        "players": list(table._players),
        "hands": [list(table._hands[p]) for p in table._players],
        "stock": list(table._stock),
        "discards": list(table._discards),
        "spreads": [{"id": s.id, "owner": s.owner, "cards": list(s.cards)}
                    for s in table._spreads],
        "next_spread_id": table._next_spread_id,
        "to_move": table.to_move,
        "taken_discard": table._taken,
        "laid_new_spread": table._laid_new,
        "hit_locked": sorted(table._locked),
        "turns": table.turns,
        "timeouts": [[p, n] for p, n in table._timeouts.items()],
        "last_hand_result": (None if table.last_hand_result is None
                             else table.last_hand_result.to_dict()),
    }


def restore(cls: type[Table], data: dict[str, Any]) -> Table:
    """The table ``stored_form`` wrote, as a ``cls`` (``TonkEngine.from_stored`` passes its own
    class); ``ValueError`` if it is not valid."""
    st, options = validate_stored(data)
    try:
        table = _table(cls, st, options)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a stored Tonk table: {exc}") from exc
    problems = check_invariants(table)
    if problems:
        raise ValueError("inconsistent Tonk table: " + "; ".join(problems))
    return table


def _table(cls: type[Table], st: StoredTonk, options: TonkOptions) -> Table:
    source: int | DealSource
    if st.deals is not None:
        source = CommittedDeals.from_stored(st.deals)
    else:
        assert st.seed is not None  # validate_stored: a table without deals has a seed
        source = st.seed
    table = cls(options, source, [Seat(s.player_id, s.name) for s in st.seats])
    table._shuffles = st.shuffles
    table._departed = {p: name for p, name in st.departed}
    table.phase = Phase(st.phase)
    table.hand_number = st.hand_number
    table.dealer = st.dealer
    table.next_dealer = st.next_dealer
    if st.cut is not None:
        table.cut = CutForDeal(
            tuple(tuple((p, c) for p, c in r) for r in st.cut.rounds), st.cut.dealer)
    table._players = list(st.players)
    table._hands = {p: list(h) for p, h in zip(st.players, st.hands, strict=True)}
    table._stock = list(st.stock)
    table._discards = list(st.discards)
    table._spreads = [TableSpread(s.id, s.owner, tuple(s.cards)) for s in st.spreads]
    table._in_spreads = sum(len(s.cards) for s in st.spreads)
    table._next_spread_id = st.next_spread_id
    table.to_move = st.to_move
    table._taken = st.taken_discard
    table._laid_new = st.laid_new_spread
    table._locked = set(st.hit_locked)
    table.turns = st.turns
    table._timeouts = {p: n for p, n in st.timeouts}
    table.last_hand_result = (None if st.last_hand_result is None
                              else HandResult.from_dict(st.last_hand_result))
    return table
