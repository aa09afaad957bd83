"""Property tests over random games with every option combination, leaving and timeouts
included: cards conserved, exactly one loser, every game ends, the stored form round-trips at
any point and plays on identically, and (options, seed, moves) replays to the same state."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.gamekit.contract import RuleError
from bot.games.dubb import (
    MOVE_CAP,
    DubbEngine,
    DubbOptions,
    GameOver,
    Leave,
    Move,
    Play,
    PlayerLeft,
    Timeout,
    event_to_dict,
)
from bot.games.dubb.moves import DRAW, PASS, play_of
from tests.engine.conftest import seats


@dataclass(frozen=True)
class Scenario:
    players: int
    options: DubbOptions
    seed: int
    chooser_seed: int
    play_bias: float
    leave_rate: float
    timeout_rate: float
    snapshot_at: int


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    players = draw(st.integers(2, 6))
    options = DubbOptions(
        decks=draw(st.sampled_from([1, 2])),
        jokers=draw(st.booleans()),
        hand_limit=draw(st.booleans()),
        last_player_draw_play=draw(st.booleans()),
    )
    cards_each = draw(st.sampled_from(options.allowed_cards_each(players)))
    return Scenario(
        players=players,
        options=options.model_copy(update={"cards_each": cards_each}),
        seed=draw(st.integers(0, 2**63)),
        chooser_seed=draw(st.integers(0, 2**32)),
        play_bias=draw(st.sampled_from([0.0, 0.6, 0.95])),
        leave_rate=draw(st.sampled_from([0.0, 0.0, 0.001, 0.01])),
        timeout_rate=draw(st.sampled_from([0.0, 0.02, 0.2])),
        snapshot_at=draw(st.integers(0, 600)),
    )


def _choose(game: DubbEngine, sc: Scenario, rng: random.Random) -> tuple[int, Move]:
    roll = rng.random()
    if roll < sc.leave_rate:
        still_in = [p.player_id for p in game.public_view().players
                    if p.status in ("to_move", "waiting", "pending")]
        return rng.choice(still_in), Leave()
    player = game.to_move
    assert player is not None
    if roll < sc.leave_rate + sc.timeout_rate:
        return player, Timeout()
    moves = game.legal_moves(player)
    plays = [m for m in moves if isinstance(m, Play)]
    if plays and rng.random() < sc.play_bias:
        return player, rng.choice(plays)
    return player, rng.choice(moves)


def _try_refused(game: DubbEngine, rng: random.Random) -> None:
    """An illegal move is refused and changes nothing."""
    player = game.to_move
    assert player is not None
    legal = game.legal_moves(player)
    candidates = [DRAW, PASS, play_of(2, 1), play_of(14, 3, 1), play_of(9, 0, 1)]
    illegal = [m for m in candidates if m not in legal]
    others = [s.player_id for s in game.seats if s.player_id != player]
    before, seen = game.to_stored(), game.public_view()
    for who, move in ((player, rng.choice(illegal)), (rng.choice(others), DRAW)):
        try:
            game.apply(who, move)
        except RuleError:
            pass
        else:
            raise AssertionError(f"{move} by {who} was accepted")
        assert game.to_stored() == before
        assert game.public_view() == seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_random_games_keep_every_invariant(sc: Scenario) -> None:
    table = seats(sc.players)
    ids = [s.player_id for s in table]
    game = DubbEngine.new(table, sc.options, sc.seed)
    assert game.check_invariants() == []
    rng = random.Random(sc.chooser_seed)
    log: list[tuple[int, Move]] = []
    snapshot: DubbEngine | None = None
    snapshot_len = 0
    game_overs = 0
    steps = 0
    while not game.is_over:
        steps += 1
        # turn moves are capped (D13); leaves are at most one per player
        assert steps <= MOVE_CAP + sc.players, "the game did not end"
        if rng.random() < 0.01:
            _try_refused(game, rng)
        player, move = _choose(game, sc, rng)
        game.public_view()  # kept until the next apply, which must drop it
        events = game.apply(player, move)
        assert game.public_view() == game._make_public_view()
        log.append((player, move))
        assert events, "every move causes at least one event"
        for event in events:
            json.dumps(event_to_dict(event))
            game_overs += isinstance(event, GameOver)
        if isinstance(move, Leave):
            assert isinstance(events[0], PlayerLeft) and events[0].player == player
        assert game.check_invariants() == []
        if not game.is_over:
            waiting = [p for p in ids if p != game.to_move]
            assert game.legal_moves(rng.choice(waiting)) == []
            assert game.legal_moves(game.to_move)  # type: ignore[arg-type]
        if steps == sc.snapshot_at:
            snapshot = DubbEngine.from_stored(json.loads(json.dumps(game.to_stored())))
            snapshot_len = len(log)

    result = game.result
    assert result is not None
    assert game_overs == 1 and isinstance(events[-1], GameOver)
    assert sorted(result.ranking) == sorted(ids)
    assert result.loser in ids and result.ranking.count(result.loser) == 1
    if result.leavers:
        assert result.loser == result.leavers[0] == result.ranking[-1]
        assert list(result.ranking[-len(result.leavers):]) == list(reversed(result.leavers))
    else:
        assert result.loser == result.ranking[-1]
        assert result.reason in ("normal", "cap")
    if result.reason == "cap":
        assert game.move_count == MOVE_CAP

    stored = game.to_stored()
    assert DubbEngine.from_stored(json.loads(json.dumps(stored))).to_stored() == stored
    assert DubbEngine.replay(table, sc.options, sc.seed, log).to_stored() == stored
    if snapshot is not None:
        for player, move in log[snapshot_len:]:
            snapshot.apply(player, move)
        assert snapshot.to_stored() == stored
