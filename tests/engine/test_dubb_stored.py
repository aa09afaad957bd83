"""The stored form, the JSON forms of moves and events, and the views' dicts."""

from __future__ import annotations

import json
import random

import pytest

from bot.gamekit.contract import RuleError
from bot.games.dubb import (
    DrawPlayed,
    Drew,
    Dubbed,
    DubbEngine,
    DubbOptions,
    DubPickup,
    GameOver,
    Passed,
    PileTurned,
    Play,
    Played,
    PlayerLeft,
    PlayerOut,
    PlayerPending,
    PlayerRejoined,
    TimedOut,
    event_to_dict,
    move_from_dict,
    move_to_dict,
    public_form,
    random_move,
)
from bot.games.dubb.moves import DRAW, DRAW_PLAY, LEAVE, PASS, TIMEOUT
from tests.engine.conftest import A, B, in_version_1, seats

ALL_ON = DubbOptions(decks=2, jokers=True, hand_limit=True, last_player_draw_play=True)


def _played(game: DubbEngine, moves: int, seed: int = 3) -> DubbEngine:
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        player = game.to_move
        assert player is not None
        game.apply(player, random_move(game.observe(player), rng))
    return game


def test_stored_form_round_trips_through_json_and_plays_on_identically() -> None:
    game = _played(DubbEngine.new(seats(4), ALL_ON, 99), 40)
    stored = game.to_stored()
    # an int seed is the old Mersenne Twister deal, kept in version 2 (version 3: committed deals)
    assert stored["format_version"] == 2 and DubbEngine.STATE_VERSION == 3
    assert "rng_state" not in stored and stored["rng_draws"] >= 52
    assert stored["kind"] == DubbEngine.KIND == "dubb"
    copy = DubbEngine.from_stored(json.loads(json.dumps(stored)))
    assert copy.to_stored() == stored
    _played(game, 300, seed=5)
    _played(copy, 300, seed=5)
    assert copy.to_stored() == game.to_stored()


def test_the_rng_comes_back_from_the_seed_and_the_count_of_numbers_drawn() -> None:
    """Version 2 keeps the RNG as a count (issue 16): after deals, pile turns and leaves,
    the generator restored from it is in exactly the state of the one that drew them."""
    game = DubbEngine.new(seats(4), ALL_ON, 31)
    turned = 0
    rng = random.Random(2)
    while not game.is_over:
        player = game.to_move
        assert player is not None
        events = game.apply(player, random_move(game.observe(player), rng))
        turned += sum(isinstance(e, PileTurned) for e in events)
        copy = DubbEngine.from_stored(json.loads(json.dumps(game.to_stored())))
        assert copy._rng.getstate() == game._rng.getstate()
    assert turned >= 1


def test_a_version_1_game_loads_into_version_2_and_plays_on_identically() -> None:
    game = _played(DubbEngine.new(seats(3), ALL_ON, 7), 30)
    loaded = DubbEngine.from_stored(json.loads(json.dumps(in_version_1(game.to_stored(),
                                                                      game._rng))))
    assert loaded.to_stored() == game.to_stored()
    _played(game, 200, seed=9)
    _played(loaded, 200, seed=9)
    assert loaded.to_stored() == game.to_stored()


def test_a_version_1_game_whose_rng_is_not_its_seeds_keeps_it() -> None:
    game = _played(DubbEngine.new(seats(3), ALL_ON, 7), 30)
    foreign = random.Random(123)
    old = in_version_1(game.to_stored(), foreign)
    loaded = DubbEngine.from_stored(json.loads(json.dumps(old)))
    assert loaded.to_stored() == old
    _played(loaded, 200, seed=9)
    assert loaded.to_stored()["format_version"] == 1
    assert loaded.check_invariants(full_deck=False) == []


def test_a_finished_game_round_trips_with_its_result() -> None:
    game = _played(DubbEngine.new(seats(3), DubbOptions(), 4), 5000)
    assert game.is_over
    copy = DubbEngine.from_stored(json.loads(json.dumps(game.to_stored())))
    assert copy.result == game.result
    assert copy.is_over and copy.to_move is None


