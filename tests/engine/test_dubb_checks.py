"""What the Dubb engine keeps for speed and how it is checked: the rank counts of every hand and
the card count of the pile stay equal to a recount, a move ``legal_moves`` listed skips its second
validation only while the game has not changed, the cheap check (``check_quick``) and the full
check catch a damaged game, and the observation's cheap facts agree with the public view."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import ACE
from bot.gamekit.contract import RuleError
from bot.games.dubb import DubbEngine, DubbOptions, Leave, Play, Timeout
from bot.games.dubb.deal import shuffle_cards
from bot.games.dubb.moves import DRAW, Draw, play_of
from tests.engine.conftest import A, B, position, seats

options_st = st.builds(
    DubbOptions,
    decks=st.sampled_from([1, 2]),
    jokers=st.booleans(),
    hand_limit=st.booleans(),
    last_player_draw_play=st.booleans(),
)


def recount(hand: list[int]) -> list[int]:
    counts = [0] * (ACE + 1)
    for c in hand:
        counts[c & 15] += 1
    return counts


def copy_of(move: object) -> object:
    """An equal move that is not the listed object."""
    if isinstance(move, Play):
        return Play(move.rank, move.naturals, move.jokers, move.cards)
    return type(move)()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), options=options_st, seed=st.integers(0, 2**63),
       chooser=st.integers(0, 2**32))
def test_the_bookkeeping_equals_a_recount_after_every_move(
    players: int, options: DubbOptions, seed: int, chooser: int,
) -> None:
    game = DubbEngine.new(seats(players), options, seed)
    rng = random.Random(chooser)
    while not game.is_over:
        roll = rng.random()
        player = game.to_move
        assert player is not None
        if roll < 0.01:
            holding = [s.player_id for s in game.seats if game.hand_size(s.player_id)]
            game.apply(rng.choice(holding), Leave())
        elif roll < 0.05:
            game.apply(player, Timeout())
        else:
            legal = game.legal_moves(player)
            move = rng.choice(legal)
            if rng.random() < 0.5:
                # the same move as a new object takes the checked way through apply
                move = copy_of(move)  # type: ignore[assignment]
            game.apply(player, move)
        assert game._counts == [recount(h) for h in game._hands]
        assert game._pile_cards == sum(len(p[2]) for p in game._pile)
        assert game.check_quick() == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), options=options_st, seed=st.integers(0, 2**63),
       chooser=st.integers(0, 2**32))
def test_a_listed_move_and_an_equal_new_one_do_the_same(
    players: int, options: DubbOptions, seed: int, chooser: int,
) -> None:
    game = DubbEngine.new(seats(players), options, seed)
    rng = random.Random(chooser)
    for _ in range(150):
        if game.is_over:
            break
        player = game.to_move
        assert player is not None
        stored = game.to_stored()
        move = rng.choice(game.legal_moves(player))
        twin = DubbEngine.from_stored(json.loads(json.dumps(stored)))
        assert twin.apply(player, copy_of(move)) == game.apply(player, move)  # type: ignore[arg-type]
        assert twin.to_stored() == game.to_stored()


def test_a_listed_move_is_checked_again_once_the_game_has_moved_on() -> None:
    # a joker alone takes the top rank (D9); after the aces turn the pile (D7) the same player
    # is to move on an empty pile, where the joker the old list offered is illegal
    game = position(2, ["As jk 9c", "5d 6d"], pile=[(B, "7h")], to_move=A,
                    options=DubbOptions(jokers=True))
    legal = game.legal_moves(A)
    joker = play_of(7, 0, 1)
    assert joker in legal
    listed = legal[legal.index(joker)]
    game.apply(A, play_of(ACE, 1))
    assert game.to_move == A
    with pytest.raises(RuleError) as info:
        game.apply(A, listed)
    assert info.value.ruling == "D9"


def test_a_list_changed_after_it_was_handed_out_gives_no_licence() -> None:
    game = position(2, ["9c", "5d 6d"], pile=[(B, "7h")], draw="2c", to_move=A)
    legal = game.legal_moves(A)
    illegal = Play(5, 1)
    legal.append(illegal)
    with pytest.raises(RuleError):
        game.apply(A, illegal)


def test_the_quick_check_catches_a_lost_or_doubled_card() -> None:
    game = position(3, ["9c 4h", "5d 6d", "Kc"], pile=[(B, "7h")], draw="2c 3c", to_move=A)
    assert game.check_quick() == [] and game.check_invariants(full_deck=False) == []
    game._draw.append(game._draw[0])
    assert "cards not conserved" in game.check_quick()
    game._draw.pop()
    game._hands[0].pop()
    assert "cards not conserved" in game.check_quick()


def test_the_quick_check_catches_d6_d7_and_the_hand_limit() -> None:
    game = position(2, ["9c 4h", "5d 6d"], pile=[(B, "7h")], to_move=A)
    game._to_move = 1  # B owns the top play
    assert "the player to move owns the top play (D6)" in game.check_quick()
    game._to_move = 0
    game._pile.append((1, ACE, ()))
    assert "aces on top of the pile (D7)" in game.check_quick()
    limited = position(2, ["2c 3c 4c 5c 6c 7c 8c", "5d"], to_move=A,
                       options=DubbOptions(hand_limit=True), first_move=True)
    assert limited.check_quick() == []
    limited._hands[0].append(limited._hands[1].pop())
    assert "a hand holds more cards than the hand limit" in limited.check_quick()


def test_the_full_check_catches_stale_bookkeeping() -> None:
    game = position(2, ["9c 4h", "5d 6d"], pile=[(B, "7h")], draw="2c", to_move=A)
    game._counts[0][9] += 1
    assert "the running rank counts of a hand are out of date" in game.check_invariants()
    game._counts[0][9] -= 1
    game._pile_cards += 1
    assert "the running count of cards on the pile is out of date" in game.check_invariants()
    assert "cards not conserved" in game.check_quick()


def test_a_game_refuses_a_stored_form_whose_cards_are_wrong() -> None:
    game = position(2, ["9c 4h", "5d 6d"], pile=[(B, "7h")], draw="2c", to_move=A)
    stored = game.to_stored()
    stored["hands"][0].append(stored["hands"][1][0])
    with pytest.raises(ValueError):
        DubbEngine.from_stored(stored)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**63), steps=st.integers(0, 300))
def test_the_observations_facts_are_the_public_views(players: int, seed: int,
                                                      steps: int) -> None:
    game = DubbEngine.new(seats(players), DubbOptions(), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        player = game.to_move
        assert player is not None
        game.apply(player, rng.choice(game.legal_moves(player)))
    if game.is_over:
        return
    for s in game.seats:
        me = game.observe(s.player_id)
        view = game.public_view()
        others = [p for p in view.players if p.player_id != s.player_id]
        assert me.others_holding() == [p.hand_size for p in others
                                       if p.status in ("waiting", "to_move")]
        assert me.others_holding_count() == len(me.others_holding())
        assert me.others_in() == sum(1 for p in others
                                     if p.status in ("waiting", "to_move", "pending"))
        assert (me.first_move, me.move_count, me.cards_each) == (
            view.first_move, view.move_count, view.cards_each)


def test_draw_listed_or_new_is_the_same_draw() -> None:
    game = position(3, ["9c 4h", "5d 6d", "Kc"], pile=[(B, "7h")], draw="2c 3c", to_move=A)
    twin = DubbEngine.from_stored(game.to_stored())
    assert DRAW in game.legal_moves(A)
    assert game.apply(A, DRAW) == twin.apply(A, Draw())
    assert game.to_stored() == twin.to_stored()
    assert game.to_move == twin.to_move == B


class _Keys:
    """Stands in for the random source: hands out the given keys in order."""

    def __init__(self, keys: list[float]) -> None:
        self._keys = iter(keys)

    def random(self) -> float:
        return next(self._keys)


@given(cards=st.lists(st.integers(0, 127), unique=True, max_size=60),
       ties=st.booleans(), seed=st.integers(0, 2**32))
def test_a_shuffle_orders_the_cards_by_key_then_by_card(cards: list[int], ties: bool,
                                                        seed: int) -> None:
    """The order every stored game was dealt and shuffled in: a key per card drawn in the
    cards' order, then sorted by (key, card); equal keys, however unlikely, go by card."""
    rng = random.Random(seed)
    keys = [rng.choice([0.25, 0.5]) if ties else rng.random() for _ in cards]
    shuffled = list(cards)
    shuffle_cards(_Keys(keys), shuffled)  # type: ignore[arg-type]
    assert shuffled == [c for _, c in sorted(zip(keys, cards, strict=True))]
