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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    DECK_ORDER,
    TONK_RANK,
    VALUE,
    hits_on,
    is_three_aces,
    spreads_in,
)
from bot.games.tonk.strategy import CardMemory, Strategy
from bot.games.tonk.table import Phase
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

    def __init__(self, weights: TonkWeights = WEIGHTS) -> None:
        # the random source of the decision being made (``choose`` sets it)
        self._rng = random.Random(0)
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
        self._rng = rng
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        seen = _Seen.of(view, self._memory, self._draws, self._dealt_seen)
        draws = self._hand_turns / (len(view.hand_sizes) + 1)
        w = replace(self._w, potential=self._w.potential * min(1.0, draws / FULL_POTENTIAL_DRAWS))
        if view.phase is Phase.START:
            return self._start(view, legal, seen, w)
        return self._after_draw(view, legal, seen, w)

    # ------------------------------------------------------------------ start of turn

    def _start(self, view: SeatView, legal: tuple[Move, ...], seen: _Seen,
               w: TonkWeights) -> Move:
        total = sum(VALUE[c] for c in view.hand)
        top = view.discard_top
        can_take = DrawDiscard() in legal and top is not None
        if EndHand() in legal:
            # T8: ending pays the lowest total like a won drop but costs no penalty when
            # someone is lower, so it is always at least as good as dropping
            useful = can_take and top is not None and _layable(top, view)
            if useful and self._stock_out_value(total, seen) <= 0:
                return DrawDiscard()
            return EndHand()
        if (Drop() in legal and total <= DROP_CONSIDER
                and self._drop_value(total, seen) > self._wait_value(total, seen) + w.drop_margin):
            return Drop()
        if can_take and top is not None:
            taken = _best_plan((*view.hand, top), view, top, seen, w)[0]
            stock = self._stock_draw_value(view, seen, w)
            if taken > stock + w.take_margin:
                return DrawDiscard()
        return DrawStock() if DrawStock() in legal else legal[0]

    def _opponent_totals(self, seen: _Seen) -> list[list[int]]:
        """``DROP_SAMPLES`` samples of every opponent's total (each a list in seat order)."""
        rng = self._rng
        pool = seen.pool
        plans = []
        for _, known_total, unknown, draws in seen.opponents:
            extra = round(self._w.discards_per_draw * draws)
            plans.append((known_total, unknown, unknown + extra))
        need = sum(k for _, _, k in plans)
        if need > len(pool):
            plans = [(t, u, u) for t, u, _ in plans]
            need = sum(u for _, u, _ in plans)
        values = [VALUE[c] for c in pool]
        samples: list[list[int]] = []
        for _ in range(DROP_SAMPLES):
            drawn = rng.sample(values, need) if need <= len(values) else list(values)
            totals = []
            i = 0
            for known_total, unknown, k in plans:
                part = drawn[i:i + k]
                i += k
                if k > unknown:
                    part.sort()
                totals.append(known_total + sum(part[:unknown]))
            samples.append(totals)
        return samples

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
                value -= 2 * sum(1 for t in totals if t <= total)
                value -= sum(1 for t in totals if t == low)
        return value / len(samples)

    def _wait_value(self, total: int, seen: _Seen) -> float:
        """Expected chips of not dropping when an opponent drops before this seat's next turn:
        each drops about as often as they have been seen to, with a total like the ones they
        showed when they dropped before (or like the model's, with no such history)."""
        rng = self._rng
        samples = self._opponent_totals(seen)
        n = len(seen.opponents) + 1
        value = 0.0
        for j, (player, *_) in enumerate(seen.opponents):
            rate = ((self._drops_seen[player] + DROP_RATE_PRIOR[0])
                    / (self._turns_seen[player] + DROP_RATE_PRIOR[1]))
            history = self._drop_totals.get(player, [])
            gain = 0
            for totals in samples:
                dropper = rng.choice(history) if len(history) >= DROP_HISTORY_MIN else totals[j]
                rest = [t for i, t in enumerate(totals) if i != j] + [total]
                low = min(rest)
                if dropper < low:
                    gain -= 1
                    continue
                if total <= dropper:
                    gain += 2
                group = sum(1 for t in rest if t == low)
                gain += n - group if total == low else -group
            value += rate * gain / len(samples)
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
        cards = pool if len(pool) <= STOCK_SAMPLES else self._rng.sample(pool, STOCK_SAMPLES)
        if not cards:
            return -_TONK_OUT
        return sum(_best_plan((*view.hand, c), view, None, seen, w)[0]
                   for c in cards) / len(cards)

    # ------------------------------------------------------------------ after drawing

    def _after_draw(self, view: SeatView, legal: tuple[Move, ...], seen: _Seen,
                    w: TonkWeights) -> Move:
        _, move = _best_plan(view.hand, view, view.taken_discard, seen, w)
        if move is not None and move in legal:
            return move
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
    live: Counter[tuple[int, int]]
    """(kind, key) → how many unseen cards complete it: ("rank", r) or ("card", code)."""

    @classmethod
    def of(cls, view: SeatView, memory: CardMemory, draws: Counter[int], synced: bool) -> _Seen:
        on_table = {c for sp in view.spreads for c in sp.cards}
        top = view.discard_top
        consistent = (synced and memory.gone == on_table
                      and (memory.pile[-1] if memory.pile else None) == top)
        if consistent:
            pile = set(memory.pile)
            held = {p: set(cards) for p, cards in memory.held.items()}
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
        live: Counter[tuple[int, int]] = Counter()
        for c in pool:
            live[(0, TONK_RANK[c])] += 1
            live[(1, c)] += 1
        first = view.hand_sizes[0][0] if view.hand_sizes else None
        next_known = frozenset(held.get(first, set()) - hand) if first is not None else frozenset()
        return cls(pool, opponents, next_known, live)


