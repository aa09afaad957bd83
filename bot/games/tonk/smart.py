"""A stronger Tonk player than greedy, deciding only from what its seat may see.

It remembers the public events of the hand (every discard, every spread and hit, the cards others
took from the discard pile, how often each player drew) through ``CardMemory``, so the cards it
cannot place are exactly those in the stock or in the unknown part of the other hands. From them
it estimates each opponent's total by sampling: an opponent who has drawn ``d`` times has had the
chance to throw away ``d`` cards, so their unknown cards are modelled as the lowest of a larger
random draw. At the end of every hand it also learns how the table plays: how often and with
what totals each opponent drops (every hand is shown then), and how long hands last. It then

- drops (T10) when the expected chips of dropping, against those sampled totals, beat those of
  waiting for an opponent to drop first and catching them;
- takes the discard when the hand it can make with it beats the average hand after a stock draw;
- lays whatever lowers its total most, going out whenever it can (T7);
- discards for the lowest total, keeping pairs and run draws that can still be completed (worth
  less where hands are short), and avoiding cards the next player could take to hit a spread
  or complete one they hold.

Without the events (a restart, say) it rebuilds what it can from the seat's view and plays on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import repeat
from typing import Any

from bot.games.tonk.autoplay import discard_key, legal_discards
from bot.games.tonk.moves import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Move,
    Spread,
)
from bot.games.tonk.spreads import (
    CARD_BIT,
    DECK_ORDER,
    SUIT_RANKS,
    TONK_RANK,
    VALUE,
    hand_mask,
    hit_mask,
    hits_on,
    is_three_aces,
    may_hit,
    may_spread,
    spreads_in,
)
from bot.games.tonk.strategy import CardMemory, Strategy
from bot.games.tonk.terms import Phase
from bot.games.tonk.views import SeatView


@dataclass(frozen=True, slots=True)
class TonkWeights:
    """Tuned with ``python -m bot.sim tonk --strategies smart,greedy``."""

    drop_margin: float = 0.5
    """Drop when the expected chips (in stakes) of dropping exceed those of waiting by this."""
    discards_per_draw: float = 0.75
    """How many cards an opponent is modelled to have thrown away per draw."""
    potential: float = 7.0
    """Points a hand is worth less per live card that would complete a spread, scaled by the
    share of unseen cards that card is and the points it would lay down."""
    feed: float = 4.0
    """Points a discard costs when the next player could take it and lay it at once."""
    take_margin: float = 0.25
    """Points the discard must beat a stock draw by to be taken (taking shows a card)."""


WEIGHTS = TonkWeights()
DROP_SAMPLES = 160
STOCK_SAMPLES = 14
HAND_TURNS_PRIOR = 12.0
"""Turns a hand lasts, before any hand at the table has been seen to its end."""
HAND_TURNS_RATE = 0.05
"""Weight of the newest hand in the running mean of how many turns hands last."""
FULL_POTENTIAL_DRAWS = 2.0
"""Unfinished spreads count fully when each player draws this many times in a hand, on
average; less in shorter hands."""
DROP_RATE_PRIOR = (0.5, 10.0)
"""Before any drop is seen, an opponent is taken to drop at one turn start in twenty."""
DROP_HISTORY = 30
DROP_HISTORY_MIN = 3
DROP_CONSIDER = 25
"""Totals above this are never dropped (cheap early exit; no sampled opponent is that high)."""
_TONK_OUT = 10_000.0
_OUT_BY_DISCARD = 5_000.0


class SmartStrategy(Strategy):
    """See the module docstring. ``choose`` is deterministic given its ``rng`` and the events
    the strategy was shown."""

    name = "smart"
    remembers = True

    def __init__(self, weights: TonkWeights = WEIGHTS, samples: int = DROP_SAMPLES,
                 stock_samples: int = STOCK_SAMPLES) -> None:
        self.samples = samples
        """How many samples of the opponents' totals a decision draws (``DROP_SAMPLES``; the
        expert's playouts draw fewer, ``bot.games.tonk.search``)."""
        self.stock_samples = stock_samples
        """How many stock cards weigh a stock draw against the discard (``STOCK_SAMPLES``; the
        expert's playouts weigh fewer)."""
        # the decision being made: its random source, its samples of the opponents' totals and
        # what its plan searches share (``choose`` sets them afresh)
        self._rng = random.Random(0)
        self._totals: list[list[int]] | None = None
        self._plans: _PlanMemo | None = None
        self._scaled = weights
        """The weights with ``potential`` scaled to how long hands last (``choose``)."""
        self._w = weights
        self._memory = CardMemory(0)
        self._draws: Counter[int] = Counter()
        self._dealt_seen = False
        self._discards = 0
        self._hand_turns = HAND_TURNS_PRIOR
        self._turns_seen: Counter[int] = Counter()
        self._drops_seen: Counter[int] = Counter()
        self._drop_totals: dict[int, list[int]] = {}

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        memory = self._memory
        for event in events:
            kind = event["type"]
            if kind == "dealt":
                self._draws.clear()
                self._dealt_seen = True
                self._discards = 0
            elif kind == "drew_from_stock" or kind == "drew_from_discard":
                self._draws[event["player"]] += 1
                self._turns_seen[event["player"]] += 1
            elif kind == "dropped":
                self._turns_seen[event["player"]] += 1
                self._drops_seen[event["player"]] += 1
            elif kind == "discarded":
                self._discards += 1
            elif kind == "hand_ended":
                self._learn(event)
            memory.observe(event)

    def _learn(self, result: Mapping[str, Any]) -> None:
        """What the end of a hand shows about the table: the total each dropper had (every
        hand is shown), and how many turns the hand lasted."""
        dropper = result.get("dropper")
        for row in result["players"]:
            if row["player"] == dropper:
                totals = self._drop_totals.setdefault(dropper, [])
                totals.append(row["total"])
                del totals[:-DROP_HISTORY]
        if self._dealt_seen and result["how"] not in ("tonk_on_deal", "draw_on_deal"):
            # against players who drop at once there is no time to complete a spread, so
            # unfinished ones are worth less
            self._hand_turns += HAND_TURNS_RATE * (self._discards - self._hand_turns)

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if view.phase is Phase.HAND_OVER:
            return DealNextHand()
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        self._rng = rng
        self._totals = None
        self._plans = _PlanMemo(view)
        seen = _Seen.of(view, self._memory, self._draws, self._dealt_seen)
        draws = self._hand_turns / (len(view.hand_sizes) + 1)
        potential = self._w.potential * min(1.0, draws / FULL_POTENTIAL_DRAWS)
        w = self._scaled
        if w.potential != potential:
            # the scale changes once a hand at most
            w = self._scaled = replace(self._w, potential=potential)
        if view.phase is Phase.START:
            return self._start(view, legal, seen, w)
        return self._after_draw(view, legal, seen, w)

    # ------------------------------------------------------------------ start of turn

    def _start(self, view: SeatView, legal: tuple[Move, ...], seen: _Seen,
               w: TonkWeights) -> Move:
        # the listed moves themselves are returned, so the table need not check them again
        listed = {type(m): m for m in legal}
        total = sum(VALUE[c] for c in view.hand)
        top = view.discard_top
        take = listed.get(DrawDiscard)
        end = listed.get(EndHand)
        if end is not None:
            # T8: ending pays the lowest total like a won drop but costs no penalty when
            # someone is lower, so it is always at least as good as dropping
            if (take is not None and top is not None and _layable(top, view)
                    and self._stock_out_value(total, seen) <= 0):
                return take
            return end
        drop = listed.get(Drop)
        if drop is not None and total <= DROP_CONSIDER and self._drop_pays(total, seen, w):
            return drop
        if take is not None and top is not None:
            taken = _best_plan((*view.hand, top), view, top, seen, w, self._plans)[0]
            stock = self._stock_draw_value(view, seen, w)
            if taken > stock + w.take_margin:
                return take
        return listed.get(DrawStock) or legal[0]

    def _opponent_totals(self, seen: _Seen) -> list[list[int]]:
        """``self.samples`` samples of every opponent's total (each a list in seat order),
        drawn once per decision and shared by every value that weighs them."""
        if self._totals is None:
            self._totals = self._sample_totals(seen)
        return self._totals

    def _sample_totals(self, seen: _Seen) -> list[list[int]]:
        bits = self._rng.getrandbits
        pool = seen.pool
        plans = []
        for _, known_total, unknown, draws in seen.opponents:
            extra = round(self._w.discards_per_draw * draws)
            plans.append((known_total, unknown, unknown + extra))
        need = sum(k for _, _, k in plans)
        if need > len(pool):
            plans = [(t, u, u) for t, u, _ in plans]
            need = sum(u for _, u, _ in plans)
        drawn = [VALUE[c] for c in pool]
        n = len(drawn)
        steps = [(i, n - i) for i in range(need)] if need <= n else []
        # each opponent's slice of the draw, and how many of its lowest cards they keep (None:
        # all, when they drew no extra)
        cuts: list[tuple[int, int, int, int | None]] = []
        start = 0
        for known_total, unknown, k in plans:
            cuts.append((known_total, start, start + k, unknown if k > unknown else None))
            start += k
        samples: list[list[int]] = []
        for _ in range(self.samples):
            # one shuffle per sample, only as far as the cards it draws (a Fisher-Yates step
            # each: random.sample costs twice as much), sliced among the opponents; each step
            # picks uniformly (to within 2**-32) among the cards not yet drawn whatever their
            # order, so the samples can go on shuffling the same list
            for i, span in steps:
                j = i + (bits(32) * span >> 32)
                drawn[i], drawn[j] = drawn[j], drawn[i]
            totals = []
            for known_total, start, stop, lowest in cuts:
                if lowest is not None:
                    part = drawn[start:stop]
                    part.sort()
                    totals.append(known_total + sum(part[:lowest]))
                else:
                    totals.append(known_total + sum(drawn[start:stop]))
            samples.append(totals)
        return samples

    def _drop_pays(self, total: int, seen: _Seen, w: TonkWeights) -> bool:
        """Whether dropping now (T10) beats waiting for an opponent to drop first by
        ``w.drop_margin``. Waiting is worth between -(n-1) and n+1 stakes times each opponent's
        drop rate (``_wait_value``), bounds that settle most cases without weighing it."""
        drop = self._drop_value(total, seen)
        rates = sum(self._drop_rate(player) for player, *_ in seen.opponents)
        n = len(seen.opponents) + 1
        if drop <= -(n - 1) * rates + w.drop_margin:
            return False
        if drop > (n + 1) * rates + w.drop_margin:
            return True
        return drop > self._wait_value(total, seen) + w.drop_margin

    def _drop_rate(self, player: int) -> float:
        """How often ``player`` drops at the start of a turn, as seen so far."""
        return ((self._drops_seen[player] + DROP_RATE_PRIOR[0])
                / (self._turns_seen[player] + DROP_RATE_PRIOR[1]))

    def _drop_value(self, total: int, seen: _Seen) -> float:
        """Expected chips (in stakes) of dropping now (T10)."""
        others = len(seen.opponents)
        value = 0
        samples = self._opponent_totals(seen)
        for totals in samples:
            low = min(totals)
            if total < low:
                value += others
            else:
                value -= 2 * len([t for t in totals if t <= total]) + totals.count(low)
        return value / len(samples)

    def _wait_value(self, total: int, seen: _Seen) -> float:
        """Expected chips of not dropping when an opponent drops before this seat's next turn:
        each drops about as often as they have been seen to, with a total like the ones they
        showed when they dropped before (or like the model's, with no such history)."""
        rand = self._rng.random
        samples = self._opponent_totals(seen)
        count = len(samples)
        columns = list(zip(*samples, strict=True))  # each opponent's sampled totals
        n = len(columns) + 1
        value = 0.0
        for j, (player, *_) in enumerate(seen.opponents):
            rate = self._drop_rate(player)
            history = self._drop_totals.get(player, [])
            shown = len(history)
            droppers = ([history[int(rand() * shown)] for _ in range(count)]
                        if shown >= DROP_HISTORY_MIN else columns[j])
            # everyone's totals but the dropper's, this seat's included: the lowest, and how
            # many have it
            rest = list(zip(*columns[:j], *columns[j + 1:], repeat(total, count), strict=True))
            lows = list(map(min, rest))
            groups = map(tuple.count, rest, lows)
            gain = 0
            for dropper, low, group in zip(droppers, lows, groups, strict=True):
                if dropper < low:
                    gain -= 1
                    continue
                if total <= dropper:
                    gain += 2
                gain += n - group if total == low else -group
            value += rate * gain / count
        return value

    def _stock_out_value(self, total: int, seen: _Seen) -> float:
        """Expected chips of ending the hand on an empty stock (T8: ties all get paid)."""
        samples = self._opponent_totals(seen)
        n = len(seen.opponents) + 1
        value = 0.0
        for totals in samples:
            low = min(min(totals), total)
            winners = 1 + sum(1 for t in totals if t == low) if total == low else 0
            if total == low:
                value += n - winners
            else:
                value -= sum(1 for t in totals if t == low)
        return value / len(samples)

    def _stock_draw_value(self, view: SeatView, seen: _Seen, w: TonkWeights) -> float:
        """The average plan value after drawing a card from the stock (sampled)."""
        pool = seen.pool
        k = self.stock_samples
        cards = pool if len(pool) <= k else self._rng.sample(pool, k)
        if not cards:
            return -_TONK_OUT
        memo = self._plans
        assert memo is not None
        hand = view.hand
        held = hand_mask(hand)
        # the states the hand's own lays reach, and the cards that could hit a spread in one
        reach = memo.hittable
        states: list[tuple[tuple[int, ...], int, int]] = [(hand, held, reach)]
        if may_spread(held) or held & reach:
            states.clear()
            for state, mask, hittable, _, barred in _lay_states(hand, view, memo):
                reach |= hittable
                if not barred:
                    states.append((state, mask, hittable))
        value = 0.0
        for c in cards:
            bit = CARD_BIT[c]
            if bit & reach or (may_spread(held | bit) and any(
                    c in s for s in spreads_in((*hand, c)))):
                value += _best_plan((*hand, c), view, None, seen, w, memo)[0]
            else:
                # the card takes no part in any lay: the plans are the hand's own, each with
                # the card kept or thrown
                value += max((_best_discard((*kept, c), mask | bit, hittable, None, seen, w,
                                            memo)[0] for kept, mask, hittable in states),
                             default=-1e18)
        return value / len(cards)

    # ------------------------------------------------------------------ after drawing

    def _after_draw(self, view: SeatView, legal: tuple[Move, ...], seen: _Seen,
                    w: TonkWeights) -> Move:
        _, move = _best_plan(view.hand, view, view.taken_discard, seen, w, self._plans)
        if move is not None:
            for m in legal:
                if m == move:
                    return m  # the listed move itself, so the table need not check it again
        discards = [m for m in legal if type(m) is Discard]
        if discards:
            return max(discards, key=lambda m: discard_key(m.card))
        return legal[0]


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the seat knows of where the cards are this hand."""

    pool: list[int]
    """Cards that may be in the stock or in an unknown slot of another hand, in deck order."""
    opponents: list[tuple[int, int, int, int]]
    """Per opponent (turn order after this seat): the player, the total of their known cards,
    the number of unknown cards, their draws this hand."""
    next_known: frozenset[int]
    """Cards the next player is known to hold."""
    book_points: list[int]
    """Tonk rank → the points a pair of that rank may complete to a book, once for every
    unseen card of the rank."""
    live: int
    """The unseen cards as a mask (``CARD_BIT``)."""

    @classmethod
    def of(cls, view: SeatView, memory: CardMemory, draws: Counter[int], synced: bool) -> _Seen:
        on_table = {c for sp in view.spreads for c in sp.cards}
        top = view.discard_top
        consistent = (synced and memory.gone == on_table
                      and (memory.pile[-1] if memory.pile else None) == top)
        held: Mapping[int, set[int]]
        if consistent:
            pile = set(memory.pile)
            held = memory.held  # only read
        else:
            # no trustworthy memory of this hand: only the table and the top discard are known
            pile = set() if top is None else {top}
            held = {}
        hand = set(view.hand)
        known_elsewhere: set[int] = set()
        opponents = []
        turns_each = view.turns // (len(view.hand_sizes) + 1)
        for player, size in view.hand_sizes:
            cards = held.get(player, set()) - hand - pile - on_table
            known_elsewhere |= cards
            d = draws[player] if consistent else turns_each
            opponents.append((player, sum(VALUE[c] for c in cards), max(size - len(cards), 0), d))
        out = hand | pile | on_table | known_elsewhere
        pool = [c for c in DECK_ORDER if c not in out]
        book_points = [0] * 14
        for c in pool:
            book_points[TONK_RANK[c]] += _BOOK_POINTS[c]
        first = view.hand_sizes[0][0] if view.hand_sizes else None
        next_known = frozenset(held.get(first, set()) - hand) if first is not None else frozenset()
        return cls(pool, opponents, next_known, book_points, hand_mask(pool))


def _layable(card: int, view: SeatView) -> bool:
    """Whether ``card`` would complete a new spread with the hand or hit a table spread."""
    if any(card in s for s in spreads_in((*view.hand, card))):
        return True
    return any(hits_on((card,), sp.cards) for sp in view.spreads)


_BOOK_POINTS = tuple(3 * v for v in VALUE)
"""By card: the points a pair of its rank lays as a book with it."""


class _PlanMemo:
    """What one decision's plan searches share (``_best_plan``): the table's spreads and the
    cards that could hit them, whether the next player could lay each discard with cards they
    are known to hold, the score of each hand left after a discard, and the table states a
    search has explored. Valid for one view and one ``_Seen`` only."""

    __slots__ = ("explored", "hittable", "next_lays", "scores", "table")

    def __init__(self, view: SeatView) -> None:
        self.table = {sp.id: sp.cards for sp in view.spreads}
        self.hittable = _hittable(self.table)
        self.next_lays: dict[int, bool] = {}
        self.scores: dict[int, float] = {}
        self.explored: dict[tuple[int, tuple[int, ...]], int] = {}


def _hittable(spreads: dict[int, tuple[int, ...]]) -> int:
    """The cards that could hit one of ``spreads``, as a mask."""
    hittable = 0
    for sp in spreads.values():
        hittable |= hit_mask(sp)
    return hittable


def _best_plan(
    hand: tuple[int, ...], view: SeatView, taken: int | None, seen: _Seen, w: TonkWeights,
    memo: _PlanMemo | None = None,
) -> tuple[float, Move | None]:
    """The value of the best way to finish this turn from ``hand`` (lays and hits, then a
    discard) and its first move. Higher is better: going out scores highest (T7), otherwise the
    hand left after discarding, scored by ``_hand_score``. Plans of equal value: the first
    ``_lay_states`` reaches. The searches of one decision share a ``memo``; the answer is the
    same without one."""
    memo = memo or _PlanMemo(view)
    mask = hand_mask(hand)
    if not may_spread(mask) and not mask & memo.hittable:
        # most hands have nothing to lay: the best plan is the best discard
        score, card = _best_discard(hand, mask, memo.hittable, taken, seen, w, memo)
        return score, None if card is None else Discard(card)
    best: float = -1e18
    best_move: Move | None = None
    for cards, mask, hittable, first, barred in _lay_states(hand, view, memo):
        if not cards:
            if best < _TONK_OUT:
                best, best_move = _TONK_OUT, first
        elif not barred:
            score, card = _best_discard(cards, mask, hittable, taken, seen, w, memo)
            if score > best:
                best, best_move = score, first or Discard(card)  # type: ignore[arg-type]
    return best, best_move


_State = tuple[tuple[int, ...], int, int, Move | None, bool]
"""A state a turn's lays reach: the cards still held and their mask, the cards that could hit a
spread on the table then (a mask), the first lay on the way (None at the start), and whether T6's
must-spread bars discarding there."""


def _lay_states(hand: tuple[int, ...], view: SeatView, memo: _PlanMemo) -> Iterator[_State]:
    """Every state that at most four lays (spreads laid, and hits on the table's spreads) reach
    from ``hand``, each after the states beneath it (the order a depth-first search finishes
    them). A state reached again, no nearer the start than before, is left out: every state
    beneath it has been given, so a plan found there again cannot be better."""
    explored = memo.explored
    explored.clear()
    must = view.options.must_spread

    def visit(cards: tuple[int, ...], spreads: dict[int, tuple[int, ...]], hittable: int,
              first: Move | None, depth: int) -> Iterator[_State]:
        if not cards:
            yield cards, 0, hittable, first, False
            return
        mask = hand_mask(cards)
        if depth:
            # the spreads keep their order, so their cards in that order tell them apart
            state = (mask, tuple(map(hand_mask, spreads.values())))
            if explored.get(state, 99) <= depth:
                return
            explored[state] = depth
        options = spreads_in(cards) if may_spread(mask) else []
        if depth < 4:
            # every spread, then every hit (moves are only made for the first lay of a plan)
            for s in options:
                yield from visit(tuple([c for c in cards if c not in s]), spreads, hittable,
                                 first or Spread(s), depth + 1)
            if mask & hittable:
                for sid, sp in spreads.items():
                    if not may_hit(mask, sp):
                        continue
                    for h in hits_on(cards, sp):
                        grown = dict(spreads)
                        grown[sid] = tuple(sorted((*sp, *h), key=TONK_RANK.__getitem__))
                        yield from visit(tuple([c for c in cards if c not in h]), grown,
                                         _hittable(grown), first or Hit(sid, h), depth + 1)
        # T6 (must spread): no discard while a spread other than three aces stays in hand
        yield cards, mask, hittable, first, must and any(not is_three_aces(s) for s in options)

    return visit(hand, memo.table, memo.hittable, None, 0)


def _best_discard(cards: tuple[int, ...], mask: int, hittable: int, taken: int | None,
                  seen: _Seen, w: TonkWeights, memo: _PlanMemo) -> tuple[float, int | None]:
    """The best value of discarding from ``cards`` (their ``mask``) when ``hittable`` are the
    cards that could hit a spread on the table, and the first card that has it. A discard costs
    ``w.feed`` when the next player could lay it at once: by hitting a spread on the table, or
    completing one with cards they are known to hold."""
    scores = memo.scores
    next_lays = memo.next_lays
    total = sum(map(VALUE.__getitem__, cards))
    # no two cards of a rank and none within two ranks of each other in a suit: no hand left
    # after a discard holds anything to complete, so each is worth its total
    plain = not _may_complete(mask)
    best, best_card = -1e18, None
    for d in legal_discards(cards, taken):
        bit = CARD_BIT[d]
        left = mask - bit
        if not left:
            score = _OUT_BY_DISCARD
        else:
            if plain:
                kept = total - VALUE[d]
            else:
                kept = scores.get(left)
                if kept is None:
                    kept = scores[left] = _hand_score(left, total - VALUE[d], seen, w)
            if bit & hittable:
                score = -kept - w.feed
            else:
                lays = next_lays.get(d)
                if lays is None:
                    lays = next_lays[d] = bool(seen.next_known) and any(
                        d in s for s in spreads_in((*seen.next_known, d)))
                score = -kept - w.feed if lays else -kept
        if score > best:
            best, best_card = score, d
    return best, best_card


def _may_complete(mask: int) -> bool:
    """Whether the cards of ``mask`` hold two of a rank, or two of a suit at most two ranks
    apart: what ``_hand_score`` counts needs one of them."""
    if mask & (mask >> 1 | mask >> 2):
        return True
    a = mask & SUIT_RANKS
    b = (mask >> 16) & SUIT_RANKS
    c = (mask >> 32) & SUIT_RANKS
    d = mask >> 48
    return bool(a & b | c & d | (a | b) & (c | d))


def _rank_values(*offsets: int) -> tuple[int, ...]:
    """By bit of a hand mask (``CARD_BIT``): the sum of the values of the ranks at ``offsets``
    from that bit's rank."""
    return tuple(sum(min((p & 15) + o, 10) for o in offsets) for p in range(64))


_RUN_FROM_BELOW = _rank_values(-1, 0, 1)
_RUN_FROM_ABOVE = _rank_values(0, 1, 2)


def _hand_score(mask: int, total: int, seen: _Seen, w: TonkWeights) -> float:
    """Points the hand (``mask``, its total ``total``) is worth keeping (lower is better): its
    total, less the value of spreads it can still complete with cards nobody has seen: a pair
    with either unseen card of its rank, two in a row of a suit with the unseen card at either
    end, two with a gap with the unseen card between; each worth the points it would lay, times
    the share of unseen cards that complete it."""
    potential = w.potential
    if not potential or not seen.pool:
        return total
    a = mask & SUIT_RANKS
    b = (mask >> 16) & SUIT_RANKS
    c = (mask >> 32) & SUIT_RANKS
    d = mask >> 48
    ab, cd = a & b, c & d
    # ranks held exactly twice: in at least two suits and not in three
    pairs = (ab | cd | (a | b) & (c | d)) & ~(ab & (c | d) | cd & (a | b))
    points = 0
    book_points = seen.book_points
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        points += book_points[low.bit_length() - 1]
    # by the bit of its lower card (suits stay apart: bits 0, 14 and 15 of each are clear):
    # two in a row with neither neighbour held, and two with the card between them missing
    two = mask & (mask >> 1) & ~(mask << 1) & ~(mask >> 2)
    gap = mask & (mask >> 2) & ~(mask >> 1)
    if two or gap:
        live = seen.live
        for ends, values in ((two & (live << 1), _RUN_FROM_BELOW),
                             (two & (live >> 2) | gap & (live >> 1), _RUN_FROM_ABOVE)):
            while ends:
                low = ends & -ends
                ends ^= low
                points += values[low.bit_length() - 1]
    return total - potential * (points / len(seen.pool)) if points else total