def test_replay_of_options_seed_and_moves_reaches_the_same_state() -> None:
    game = DubbEngine.new(seats(3), ALL_ON, 12)
    rng = random.Random(1)
    log = []
    while not game.is_over:
        player = game.to_move
        assert player is not None
        move = random_move(game.observe(player), rng)
        log.append((player, move_to_dict(move)))
        game.apply(player, move)
    again = DubbEngine.replay(seats(3), ALL_ON, 12, [(p, move_from_dict(m)) for p, m in log])
    assert again.to_stored() == game.to_stored()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format_version=3), "format_version"),
        (lambda d: d.update(format_version=1), "rng_state"),
        (lambda d: d.update(rng_state=[3, list(range(625)), None]), "rng_draws"),
        (lambda d: d.update(rng_draws=-1), "rng_draws"),
        (lambda d: d.update(rng_draws=10**9), "rng_draws"),
        (lambda d: d.update(kind="tonk"), "kind"),
        (lambda d: d["hands"].pop(), "one entry per seat"),
        (lambda d: d.update(to_move=9), "out of range"),
        (lambda d: d["draw_pile"].append(d["draw_pile"][0]), "two places"),
        (lambda d: d.update(status=["out"] * len(d["status"])), "inconsistent"),
        (lambda d: d.update(format_version=1, rng_draws=None, rng_state=[3, [1, 2], None]),
         "RNG"),
        (lambda d: d["options"].update(decks=5), "options"),
        (lambda d: d.update(extra=1), "extra"),
    ],
)
def test_from_stored_rejects_damaged_data(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = DubbEngine.new(seats(3), DubbOptions(), 8).to_stored()
    change(data)
    with pytest.raises(ValueError, match=message):
        DubbEngine.from_stored(data)


def test_moves_round_trip_through_their_dicts() -> None:
    moves = [DRAW, PASS, DRAW_PLAY, LEAVE, TIMEOUT, Play(7, 2, 1), Play(9, 1, 0, (9, 25))]
    for move in moves:
        data = move_to_dict(move)
        assert move_from_dict(json.loads(json.dumps(data))) == move
    assert move_to_dict(Play(7, 2)) == {
        "type": "play", "rank": 7, "naturals": 2, "jokers": 0, "cards": None
    }


@pytest.mark.parametrize(
    "data",
    [
        {"type": "fold"},
        {"type": "draw", "rank": 3},
        {"type": "play", "rank": 1, "naturals": 1},
        {"type": "play", "rank": 7, "naturals": "2"},
        {"type": "play", "rank": 7, "naturals": 1, "cards": ["7h"]},
        {"type": "play", "rank": 7, "naturals": 1, "colour": "red"},
        ["draw"],
    ],
)
def test_move_from_dict_rejects_nonsense(data: object) -> None:
    with pytest.raises(ValueError):
        move_from_dict(data)  # type: ignore[arg-type]


def test_every_event_type_has_a_json_form() -> None:
    pickup = DubPickup(B, 1, 1, (5,))
    events = [
        Played(A, 7, (7, 23)), Dubbed(A, 7, 2, (pickup,)), Drew(A, 1, (4,)), Passed(A),
        PileTurned(A, "D6", 3), PlayerPending(A), PlayerOut(A, 1), PlayerRejoined(B, 1),
        DrawPlayed(A, 9, True), PlayerLeft(A, 3, 2), TimedOut(A, "draw", 1),
        GameOver((B, A), A, "left", (A,)),
    ]
    types = set()
    for event in events:
        data = event_to_dict(event)
        json.dumps(data)
        types.add(data["type"])
        public = json.dumps(public_form(event_to_dict(event)))
        assert "private_cards" not in public
    assert types == {
        "played", "dubbed", "drew", "passed", "pile_turned", "pending", "out", "rejoined",
        "draw_play", "left", "timeout", "game_over",
    }
    assert event_to_dict(events[1])["victims"][0]["private_cards"] == [5]


def test_views_are_json_safe() -> None:
    game = _played(DubbEngine.new(seats(4), ALL_ON, 21), 30)
    json.dumps(game.public_view().to_dict())
    player = game.to_move
    assert player is not None
    private = game.private_view(player).to_dict()
    json.dumps(private)
    assert private["legal_moves"] == [move_to_dict(m) for m in game.legal_moves(player)]
    finished = _played(DubbEngine.new(seats(2), DubbOptions(), 2), 5000)
    data = finished.public_view().to_dict()
    json.dumps(data)
    assert data["result"]["loser"] in (A, B)
    assert sorted(p["place"] for p in data["players"]) == [1, 2]


def test_unknown_players_are_refused() -> None:
    game = DubbEngine.new(seats(2), DubbOptions(), 1)
    with pytest.raises(RuleError) as info:
        game.apply(999, DRAW)
    assert info.value.ruling == "D1"
    assert game.legal_moves(999) == []
