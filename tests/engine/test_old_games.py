"""Games played and stored by the code before the speed work (commit 1766f00): their stored
states load and store back unchanged, play on from there exactly like the old code did, and a
replay of their move logs from the deal reaches exactly those states, so deals and shuffles are
still the old ones (a Dubb game now keeps its RNG in a newer form, and an old one loads into
it: they are compared in the old form).

``fixtures/old_games.json`` was written by that commit: two Dubb games (one with two packs,
jokers, the hand limit and D12, a timeout and a leave in the other) and two Tonk tables (smart
and greedy players, one with must-spread, the hit lock and no upcard, a T11 timeout in each),
each with its seats, options, seed, move log and the stored state after some of the moves.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.gamekit.contract import GameSpec, Seat
from bot.games.registry import GAMES
from tests.engine.conftest import in_version_1

FIXTURE = Path(__file__).parent / "fixtures" / "old_games.json"
OLD = json.loads(FIXTURE.read_text())["games"]
IDS = [f"{g['kind']}-{g['seed']}" for g in OLD]


def _spec(game: dict[str, Any]) -> GameSpec:
    return GAMES[game["kind"]]


def _as_stored_then(spec: GameSpec, engine: Any, old: dict[str, Any]) -> dict[str, Any]:
    """The engine's state in the form ``old`` was stored in. A Dubb game keeps its RNG as the
    count of numbers drawn from the seed (version 2, issue 16); the old form kept the
    generator's whole state, which that count gives back exactly."""
    stored = engine.to_stored()
    if stored["format_version"] == old["format_version"]:
        return stored
    assert stored["kind"] == "dubb" and (stored["format_version"], old["format_version"]) == (2, 1)
    return in_version_1(stored, spec.load_engine(stored)._rng)


@pytest.mark.parametrize("game", OLD, ids=IDS)
def test_an_old_move_log_replays_to_the_old_states(game: dict[str, Any]) -> None:
    spec = _spec(game)
    seats = [Seat(p, name) for p, name in game["seats"]]
    engine = spec.new_engine(seats, spec.validate_options(game["options"]), game["seed"])
    checked = 0
    for n, (player, move) in enumerate(game["moves"], 1):
        engine.apply(player, spec.moves.from_dict(move))
        stored = game["states"].get(str(n))
        if stored is not None:
            assert _as_stored_then(spec, engine, stored) == stored, f"after move {n}"
            assert engine.check_invariants() == []
            checked += 1
    assert checked == len(game["states"]) >= 1


@pytest.mark.parametrize("game", OLD, ids=IDS)
def test_an_old_stored_state_loads_and_plays_on_as_before(game: dict[str, Any]) -> None:
    spec = _spec(game)
    points = sorted(int(n) for n in game["states"])
    for start, end in pairwise(points):
        stored = game["states"][str(start)]
        engine = spec.load_engine(json.loads(json.dumps(stored)))
        assert _as_stored_then(spec, engine, stored) == stored
        for player, move in game["moves"][start:end]:
            engine.apply(player, spec.moves.from_dict(move))
        assert _as_stored_then(spec, engine, stored) == game["states"][str(end)]
    last = game["states"][str(points[-1])]
    assert _as_stored_then(spec, spec.load_engine(last), last) == last