def _layable(card: int, view: SeatView) -> bool:
    """Whether ``card`` would complete a new spread with the hand or hit a table spread."""
    if any(card in s for s in spreads_in((*view.hand, card))):
        return True
    return any(hits_on((card,), sp.cards) for sp in view.spreads)


def _best_plan(
    hand: tuple[int, ...], view: SeatView, taken: int | None, seen: _Seen, w: TonkWeights,
) -> tuple[float, Move | None]:
    """The value of the best way to finish this turn from ``hand`` (lays and hits, then a
    discard) and its first move. Higher is better: going out scores highest (T7), otherwise the
    hand left after discarding, scored by ``_hand_score``."""
    table = {sp.id: sp.cards for sp in view.spreads}
    must = view.options.must_spread
    best: list[Any] = [-1e18, None]

    def search(cards: tuple[int, ...], spreads: dict[int, tuple[int, ...]],
               first: Move | None, depth: int) -> None:
        if not cards:
            if best[0] < _TONK_OUT:
                best[0], best[1] = _TONK_OUT, first
            return
        options = spreads_in(cards)
        lays: list[tuple[Move, tuple[int, ...], dict[int, tuple[int, ...]]]] = []
        for s in options:
            rest = tuple(c for c in cards if c not in s)
            lays.append((Spread(s), rest, spreads))
        for sid, sp in spreads.items():
            for h in hits_on(cards, sp):
                rest = tuple(c for c in cards if c not in h)
                grown = dict(spreads)
                grown[sid] = tuple(sorted((*sp, *h), key=TONK_RANK.__getitem__))
                lays.append((Hit(sid, h), rest, grown))
        if depth < 4:
            for move, rest, grown in lays:
                search(rest, grown, first or move, depth + 1)
        # T6 (must spread): no discard while a spread other than three aces stays in hand
        if must and any(not is_three_aces(s) for s in options):
            return
        for d in legal_discards(cards, taken):
            rest = tuple(c for c in cards if c != d)
            if not rest:
                score = _OUT_BY_DISCARD
            else:
                score = -_hand_score(rest, seen, w) - _feed(d, spreads, seen, w)
            if score > best[0]:
                best[0], best[1] = score, first or Discard(d)

    search(hand, table, None, 0)
    return best[0], best[1]


def _hand_score(cards: tuple[int, ...], seen: _Seen, w: TonkWeights) -> float:
    """Points the hand is worth keeping (lower is better): its total, less the value of spreads
    it can still complete with cards nobody has seen."""
    total = sum(VALUE[c] for c in cards)
    if not w.potential or not seen.pool:
        return total
    unseen = len(seen.pool)
    bonus = 0.0
    ranks: dict[int, list[int]] = {}
    suits: dict[int, dict[int, int]] = {}
    for c in cards:
        ranks.setdefault(TONK_RANK[c], []).append(c)
        suits.setdefault(c >> 4, {})[TONK_RANK[c]] = c
    for r, same in ranks.items():
        if len(same) == 2:
            outs = seen.live[(0, r)]
            bonus += outs / unseen * (2 * VALUE[same[0]] + VALUE[same[0]])
    for s, by_rank in suits.items():
        for r, c in by_rank.items():
            if r + 1 in by_rank and r - 1 not in by_rank and r + 2 not in by_rank:
                # two in a row: either end completes a run
                pair = VALUE[c] + VALUE[by_rank[r + 1]]
                for x in (r - 1, r + 2):
                    if 1 <= x <= 13 and seen.live[(1, _code(x, s))]:
                        bonus += (pair + min(x, 10)) / unseen
            elif r + 2 in by_rank and r + 1 not in by_rank and seen.live[(1, _code(r + 1, s))]:
                bonus += (VALUE[c] + VALUE[by_rank[r + 2]] + min(r + 1, 10)) / unseen
    return total - w.potential * bonus


def _code(trank: int, suit: int) -> int:
    return suit * 16 + (14 if trank == 1 else trank)


def _feed(card: int, spreads: dict[int, tuple[int, ...]], seen: _Seen, w: TonkWeights) -> float:
    """What discarding ``card`` gives the next player: a card they can lay at once, by hitting a
    spread on the table or completing one with cards they are known to hold."""
    if any(hits_on((card,), sp) for sp in spreads.values()):
        return w.feed
    if seen.next_known and any(card in s for s in spreads_in((*seen.next_known, card))):
        return w.feed
    return 0.0
