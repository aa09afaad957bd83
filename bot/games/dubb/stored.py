"""A Dubb game's stored form (``DubbEngine.to_stored``, ``DubbEngine.from_stored``), versions 1
to 3: they differ only in how the shuffles are kept — version 1 the RNG's whole state, version 2
the number of numbers drawn from the seed, version 3 the committed deals' source (``bot.deals``).

Pydantic checks shapes and types here, at the storage boundary, so the engine's hot path can
work on plain lists; ``restore`` then checks the game's own invariants.
"""

from __future__ import annotations

import random
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.deals import CommittedDeals
from bot.gamekit.contract import Seat
from bot.games.dubb.checks import check_invariants
from bot.games.dubb.deal import draw_numbers, draws_to
from bot.games.dubb.events import EndReason
from bot.games.dubb.options import DubbOptions
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import STATUS_NAMES

Game = TypeVar("Game", bound=DubbState)

FORMAT_VERSIONS = (1, 2, 3)
MAX_RNG_DRAWS = 1_000_000
"""Far above any game's (every pile turn reshuffles at most two packs, and moves are capped,
D13), low enough that restoring the RNG stays quick even for damaged data."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StoredSeat(_Strict):
    player_id: int
    name: str


class StoredPlay(_Strict):
    seat: int = Field(ge=0)
    rank: int = Field(ge=2, le=14)
    cards: list[int] = Field(min_length=1)


class StoredEnd(_Strict):
    reason: EndReason
    ranking: list[int]
    loser: int = Field(ge=0)


class StoredDubb(_Strict):
    format_version: Literal[1, 2, 3]
    kind: Literal["dubb"]
    seats: list[StoredSeat] = Field(min_length=2, max_length=6)
    options: DubbOptions
    cards_each: int = Field(ge=1)
    seed: int | None = None
    """Versions 1 and 2."""
    deals: dict[str, Any] | None = None
    """Version 3 only."""
    rng_state: tuple[int, list[int], float | None] | None = None
    """Version 1 only."""
    rng_draws: int | None = Field(default=None, ge=0, le=MAX_RNG_DRAWS)
    """Version 2 only."""
    hands: list[list[int]]
    draw_pile: list[int]
    pile: list[StoredPlay]
    status: list[Literal["active", "pending", "out", "left"]]
    out_order: list[int]
    left_order: list[int]
    to_move: int | None
    first_move: bool
    move_count: int = Field(ge=0)
    strikes: list[int]
    end: StoredEnd | None

    @model_validator(mode="after")
    def _per_seat(self) -> StoredDubb:
        v = self.format_version
        if (self.rng_state is not None) != (v == 1) or (self.rng_draws is not None) != (
                v == 2) or (self.deals is not None) != (v == 3) or (self.seed is None) != (v == 3):
            raise ValueError("version 1 keeps the RNG as seed and rng_state, version 2 as seed "
                             "and rng_draws, version 3 as deals")
        n = len(self.seats)
        for name in ("hands", "status", "strikes"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} must have one entry per seat ({n})")
        seats_named = [p.seat for p in self.pile] + self.out_order + self.left_order
        if self.to_move is not None:
            seats_named.append(self.to_move)
        if self.end is not None:
            seats_named += [*self.end.ranking, self.end.loser]
        if any(not 0 <= x < n for x in seats_named):
            raise ValueError("a seat index is out of range")
        if (self.to_move is None) != (self.end is not None):
            raise ValueError("a game has a player to move exactly when it is not over")
        return self


def load_stored(data: dict[str, Any]) -> StoredDubb:
    """Validate ``data``; ``ValueError`` with a readable reason if it is not a stored game."""
    if not isinstance(data, dict):
        raise ValueError(f"a stored Dubb game is a dict, not {type(data).__name__}")
    version = data.get("format_version")
    if version not in FORMAT_VERSIONS:
        raise ValueError(f"unsupported Dubb format_version {version!r} (expected one of "
                         f"{FORMAT_VERSIONS})")
    # options are stored as a plain dict; the model is frozen and strict everywhere else
    prepared = dict(data)
    if isinstance(prepared.get("options"), dict):
        try:
            prepared["options"] = DubbOptions.model_validate(prepared["options"])
        except ValidationError as e:
            raise ValueError(f"bad options in stored Dubb game: {e}") from e
    if isinstance(prepared.get("rng_state"), list):
        prepared["rng_state"] = tuple(prepared["rng_state"])
    try:
        return StoredDubb.model_validate(prepared)
    except ValidationError as e:
        raise ValueError(f"not a valid stored Dubb game: {e}") from e


def stored_form(game: DubbState) -> dict[str, Any]:
    """``game``'s whole state as JSON-safe data, RNG included, so play continues identically.

    The RNG is stored as how many numbers the game drew from its seed: a shuffle draws one
    per card, so that count and the seed give back the generator's exact state. Its whole
    state, 625 numbers (about 6.5 KB of JSON against 0.6 KB for everything else), was
    written with every move (issue 16); only a game whose RNG did not come from its seed
    (stored so by hand) still keeps the whole state."""
    rng: dict[str, Any]
    if game._deals is not None:
        form, rng = game.STATE_VERSION, {"deals": game._deals.to_stored()}
    elif game._rng_draws is None:
        version, internal, gauss = game._rng.getstate()
        form, rng = 1, {"rng_state": [version, list(internal), gauss]}
    else:
        form, rng = 2, {"seed": game._seed, "rng_draws": game._rng_draws}
    if form == 1:
        rng = {"seed": game._seed, **rng}
    return {
        "format_version": form,
        "kind": game.KIND,
        "seats": [{"player_id": s.player_id, "name": s.name} for s in game._seats],
        "options": game._options.model_dump(),
        "cards_each": game._cards_each,
        **rng,
        "hands": [list(h) for h in game._hands],
        "draw_pile": list(game._draw),
        "pile": [{"seat": s, "rank": r, "cards": list(c)} for s, r, c in game._pile],
        "status": [STATUS_NAMES[st] for st in game._status],
        "out_order": list(game._out_order),
        "left_order": list(game._left_order),
        "to_move": None if game._to_move < 0 else game._to_move,
        "first_move": game._first_move,
        "move_count": game._move_count,
        "strikes": list(game._strikes),
        "end": None if game._end_reason is None else {
            "reason": game._end_reason,
            "ranking": list(game._ranking),
            "loser": game._loser,
        },
    }


def restore(cls: type[Game], data: dict[str, Any]) -> Game:
    """The game ``stored_form`` wrote, as a ``cls`` (``DubbEngine.from_stored`` passes its own
    class); ``ValueError`` if it is not valid."""
    s = load_stored(data)
    draws = s.rng_draws
    deals = None if s.deals is None else CommittedDeals.from_stored(s.deals)
    seed = s.seed or 0
    if deals is not None:
        rng = random.Random(0)
    elif draws is None:
        rng = random.Random()
        try:
            rng.setstate((s.rng_state[0], tuple(s.rng_state[1]), s.rng_state[2]))
        except (TypeError, ValueError) as e:
            raise ValueError(f"bad RNG state in stored Dubb game: {e}") from e
        # a game stored in version 1 goes on in version 2 when its state is the seed's
        draws = draws_to(seed, rng.getstate())
    else:
        rng = random.Random(seed)
        draw_numbers(rng, draws)
    game = cls(
        seats=[Seat(x.player_id, x.name) for x in s.seats],
        options=s.options,
        cards_each=s.cards_each,
        seed=seed,
        rng=rng,
        rng_draws=draws,
        hands=[list(h) for h in s.hands],
        draw_pile=list(s.draw_pile),
        pile=[(p.seat, p.rank, tuple(p.cards)) for p in s.pile],
        status=[STATUS_NAMES.index(x) for x in s.status],
        out_order=list(s.out_order),
        left_order=list(s.left_order),
        to_move=-1 if s.to_move is None else s.to_move,
        first_move=s.first_move,
        move_count=s.move_count,
        strikes=list(s.strikes),
        end=None if s.end is None else (s.end.reason, list(s.end.ranking), s.end.loser),
        deals=deals,
    )
    problems = check_invariants(game, full_deck=False)
    if problems:
        raise ValueError("inconsistent stored Dubb game: " + "; ".join(problems))
    return game
