"""Hypothesis properties of the Tonk table over random streams of play and table moves (joins,
leaves, timeouts, deals): the 52 cards are conserved, payments sum to zero, hands end, the
stored form round-trips at every point, replays are exact, and legal_moves agrees with apply."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import new_deck
from bot.gamekit.contract import RuleError, Seat
from bot.games.tonk import (
    TURN_CAP,
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    HandEnded,
    Hit,
    Join,
    Leave,
    Move,
    Phase,
    Spread,
    Timeout,
    TonkEngine,
    TonkOptions,
    check_invariants,
    event_to_dict,
    move_from_dict,
    move_to_dict,
)
from bot.games.tonk.settlement import net
from bot.games.tonk.spreads import sort_cards

DECK = new_deck()
PLAY_MOVES = (Drop, DrawStock, DrawDiscard, EndHand, Spread, Hit, Discard, DealNextHand)

options_st = st.builds(
    TonkOptions,
    stake=st.integers(1, 1_000_000),
    upcard=st.booleans(),
    must_spread=st.booleans(),
    double_needs_spread=st.booleans(),
    hit_lock=st.booleans(),
)


def canonical(move: Move) -> Move:
    if isinstance(move, Spread):
        return Spread(sort_cards(move.cards))
    if isinstance(move, Hit):
        return Hit(move.spread_id, sort_cards(move.cards))
    return move


def arbitrary_move(table: TonkEngine, value: int) -> tuple[int, Move]:
    """A move by some player that may well be illegal."""
    ids = [*table.player_ids, 77]
    player = ids[value % len(ids)]
    value //= len(ids)
    hand = list(table.hand(player)) or DECK[:3]
    pick = value % 9
    value //= 9
    if pick == 4:
        k = 1 + value % 4
        return player, Spread(tuple(hand[(value + i) % len(hand)] for i in range(k)))
    if pick == 5:
        return player, Hit(value % 4, (hand[value % len(hand)],))
    if pick == 6:
        return player, Discard(DECK[value % 52] if value % 3 else hand[value % len(hand)])
    if pick == 7:
        return player, DealNextHand()
    if pick == 8:
        return player, Join("x")
    return player, (Drop(), DrawStock(), DrawDiscard(), EndHand())[pick]


def next_step(table: TonkEngine, value: int, newcomer: int) -> tuple[int, Move]:
    """Mostly play, leaning towards long hands with spreads and hits so that every way of
    ending a hand turns up; now and then a leave, a timeout, a join or a deal."""
    kind, value = value % 64, value // 64
    seated = table.player_ids
    if kind == 0 and value % 4 == 0:
        return seated[value % len(seated)], Leave()
    if table.phase is Phase.HAND_OVER:
        if kind < 8 and len(seated) < 4:
            return newcomer, Join(f"N{newcomer}")
        return seated[value % len(seated)], DealNextHand()
    player = table.to_move
    assert player is not None
    if kind < 3:
        return player, Timeout()
    legal = table.legal_moves(player)
    if kind < 6:
        return player, legal[value % len(legal)]
    lays = [m for m in legal if isinstance(m, Spread | Hit)]
    if lays and kind % 4:
        return player, lays[value % len(lays)]
    calm = [m for m in legal if not isinstance(m, Drop | EndHand)] or legal
    return player, calm[value % len(calm)]


def check_point(table: TonkEngine) -> None:
    assert check_invariants(table) == []
    stored = table.to_stored()
    restored = TonkEngine.from_stored(json.loads(json.dumps(stored)))
    assert restored.to_stored() == stored
    if table.phase in (Phase.START, Phase.AFTER_DRAW):
        # a hand in play always offers its player a move, and never passes the cap (T8)
        assert table.to_move is not None and table.legal_moves(table.to_move)
        assert table.turns < TURN_CAP


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 4),
    options=options_st,
    values=st.lists(st.integers(0, 2**30), min_size=1, max_size=250),
    probes=st.lists(st.integers(0, 2**30), max_size=250),
)
def test_random_streams_keep_every_invariant(
    seed: int, players: int, options: TonkOptions, values: list[int], probes: list[int],
) -> None:
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    table = TonkEngine.new(seats, options, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    all_events = [event_to_dict(e) for e in table.opening_events]
    check_point(table)
    newcomer = 100
    for step, value in enumerate(values):
        if table.is_over:
            break
        if step < len(probes):
            probe_legality(table, *arbitrary_move(table, probes[step]))
        player, move = next_step(table, value, newcomer)
        if isinstance(move, Join):
            newcomer += 1
        events = table.apply(player, move)
        log.append((player, move_to_dict(move)))
        all_events.extend(event_to_dict(e) for e in events)
        for e in events:
            if isinstance(e, HandEnded):
                assert sum(net(e.result.payments).values()) == 0
                assert all(p.amount > 0 for p in e.result.payments)
        check_point(table)
    replay = TonkEngine.new(seats, options, seed)
    replay_events = [event_to_dict(e) for e in replay.opening_events]
    for player, move_dict in log:
        replay_events.extend(event_to_dict(e) for e in replay.apply(player,
                                                                    move_from_dict(move_dict)))
    assert replay.to_stored() == table.to_stored()
    assert replay_events == all_events
    json.dumps(all_events)


def probe_legality(table: TonkEngine, player: int, move: Move) -> None:
    """An illegal move changes nothing; a legal play move is one that legal_moves lists."""
    before = table.to_stored()
    scratch = TonkEngine.from_stored(before)
    try:
        scratch.apply(player, move)
    except RuleError:
        assert scratch.to_stored() == before
        assert canonical(move) not in table.legal_moves(player)
        return
    if isinstance(move, PLAY_MOVES):
        assert canonical(move) in table.legal_moves(player)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), options=options_st)
def test_every_listed_move_applies(seed: int, players: int, options: TonkOptions) -> None:
    table = TonkEngine.new([Seat(i + 1, f"P{i + 1}") for i in range(players)], options, seed)
    for _ in range(40):
        if table.phase is Phase.HAND_OVER:
            table.apply(table.player_ids[0], DealNextHand())
            continue
        player = table.to_move
        assert player is not None
        legal = table.legal_moves(player)
        stored = table.to_stored()
        for move in legal:
            TonkEngine.from_stored(stored).apply(player, move)
        table.apply(player, legal[-1])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), options=options_st,
       picks=st.lists(st.integers(0, 2**20), min_size=TURN_CAP * 8, max_size=TURN_CAP * 8))
def test_hands_end(seed: int, players: int, options: TonkOptions, picks: list[int]) -> None:
    """Whatever the players choose, a hand ends within T8's cap."""
    table = TonkEngine.new([Seat(i + 1, f"P{i + 1}") for i in range(players)], options, seed)
    if table.phase is Phase.HAND_OVER:
        return
    for pick in picks:
        player = table.to_move
        assert player is not None
        legal = [m for m in table.legal_moves(player) if not isinstance(m, Drop | EndHand)]
        events = table.apply(player, legal[pick % len(legal)])
        if any(isinstance(e, HandEnded) for e in events):
            return
    raise AssertionError("the hand did not end")
