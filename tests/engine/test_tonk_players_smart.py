"""The smart Tonk player: legal moves only, decisions from its seat's view and the events its
seat was shown, the same decisions for the same seed, and the play that makes it stronger."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import make, parse_card
from bot.gamekit.contract import Seat
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    GreedyStrategy,
    Phase,
    Spread,
    TonkEngine,
    TonkOptions,
    event_to_dict,
    seat_form,
)
from bot.games.tonk.players import STRATEGIES, SmartStrategy
from bot.games.tonk.sim import compare
from bot.games.tonk.terms import TableSpread
from bot.games.tonk.views import SeatView

P1, P2, P3 = 1, 2, 3

def decide(strategy: Any, seen: Any, rng: random.Random | None = None) -> Any:
    """The strategy's move for a seat's view; ``rng`` defaults to a fresh seeded one, so the
    same view gives the same move."""
    return strategy.choose(seen, rng or random.Random(7))



def c(text: str) -> int:
    p = parse_card(text)
    assert p.suit is not None
    return make(p.rank, p.suit)


def cs(text: str) -> tuple[int, ...]:
    return tuple(c(t) for t in text.split())


def view(hand: str, legal: tuple[Any, ...], *, phase: Phase = Phase.START,
         top: str | None = None, spreads: tuple[TableSpread, ...] = (),
         others: tuple[int, ...] = (5, 5), taken: str | None = None, stock: int = 20,
         turns: int = 6, options: TonkOptions | None = None) -> SeatView:
    return SeatView(
        player_id=P1, phase=phase, options=options or TonkOptions(), hand=cs(hand),
        legal=legal, spreads=spreads, discard_top=None if top is None else c(top),
        stock_size=stock, hand_sizes=tuple((P2 + i, n) for i, n in enumerate(others)),
        taken_discard=None if taken is None else c(taken), hit_locked=False, turns=turns,
    )


def after_draw(hand: str, **kw: Any) -> SeatView:
    """The after-draw view with exactly the legal moves the engine would list."""
    table = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c")],
                          kw.get("options") or TonkOptions(), 1)
    table._hands[P1] = list(cs(hand))  # a position for the test: the table lists the moves
    table._spreads = list(kw.get("spreads", ()))
    table._taken = None if kw.get("taken") is None else c(kw["taken"])
    table.phase = Phase.AFTER_DRAW
    table.to_move = P1
    return view(hand, tuple(table.legal_moves(P1)), phase=Phase.AFTER_DRAW, **kw)


START = (Drop(), DrawStock(), DrawDiscard())


def smart() -> SmartStrategy:
    return SmartStrategy()


def test_smart_is_registered() -> None:
    assert STRATEGIES["smart"] is SmartStrategy
    assert isinstance(STRATEGIES["smart"](), SmartStrategy)


def test_smart_drops_a_very_low_hand_t10() -> None:
    assert decide(smart(), view("As 2h", START, top="Kd")) == Drop()


def test_smart_waits_to_catch_an_opponent_seen_to_drop_often_and_high_t10() -> None:
    """Every hand so far ended with the next player dropping 33 points: waiting to catch them
    (2s from them, and s from each other player for the lowest total) beats dropping."""
    player = smart()
    for n in range(1, 21):
        player.remember([
            {"type": "dealt", "hand_number": n, "dealer": P3, "players": [P1, P2, P3],
             "upcard": c("Kd"), "stock_size": 36},
            {"type": "dropped", "player": P2},
            {"type": "hand_ended", "how": "drop_caught", "winner": None, "dropper": P2,
             "leaver": None, "players": [{"player": P1, "total": 20, "hand": []},
                                         {"player": P2, "total": 33, "hand": []},
                                         {"player": P3, "total": 25, "hand": []}]},
        ])
    assert decide(smart(), view("2s 4h 5d", START, top="Kd")) == Drop()
    assert decide(player, view("2s 4h 5d", START, top="Kd")) == DrawStock()


def test_smart_does_not_drop_a_high_hand() -> None:
    assert decide(smart(), view("9s 8h 7d 6c 5d", START, top="Kd")) == DrawStock()


def test_smart_takes_the_discard_that_completes_a_book() -> None:
    assert decide(smart(), view("9s 9h 2d Kc Qd", START, top="9d", turns=0)) == DrawDiscard()


def test_smart_takes_a_low_discard_to_throw_a_high_card() -> None:
    assert decide(GreedyStrategy(), view("As 3d 5h Kc Qd", START, top="2c")) == DrawStock()
    assert decide(smart(), view("As 3d 5h Kc Qd", START, top="2c")) == DrawDiscard()


def test_smart_lays_so_that_it_tonks_out_t7() -> None:
    """The run 3-4-5♣ leaves 6♣ for the book of sixes: everything is laid (a tonk out, paid
    double), where laying the longer run 3-4-5-6♣ first would leave two cards."""
    position = after_draw("3c 4c 5c 6c 6h 6s")
    assert decide(GreedyStrategy(), position) == Spread(cs("3c 4c 5c 6c"))
    assert decide(smart(), position) == Spread(cs("3c 4c 5c"))


def test_smart_keeps_a_pair_and_throws_the_odd_ten() -> None:
    position = after_draw("Qs Qh 2d 3c 9d Jc")
    assert decide(GreedyStrategy(), position) == Discard(c("Qs"))
    assert decide(smart(), position) == Discard(c("Jc"))


def test_smart_will_not_discard_the_card_the_next_player_collects() -> None:
    """The next player took 9♥ and 9♣ from the pile: 9♠ would complete their book."""
    player = smart()
    player.remember([
        {"type": "dealt", "hand_number": 1, "dealer": P3, "players": [P1, P2, P3],
         "upcard": c("Kd"), "stock_size": 36, "private": {"hand": list(cs("2h 3s 4c 6d 8h"))}},
        {"type": "drew_from_stock", "player": P1, "stock_size": 35, "private": {"card": c("9h")}},
        {"type": "discarded", "player": P1, "card": c("9h")},
        {"type": "drew_from_discard", "player": P2, "card": c("9h")},
        {"type": "discarded", "player": P2, "card": c("Qd")},
        {"type": "drew_from_stock", "player": P3, "stock_size": 34},
        {"type": "discarded", "player": P3, "card": c("Jd")},
        {"type": "drew_from_stock", "player": P1, "stock_size": 33, "private": {"card": c("9c")}},
        {"type": "discarded", "player": P1, "card": c("9c")},
        {"type": "drew_from_discard", "player": P2, "card": c("9c")},
        {"type": "discarded", "player": P2, "card": c("Qs")},
        {"type": "drew_from_stock", "player": P3, "stock_size": 32},
        {"type": "discarded", "player": P3, "card": c("Js")},
        {"type": "drew_from_stock", "player": P1, "stock_size": 31, "private": {"card": c("9s")}},
    ])
    position = after_draw("2h 3s 4c 6d 8h 9s", top="Js", stock=31)
    assert decide(GreedyStrategy(), position) == Discard(c("9s"))
    assert decide(player, position) == Discard(c("8h"))
    assert decide(smart(), position) == Discard(c("9s"))  # without the memory it cannot know


def test_with_the_stock_out_smart_ends_the_hand_rather_than_drop_t8() -> None:
    legal = (Drop(), DrawDiscard(), EndHand())
    assert decide(smart(), view("As 2h 3d", legal, top="Kd", stock=0)) == EndHand()


def test_smart_obeys_must_spread_t6() -> None:
    position = after_draw("5s 5h 5d Kc 2d 3c", options=TonkOptions(must_spread=True))
    assert not any(type(m) is Discard for m in position.legal)
    assert decide(smart(), position) == Spread(cs("5s 5h 5d"))


def _play_hands(table: TonkEngine, players: dict[int, Any], hands: int,
                check: Any = None) -> None:
    for pid, p in players.items():
        p.remember([seat_form(event_to_dict(e), pid) for e in table.opening_events])
    played = 0
    while played < hands and not table.is_over:
        if table.phase is Phase.HAND_OVER:
            pid, move = table.player_ids[0], DealNextHand()
        else:
            pid = table.to_move
            assert pid is not None
            seat = table.observe(pid)
            move = decide(players[pid], seat)
            assert move in seat.legal
            if check is not None:
                check(table, pid, move)
        events = table.apply(pid, move)
        for other, p in players.items():
            p.remember([seat_form(event_to_dict(e), other) for e in events])
        played += sum(1 for e in events if type(e).__name__ == "HandEnded")


options_st = st.builds(TonkOptions, upcard=st.booleans(), must_spread=st.booleans(),
                       double_needs_spread=st.booleans(), hit_lock=st.booleans())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), options=options_st)
def test_smart_plays_only_legal_moves(seed: int, players: int, options: TonkOptions) -> None:
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    table = TonkEngine.new(seats, options, seed)
    names = ["smart", "greedy", "random"]
    strategies = {s.player_id: STRATEGIES[names[(i + seed) % 3]]()
                  for i, s in enumerate(seats)}
    _play_hands(table, strategies, 6)


def test_smart_decides_from_its_seat_only() -> None:
    """At every decision, the hidden cards (the stock and the cards of other hands the seat has
    not seen) are dealt afresh in a twin table: the seat's view is the same, and a smart player
    shown the same events decides the same."""
    seats = [Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c")]
    table = TonkEngine.new(seats, TonkOptions(), 21)
    log: list[Any] = list(table.opening_events)
    players = {p.player_id: STRATEGIES["smart"]() for p in seats}
    checked = 0

    def check(table: TonkEngine, pid: int, move: Any) -> None:
        nonlocal checked
        twin = _twin(table, pid, log, random.Random(checked))
        assert twin.observe(pid) == table.observe(pid)
        one, two = SmartStrategy(), SmartStrategy()
        one.remember([seat_form(event_to_dict(e), pid) for e in log])
        two.remember([seat_form(event_to_dict(e), pid) for e in log])
        assert decide(one, table.observe(pid)) == decide(two, twin.observe(pid))
        checked += 1

    for pid, p in players.items():
        p.remember([seat_form(event_to_dict(e), pid) for e in table.opening_events])
    while checked < 40:
        if table.phase is Phase.HAND_OVER:
            events = table.apply(P1, DealNextHand())
        else:
            pid = table.to_move
            assert pid is not None
            move = decide(players[pid], table.observe(pid))
            check(table, pid, move)
            events = table.apply(pid, move)
        log.extend(events)
        for other, p in players.items():
            p.remember([seat_form(event_to_dict(e), other) for e in events])


def _twin(table: TonkEngine, seat: int, log: list[Any], rng: random.Random) -> TonkEngine:
    stored = table.to_stored()
    start = max(i for i, e in enumerate(log) if type(e).__name__ == "Dealt")
    known = set()
    for e in log[start:]:
        if type(e).__name__ == "DrewFromDiscard":
            known.add(e.card)
    players = stored["players"]
    hidden = list(stored["stock"])
    slots = []
    for i, p in enumerate(players):
        if p == seat:
            continue
        for j, card in enumerate(stored["hands"][i]):
            if card not in known:
                hidden.append(card)
                slots.append((i, j))
    rng.shuffle(hidden)
    for i, j in slots:
        stored["hands"][i][j] = hidden.pop()
    stored["stock"] = hidden
    return TonkEngine.from_stored(stored)


def test_smart_is_deterministic_and_beats_greedy_in_a_small_fixed_match() -> None:
    """Sanity only (strength is measured by the simulator): 300 hands, fixed seed."""
    one = compare(300, 3, 4, ["smart", "greedy", "greedy"], TonkOptions(), table_hands=50)
    two = compare(300, 3, 4, ["smart", "greedy", "greedy"], TonkOptions(), checks=False,
                  table_hands=50)
    assert one["invariant_violations"] == 0 and one["cap_hits"] == 0
    assert one["strategies"] == two["strategies"]
    assert one["strategies"]["smart"]["net_per_hand"] > one["strategies"]["greedy"][
        "net_per_hand"]


def test_a_smart_player_made_mid_hand_plays_on_and_can_be_given_its_memory_back() -> None:
    """After a restart the player has no memory: it still plays legal moves; fed the hand's
    logged events through ``for_seat`` it decides as the player that saw them live."""
    seats = [Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c")]
    table = TonkEngine.new(seats, TonkOptions(), 8)
    live = {s.player_id: STRATEGIES["smart"]() for s in seats}
    log = list(table.opening_events)
    for pid, p in live.items():
        p.remember([seat_form(event_to_dict(e), pid) for e in log])
    for _ in range(12):
        if table.phase is not Phase.START and table.phase is not Phase.AFTER_DRAW:
            break
        pid = table.to_move
        assert pid is not None
        fresh = SmartStrategy()
        seat = table.observe(pid)
        assert decide(fresh, seat) in seat.legal
        rebuilt = SmartStrategy()
        rebuilt.remember([seat_form(event_to_dict(e), pid) for e in log])
        replica = SmartStrategy()
        replica.remember([seat_form(event_to_dict(e), pid) for e in log])
        assert decide(rebuilt, seat) == decide(replica, seat)
        move = decide(live[pid], seat)
        events = table.apply(pid, move)
        log.extend(events)
        for other, p in live.items():
            p.remember([seat_form(event_to_dict(e), other) for e in events])


def test_a_tonk_computer_reads_the_move_log_as_its_seat_saw_it() -> None:
    """Only its own dealt hand and its own drawn card: never another hand, never another
    player's draw, nothing private it does not know about."""
    dealt = {"type": "dealt", "hand_number": 1, "dealer": 5, "players": [5, -1],
             "upcard": 3, "stock_size": 40,
             "private": {"hands": [[5, [1, 2, 3, 4, 5]], [-1, [6, 7, 8, 9, 10]]]}}
    assert seat_form(dealt, -1)["private"] == {"hand": [6, 7, 8, 9, 10]}
    assert "private" not in seat_form(dealt, -2)
    assert seat_form(dealt, -1)["players"] == [5, -1]
    drew = {"type": "drew_from_stock", "player": 5, "stock_size": 39,
            "private": {"card": 33}}
    assert "private" not in seat_form(drew, -1)
    assert seat_form(drew, 5)["private"] == {"card": 33}
    odd = {"type": "discarded", "player": 5, "card": 4, "private": {"secret": 1}}
    assert seat_form(odd, 5) == {"type": "discarded", "player": 5, "card": 4}
