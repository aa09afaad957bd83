"""The smart Dubb strategy: legal moves only, nothing but what its seat may see (D14), the same
move every time, and the habits that make it stronger than greedy."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.dubb import DubbEngine, DubbOptions, sim
from bot.games.dubb.moves import DRAW, DRAW_PLAY, Move, play_of
from bot.games.dubb.observation import DubbObservation
from bot.games.dubb.players import STRATEGIES, SmartStrategy, greedy_move, random_move
from bot.games.dubb.smart import smart_strategy
from tests.engine.conftest import A, B, C, position, seats

LAST_DRAW = DubbOptions(last_player_draw_play=True)


class SeatOnly:
    """An observation that offers only what a seat may see: touching anything else (another
    hand, the draw pile, the game behind it) raises AttributeError."""

    __slots__ = ("_me",)

    def __init__(self, me: DubbObservation) -> None:
        self._me = me

    @property
    def player_id(self) -> int:
        return self._me.player_id

    @property
    def hand(self) -> tuple[int, ...]:
        return self._me.hand

    @property
    def legal_moves(self) -> list[Move]:
        return self._me.legal_moves

    @property
    def top_rank(self) -> int:
        return self._me.top_rank

    # public facts of the table, the same as the public view's, only cheaper
    @property
    def first_move(self) -> bool:
        return self._me.first_move

    @property
    def move_count(self) -> int:
        return self._me.move_count

    @property
    def cards_each(self) -> int:
        return self._me.cards_each

    def others_holding_count(self) -> int:
        return self._me.others_holding_count()

    def others_holding(self) -> list[int]:
        return self._me.others_holding()

    def others_in(self) -> int:
        return self._me.others_in()

    def public_view(self) -> Any:
        return self._me.public_view()

    def private_view(self) -> Any:
        return self._me.private_view()


def _twin(game: DubbEngine, me: int, rng: random.Random) -> DubbEngine:
    """The same game as ``me`` sees it, with every card ``me`` cannot see dealt afresh: the
    other hands (same sizes) and the draw pile are a reshuffle of the same hidden cards."""
    view = game.public_view()
    hidden = [c for s in game.seats if s.player_id != me for c in game.hand(s.player_id)]
    # the test may look at the hidden cards; the strategy may not
    hidden += game._draw
    rng.shuffle(hidden)
    hands = []
    for p in view.players:
        if p.player_id == me:
            hands.append(list(game.hand(me)))
        else:
            hands.append([hidden.pop() for _ in range(p.hand_size)])
    ids = [s.player_id for s in game.seats]
    pile = [(ids[seat], cards) for seat, _, cards in game._pile]
    out = sorted((p.place, p.player_id) for p in view.players if p.status == "out")
    left = sorted(((p.place, p.player_id) for p in view.players if p.status == "left"),
                  reverse=True)
    return DubbEngine.from_position(
        list(game.seats), hands=hands, draw_pile=hidden, pile=pile, to_move=me,
        options=game.options, out=[x for _, x in out], left=[x for _, x in left],
        first_move=view.first_move, move_count=view.move_count,
    )


games = st.tuples(
    st.integers(2, 6), st.integers(0, 2**32), st.booleans(), st.booleans(), st.booleans(),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_smart_plays_only_legal_moves_and_sees_only_its_seat(spec: tuple[Any, ...]) -> None:
    """Over whole games with every option: each smart move is one of ``legal_moves``; it is the
    same move when the observation offers nothing beyond the seat's view, and the same again
    when every card the seat cannot see is dealt differently (D14)."""
    n, seed, two_packs, jokers, limit, last_draw = spec
    options = DubbOptions(decks=2 if two_packs else 1, jokers=jokers, hand_limit=limit,
                          last_player_draw_play=last_draw)
    game = DubbEngine.new(seats(n), options, seed)
    rng = random.Random(seed)
    lineup = [smart_strategy, greedy_move, random_move]
    checked = 0
    while not game.is_over:
        player = game.to_move
        assert player is not None
        seat = [s.player_id for s in game.seats].index(player)
        strategy = lineup[(seat + seed) % len(lineup)]
        move = strategy(game.observe(player), rng)
        if strategy is smart_strategy:
            assert move in game.legal_moves(player)
            assert smart_strategy(SeatOnly(game.observe(player)), rng) == move  # type: ignore[arg-type]
            if checked < 5:
                twin = _twin(game, player, rng)
                assert twin.public_view() == game.public_view()
                assert smart_strategy(twin.observe(player), rng) == move
                checked += 1
        game.apply(player, move)
    assert game.check_invariants() == []


def test_smart_is_registered_and_deterministic() -> None:
    assert STRATEGIES["smart"]().choose.__func__ is SmartStrategy.choose
    one = sim.run(60, 4, 3, "smart", DubbOptions(), checks=True, strategies=("smart", "greedy"))
    two = sim.run(60, 4, 3, "smart", DubbOptions(), checks=False, strategies=("smart", "greedy"))
    assert one.invariant_violations == 0
    assert (one.moves, one.losses_by_seat) == (two.moves, two.losses_by_seat)


def test_smart_opens_with_its_lowest_rank_d4() -> None:
    game = position(3, ["4c 4d 9h", "5c", "6d"], to_move=None, first_move=True, draw="2s")
    assert smart_strategy(game.observe(A), random.Random(0)) == play_of(4, 2)


def test_smart_always_dubs_d8() -> None:
    game = position(4, ["3c 5d 7h Jc", "4d", "6d 8d", "9d"], pile=[(B, "Jd")], draw="2s",
                    to_move=A)
    assert smart_strategy(game.observe(A), random.Random(0)) == play_of(11, 1)


def test_smart_keeps_a_high_card_while_it_holds_three_lower_ranks_d5() -> None:
    game = position(4, ["3c 5d 7h Jc", "4d", "6d 8d", "9d"], pile=[(B, "10d")], draw="2s",
                    to_move=A)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(11, 1)
    assert smart_strategy(game.observe(A), random.Random(0)) == DRAW
    fewer = position(4, ["5d 7h Jc", "4d", "6d 8d", "9d"], pile=[(B, "10d")], draw="2s",
                     to_move=A)
    assert smart_strategy(fewer.observe(A), random.Random(0)) == play_of(11, 1)


def test_smart_stops_keeping_cards_once_its_hand_has_grown() -> None:
    big = position(4, ["2c 3c 5d 6s 7h 8h 9s 9h Jc", "4d", "6d 8d", "9d"], pile=[(B, "10d")],
                   draw="2s", to_move=A)
    assert smart_strategy(big.observe(A), random.Random(0)) == play_of(11, 1)


def test_in_the_duel_smart_plays_its_aces_first_to_go_out_next_d7() -> None:
    game = position(3, ["5c As", "3h 8h 9h", ""], pile=[(B, "3d")], out=[C], draw="2s",
                    to_move=A)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(5, 1)
    assert smart_strategy(game.observe(A), random.Random(0)) == play_of(14, 1)


def test_in_the_duel_smart_blocks_an_opponent_with_one_card() -> None:
    game = position(3, ["4c 9d Qh", "8h", ""], pile=[(B, "3d")], out=[C], draw="2s", to_move=A)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(4, 1)
    assert smart_strategy(game.observe(A), random.Random(0)) == play_of(12, 1)


def test_alone_with_a_pending_player_smart_dubs_or_tries_draw_and_play_d11_d12() -> None:
    dub = position(3, ["7h 9c", "", ""], pile=[(B, "7d")], out=[C], draw="2s", to_move=A)
    assert smart_strategy(dub.observe(A), random.Random(0)) == play_of(7, 1)
    no_dub = position(3, ["9c Kd", "", ""], pile=[(B, "7d")], out=[C], draw="2s", to_move=A,
                      options=LAST_DRAW)
    assert greedy_move(no_dub.observe(A), random.Random(0)) == play_of(9, 1)
    assert smart_strategy(no_dub.observe(A), random.Random(0)) == DRAW_PLAY


def test_smart_beats_greedy_in_a_small_fixed_match() -> None:
    """A sanity check only (strength is measured by the simulator): 600 three-player games,
    one smart seat against two greedy ones, fixed seed."""
    stats = sim.run(600, 3, 11, "greedy", DubbOptions(), checks=False,
                    strategies=("smart", "greedy", "greedy"))
    smart, greedy = stats.by_strategy["smart"], stats.by_strategy["greedy"]
    assert smart.losses / smart.seats < greedy.losses / greedy.seats

