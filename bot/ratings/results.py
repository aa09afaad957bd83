"""Which tables are rated, and their places: one function for the live table and for
``rerate`` (``bot.ops.rerate``), so both always agree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.gamekit.contract import GameSpec
from bot.ratings.model import FRESH, rate
from bot.storage import MoveRecord, RatingJob


def rated_places(game: GameSpec, rated: bool, start: Mapping[str, Any],
                 events: Sequence[Mapping[str, Any]], finished: bool
                 ) -> tuple[tuple[int, ...], ...] | None:
    """The places of a table, or ``None`` when it is not rated: the host chose ``rated: false``,
    the game rates nothing, a computer player sat at it (computers have no rating), or fewer
    than two people were placed. ``start`` is the start record (move-log row 0), ``events``
    every stored event of the table in order."""
    if not rated or game.standings is None:
        return None
    seats = [dict(s) for s in start.get("seats", ())]
    if any(s.get("is_computer") or int(s["player_id"]) < 0 for s in seats):
        return None
    places = game.standings.places([int(s["player_id"]) for s in seats], events, finished)
    if not places:
        return None
    players = [p for group in places for p in group]
    if len(players) < 2 or any(p < 0 for p in players) or len(set(players)) != len(players):
        return None
    return tuple(tuple(group) for group in places if group)


def log_events(moves: Iterable[MoveRecord]) -> list[dict[str, Any]]:
    return [e for m in moves for e in m.events]


def job(places: tuple[tuple[int, ...], ...]) -> RatingJob:
    return RatingJob(places=places, rate=rate, fresh=FRESH)
