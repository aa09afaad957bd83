"""What the expert computer player (``bot.gamekit.search``) needs to know about Tonk.

A seat knows its own hand, the spreads on the table, the whole discard pile (every discard is
public and only the top may be taken, T5), the cards others took from it, every hand's size and
the stock's size. It does not know the rest of the other hands nor the stock's order. A world
consistent with that gives each other player the cards they are known to hold and fills their
hands with cards drawn at random from those the seat has not seen; the rest, shuffled, is the
stock. Every seat then plays the hand out as ``smart`` plays, each with a memory of the hand:
the seat's own ``smart`` remembers what the seat was shown, and every other seat's one what the
whole table was shown (the public form of each event), so none knows another's hidden cards. A
world is scored by the seat's net chips for the hand.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.gamekit.contract import Seat
from bot.games.tonk.engine import TonkEngine
from bot.games.tonk.events import event_to_dict, public_form, seat_form
from bot.games.tonk.moves import Discard, Move
from bot.games.tonk.settlement import net
from bot.games.tonk.smart import SmartStrategy
from bot.games.tonk.spreads import DECK_ORDER
from bot.games.tonk.terms import AFTER_DRAW, START
from bot.games.tonk.views import SeatView
from bot.i18n import N_, Later, signed

MAX_CANDIDATES = 8
"""Moves compared after a draw, smart's first: lays, then discards (rarely more than eight)."""
START_EFFORT = 3.0
"""The budget a start-of-turn decision gets, in host budgets (``SearchRules.effort``): whether
to drop (T10) decides the hand's chips, a playout costs about 5 ms (a Dubb one well under 1),
and at one budget (150 ms) the search got about 13 worlds, too few ever to prefer another move
than smart's (0 of 150 decisions); at three, with the cheaper playouts below, 9 of 150, each
better than smart's when weighed again on 200 common worlds (+0.84 chips on average, 7 of them
drops)."""
PLAYOUT_SAMPLES = 32
"""Samples of the opponents' totals each ``smart`` decision draws in a playout, against its own
160: drawing them was two thirds of a playout's time, and a playout is one deal among many."""
PLAYOUT_STOCK_SAMPLES = 4
"""Stock cards each ``smart`` decision in a playout weighs a stock draw by, against its own 14:
weighing them was more than half of a playout's time."""


@dataclass
class TonkMemory:
    """What one seat keeps of the table's events: its own ``smart`` (fed what it was shown),
    the model of every other seat (fed only what the whole table was shown), who laid a new
    spread this turn (T6, double only for a new spread) and who is hit-locked (T9)."""

    own: SmartStrategy = field(default_factory=SmartStrategy)
    public: SmartStrategy = field(default_factory=SmartStrategy)
    laid: set[int] = field(default_factory=set)
    locked: set[int] = field(default_factory=set)

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.own.remember(events)
        self.public.remember([public_form(e) for e in events])
        for e in events:
            kind = e["type"]
            if kind == "dealt":
                self.laid.clear()
                self.locked.clear()
            elif kind == "spread_laid":
                self.laid.add(e["player"])
            elif kind == "hit" and e["owner"] != e["player"]:
                self.locked.add(e["owner"])
            elif kind == "discarded":
                self.laid.discard(e["player"])
                self.locked.discard(e["player"])


@dataclass(frozen=True, slots=True)
class TonkInformation:
    """Everything one seat may know: its view, the discard pile if its memory has it (else
    ``None``), the cards known to be in each other hand, what the memory adds to the turn, and
    the memories the rollouts start from (pickled: each world gets fresh copies)."""

    view: SeatView
    pile: tuple[int, ...] | None
    known: tuple[tuple[int, tuple[int, ...]], ...]
    laid_new: bool
    locked: frozenset[int]
    own: bytes
    public: bytes

    @property
    def player_id(self) -> int:
        return self.view.player_id


def information(view: SeatView, memory: TonkMemory) -> TonkInformation:
    on_table = {c for sp in view.spreads for c in sp.cards}
    cards = memory.own._memory
    top = view.discard_top
    consistent = (memory.own._dealt_seen and cards.gone == on_table
                  and (cards.pile[-1] if cards.pile else None) == top)
    hand = set(view.hand)
    pile = tuple(cards.pile) if consistent else None
    out = hand | on_table | set(pile or ()) | ({top} if top is not None else set())
    known = tuple(
        (p, tuple(sorted(cards.held.get(p, set()) - out)) if consistent else ())
        for p, _ in view.hand_sizes)
    me = view.player_id
    return TonkInformation(
        view=view, pile=pile, known=known, laid_new=consistent and me in memory.laid,
        locked=frozenset(memory.locked if consistent else ()) | ({me} if view.hit_locked
                                                                 else set()),
        own=pickle.dumps(memory.own), public=pickle.dumps(memory.public))


