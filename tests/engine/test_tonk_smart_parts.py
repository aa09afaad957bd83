"""The smart Tonk player's shortcuts give the plain answers: the hand score from bit masks is the
count the rules describe, a plan search with its memo and fast paths finds the plan a plain
exhaustive search finds, the value of a stock draw from shared lay states is the average of the
plans, the bounds that spare weighing the wait hold, and the opponents are sampled once per
decision, without replacement."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.tonk import Discard, DrawDiscard, DrawStock, Drop, Hit, Spread, TonkOptions
from bot.games.tonk.autoplay import legal_discards
from bot.games.tonk.smart import (
    _OUT_BY_DISCARD,
    _TONK_OUT,
    DROP_SAMPLES,
    SmartStrategy,
    TonkWeights,
    _best_plan,
    _hand_score,
    _PlanMemo,
    _Seen,
)
from bot.games.tonk.spreads import (
    DECK_ORDER,
    TONK_RANK,
    VALUE,
    hand_mask,
    hits_on,
    is_three_aces,
    spreads_in,
)
from bot.games.tonk.strategy import CardMemory
from bot.games.tonk.terms import Phase, TableSpread
from bot.games.tonk.views import SeatView
from tests.engine.test_tonk_players_smart import P1, P2, P3


def plain_points(cards: tuple[int, ...], unseen: set[int]) -> int:
    """The bonus as the rules of ``_hand_score`` say it, card by card: a pair (exactly two of a
    rank) is worth three cards of its rank for every unseen one; two in a row of a suit with
    neither neighbour held are worth the three cards for an unseen card at either end; two with
    a gap, the three for the unseen card between."""
    points = 0
    ranks = [TONK_RANK[c] for c in cards]
    for r in set(ranks):
        if ranks.count(r) == 2:
            points += 3 * min(r, 10) * sum(1 for c in unseen if TONK_RANK[c] == r)
    held = {(c >> 4, TONK_RANK[c]) for c in cards}
    live = {(c >> 4, TONK_RANK[c]) for c in unseen}
    for s, r in held:
        if (s, r + 1) in held and (s, r - 1) not in held and (s, r + 2) not in held:
            for x in (r - 1, r + 2):
                if (s, x) in live:
                    points += min(r, 10) + min(r + 1, 10) + min(x, 10)
        elif (s, r + 2) in held and (s, r + 1) not in held and (s, r + 1) in live:
            points += min(r, 10) + min(r + 2, 10) + min(r + 1, 10)
    return points


def seen_of(hand: tuple[int, ...], spreads: tuple[TableSpread, ...], out: set[int],
            next_known: frozenset[int] = frozenset()) -> _Seen:
    """What a seat knows: its hand, the table, and ``out`` (cards whose place it knows)."""
    used = set(hand) | {c for sp in spreads for c in sp.cards} | out
    pool = [c for c in DECK_ORDER if c not in used]
    book_points = [0] * 14
    for c in pool:
        book_points[TONK_RANK[c]] += 3 * VALUE[c]
    opponents = [(P2, 0, 5, 2), (P3, 0, 5, 1)]
    return _Seen(pool, opponents, next_known, book_points, hand_mask(pool))


def view_of(hand: tuple[int, ...], spreads: tuple[TableSpread, ...],
            options: TonkOptions | None = None) -> SeatView:
    return SeatView(P1, Phase.START, options or TonkOptions(), hand, (), spreads, None, 20,
                    ((P2, 5), (P3, 5)), None, False, 6)


@st.composite
def positions(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[TableSpread, ...], set[int],
                                         frozenset[int]]:
    """A hand, spreads on the table, known cards elsewhere and cards the next player holds."""
    deck = list(DECK_ORDER)
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    size = draw(st.integers(1, 8))
    hand = tuple(deck[:size])
    rest = deck[size:]
    spreads: list[TableSpread] = []
    for i in range(draw(st.integers(0, 3))):
        # spreads near the hand's cards, so that hits are common
        near = spreads_in([c for c in rest if any(abs(TONK_RANK[c] - TONK_RANK[h]) <= 2
                                                  for h in hand)][:12])
        if not near:
            break
        cards = near[draw(st.integers(0, len(near) - 1))]
        spreads.append(TableSpread(i + 1, P2, cards))
        rest = [c for c in rest if c not in cards]
    out = set(rest[:draw(st.integers(0, 12))])
    next_known = frozenset(rest[12:12 + draw(st.integers(0, 3))])
    return hand, tuple(spreads), out, next_known


@settings(max_examples=300, deadline=None)
@given(position=positions())
def test_the_hand_score_is_the_plain_count(position: Any) -> None:
    hand, spreads, out, _ = position
    seen = seen_of(hand, spreads, out)
    w = TonkWeights()
    unseen = set(seen.pool)
    total = sum(VALUE[c] for c in hand)
    points = plain_points(hand, unseen)
    expected = total - w.potential * (points / len(seen.pool)) if points else total
    assert _hand_score(hand_mask(hand), total, seen, w) == expected


def plain_best_plan(hand: tuple[int, ...], view: SeatView, taken: int | None, seen: _Seen,
                    w: TonkWeights) -> tuple[float, Any]:
    """The plan search without memo, states or fast paths: every order of at most four lays,
    then every discard, the first plan found kept among equals."""
    table = {sp.id: sp.cards for sp in view.spreads}
    must = view.options.must_spread
    best: list[Any] = [-1e18, None]

    def feed(card: int, spreads: dict[int, tuple[int, ...]]) -> float:
        if any(hits_on((card,), sp) for sp in spreads.values()):
            return w.feed
        if seen.next_known and any(card in s for s in spreads_in((*seen.next_known, card))):
            return w.feed
        return 0.0

    def search(cards: tuple[int, ...], spreads: dict[int, tuple[int, ...]], first: Any,
               depth: int) -> None:
        if not cards:
            if best[0] < _TONK_OUT:
                best[0], best[1] = _TONK_OUT, first
            return
        options = spreads_in(cards)
        lays: list[Any] = []
        for s in options:
            lays.append((Spread(s), tuple(c for c in cards if c not in s), spreads))
        for sid, sp in spreads.items():
            for h in hits_on(cards, sp):
                grown = dict(spreads)
                grown[sid] = tuple(sorted((*sp, *h), key=TONK_RANK.__getitem__))
                lays.append((Hit(sid, h), tuple(c for c in cards if c not in h), grown))
        if depth < 4:
            for move, rest, grown in lays:
                search(rest, grown, first or move, depth + 1)
        if must and any(not is_three_aces(s) for s in options):
            return
        for d in legal_discards(cards, taken):
            rest = tuple(c for c in cards if c != d)
            if not rest:
                score = _OUT_BY_DISCARD
            else:
                total = sum(VALUE[c] for c in rest)
                score = -_hand_score(hand_mask(rest), total, seen, w) - feed(d, spreads)
            if score > best[0]:
                best[0], best[1] = score, first or Discard(d)

    search(hand, table, None, 0)
    return best[0], best[1]


@settings(max_examples=200, deadline=None)
@given(position=positions(), must=st.booleans(), take=st.booleans())
def test_a_plan_search_finds_the_plain_searchs_plan(position: Any, must: bool,
                                                    take: bool) -> None:
    hand, spreads, out, next_known = position
    view = view_of(hand, spreads, TonkOptions(must_spread=must))
    seen = seen_of(hand, spreads, out, next_known)
    w = TonkWeights()
    taken = hand[-1] if take else None
    expected = plain_best_plan(hand, view, taken, seen, w)
    assert _best_plan(hand, view, taken, seen, w) == expected
    # one memo shared by the plans of a decision changes none of them
    memo = _PlanMemo(view)
    for n in range(len(hand), 0, -1):
        assert _best_plan(hand[:n], view, None, seen, w, memo) == plain_best_plan(
            hand[:n], view, None, seen, w)


@settings(max_examples=150, deadline=None)
@given(position=positions(), must=st.booleans(), rng_seed=st.integers(0, 2**32))
def test_a_stock_draw_is_worth_the_average_of_its_plans(position: Any, must: bool,
                                                        rng_seed: int) -> None:
    hand, spreads, out, next_known = position
    view = view_of(hand, spreads, TonkOptions(must_spread=must))
    seen = seen_of(hand, spreads, out, next_known)
    w = TonkWeights()
    player = SmartStrategy()
    player._rng = random.Random(rng_seed)
    player._plans = _PlanMemo(view)
    value = player._stock_draw_value(view, seen, w)
    cards = random.Random(rng_seed).sample(seen.pool, 14)
    plans = [plain_best_plan((*hand, c), view, None, seen, w)[0] for c in cards]
    assert value == sum(plans) / len(plans)


@settings(max_examples=200, deadline=None)
@given(samples=st.lists(st.lists(st.integers(0, 60), min_size=1, max_size=3).map(tuple),
                        min_size=1, max_size=40).filter(lambda s: len({len(t) for t in s}) == 1),
       total=st.integers(0, 60), drops=st.lists(st.integers(0, 30), max_size=3),
       turns=st.lists(st.integers(0, 40), max_size=3),
       history=st.lists(st.integers(0, 50), max_size=6), rng_seed=st.integers(0, 2**32))
def test_waiting_is_worth_what_its_bounds_say(samples: list[tuple[int, ...]], total: int,
                                              drops: list[int], turns: list[int],
                                              history: list[int], rng_seed: int) -> None:
    others = len(samples[0])
    player = SmartStrategy()
    player._rng = random.Random(rng_seed)
    player._totals = [list(s) for s in samples]
    opponents = [(P2 + j, 0, 5, 0) for j in range(others)]
    for j, (pid, *_) in enumerate(opponents):
        player._drops_seen[pid] = drops[j] if j < len(drops) else 0
        player._turns_seen[pid] = max(turns[j] if j < len(turns) else 0,
                                      player._drops_seen[pid])
    player._drop_totals[P2] = history
    seen = _Seen([], opponents, frozenset(), [0] * 14, 0)
    rates = sum(player._drop_rate(pid) for pid, *_ in opponents)
    n = others + 1
    wait = player._wait_value(total, seen)
    assert -(n - 1) * rates - 1e-9 <= wait <= (n + 1) * rates + 1e-9


def test_opponents_are_sampled_once_per_decision() -> None:
    calls: list[int] = []
    player = SmartStrategy()
    sample = player._sample_totals

    def counted(seen: _Seen) -> list[list[int]]:
        calls.append(1)
        return sample(seen)

    player._sample_totals = counted  # type: ignore[method-assign]
    # totals low enough that dropping and waiting are both weighed
    hand = (DECK_ORDER[0], DECK_ORDER[13], DECK_ORDER[27], DECK_ORDER[40])
    start = SeatView(P1, Phase.START, TonkOptions(), hand, (Drop(), DrawStock(), DrawDiscard()),
                     (), DECK_ORDER[11], 30, ((P2, 5), (P3, 5)), None, False, 3)
    for seed in range(20):
        calls.clear()
        player.choose(start, random.Random(seed))
        assert len(calls) == 1


def test_the_samples_draw_without_replacement() -> None:
    player = SmartStrategy()
    player._rng = random.Random(5)
    hand = tuple(DECK_ORDER[:5])
    view = SeatView(P1, Phase.START, TonkOptions(), hand, (), (), None, 30,
                    ((P2, 5), (P3, 5)), None, False, 0)
    seen = _Seen.of(view, CardMemory(P1), Counter(), False)
    pool_values = sorted(VALUE[c] for c in seen.pool)
    # every unknown card of both opponents: each sample is the whole pool, split in two
    whole = _Seen(seen.pool, [(P2, 3, len(seen.pool) - 20, 0), (P3, 4, 20, 0)],
                  frozenset(), seen.book_points, seen.live)
    samples = player._sample_totals(whole)
    assert len(samples) == DROP_SAMPLES
    assert all(a + b == 3 + 4 + sum(pool_values) for a, b in samples)
    # one card each: over many samples every value turns up about as often as the pool has it
    one = _Seen(seen.pool, [(P2, 0, 1, 0), (P3, 0, 1, 0)], frozenset(), seen.book_points,
                seen.live)
    counts = [0] * 11
    for _ in range(60):
        for a, b in player._sample_totals(one):
            counts[a] += 1
            counts[b] += 1
    draws = 60 * DROP_SAMPLES * 2
    for v in range(1, 11):
        share = pool_values.count(v) / len(pool_values)
        assert abs(counts[v] / draws - share) < 0.01