def world(info: TonkInformation, rng: random.Random) -> TonkEngine:
    view = info.view
    me = view.player_id
    players = [me, *(p for p, _ in view.hand_sizes)]
    on_table = [c for sp in view.spreads for c in sp.cards]
    top = view.discard_top
    placed = set(view.hand) | set(on_table)
    if info.pile is not None:
        placed.update(info.pile)
    elif top is not None:
        placed.add(top)
    for _, cards in info.known:
        placed.update(cards)
    unseen = [c for c in DECK_ORDER if c not in placed]
    rng.shuffle(unseen)
    hands = {me: list(view.hand)}
    for (p, size), (_, cards) in zip(view.hand_sizes, info.known, strict=True):
        need = size - len(cards)
        hands[p] = [*cards, *unseen[len(unseen) - need:]] if need else list(cards)
        del unseen[len(unseen) - need:]
    if info.pile is not None:
        discards = list(info.pile)
    else:
        # the cards under the top are unknown: as many as the count leaves for them
        below = len(unseen) - view.stock_size
        discards = unseen[len(unseen) - below:] if below else []
        del unseen[len(unseen) - below:]
        if top is not None:
            discards.append(top)
    table = TonkEngine(view.options, rng.getrandbits(62), [Seat(p, str(p)) for p in players])
    table.phase = view.phase
    table.hand_number = 1
    table.dealer = players[-1]
    table._players = players
    table._hands = hands
    table._stock = unseen
    table._discards = discards
    table._spreads = list(view.spreads)
    table._in_spreads = len(on_table)
    table._next_spread_id = max((sp.id for sp in view.spreads), default=0) + 1
    table.to_move = me
    table._taken = view.taken_discard
    table._laid_new = info.laid_new
    table._locked = set(info.locked)
    table.turns = view.turns
    return table


def candidates(info: TonkInformation, rng: random.Random) -> list[Move]:
    legal = list(info.view.legal)
    if len(legal) == 1:
        return legal
    own: SmartStrategy = pickle.loads(info.own)
    baseline = own.choose(info.view, rng)
    chosen = [baseline]
    lays = [m for m in legal if type(m) is not Discard and m != baseline]
    throws = [m for m in legal if type(m) is Discard and m != baseline]
    for m in (*lays, *throws):
        if len(chosen) >= MAX_CANDIDATES:
            break
        chosen.append(m)
    return chosen


def rollout(info: TonkInformation, table: TonkEngine, move: Move, rng: random.Random) -> float:
    me = info.player_id
    players = list(table._players)
    models = {p: pickle.loads(info.own if p == me else info.public) for p in players}
    for model in models.values():
        model.samples = PLAYOUT_SAMPLES
        model.stock_samples = PLAYOUT_STOCK_SAMPLES

    def show(events: Sequence[Any]) -> None:
        stored = [event_to_dict(e) for e in events]
        for p, model in models.items():
            model.remember([seat_form(e, p) for e in stored])

    show(table.apply(me, move))
    while table.phase is START or table.phase is AFTER_DRAW:
        p = table.to_move
        show(table.apply(p, models[p].choose(table.observe(p), rng)))
    result = table.last_hand_result
    assert result is not None
    return float(net(result.payments).get(me, 0))


class TonkSearch:
    """``bot.gamekit.search.SearchRules`` for Tonk."""

    def memory(self) -> TonkMemory:
        return TonkMemory()

    def remember(self, memory: TonkMemory, events: Sequence[Mapping[str, Any]]) -> None:
        memory.remember(events)

    def information(self, view: SeatView, memory: TonkMemory) -> TonkInformation:
        return information(view, memory)

    def candidates(self, info: TonkInformation, rng: random.Random) -> list[Move]:
        return candidates(info, rng)

    def effort(self, info: TonkInformation) -> float:
        return START_EFFORT if info.view.phase is START else 1.0

    def world(self, info: TonkInformation, rng: random.Random) -> TonkEngine:
        return world(info, rng)

    def rollout(self, info: TonkInformation, world: TonkEngine, move: Move,
                rng: random.Random) -> float:
        return rollout(info, world, move, rng)

    def outlook(self, score: float) -> tuple[str, dict[str, Any]]:
        return N_("about {chips} chips this hand"), {"chips": Later(signed, score, 1)}

    measure_label = N_("Your expected chips for the hand after each of your decisions")

    def measure(self, score: float) -> float:
        return score


SEARCH = TonkSearch()
