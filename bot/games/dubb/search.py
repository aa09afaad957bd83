"""What the expert computer player (``bot.gamekit.search``) needs to know about Dubb.

A seat knows (D14) its own hand, every play made (the whole play pile: each was played face
up), every seat's hand size and status, who went out and who left, the draw pile's size and the
turn. It does not know the other hands nor the draw pile's order: cards are drawn and picked up
face down (D5, D8) and the pile is shuffled into the draw pile when turned (D6, D7). So a world
consistent with what it knows deals the cards it has not seen (the packs less its hand and the
play pile) at random to the other hands, by their sizes, and the rest to the draw pile, with a
fresh random source for the shuffles to come.

What the others did says more (``DubbMemory``): everyone dubs when they can — it is the move the
game is named for, and greedy and smart never miss one — so a player who, with cards on the pile,
played another rank, drew or passed held neither the top rank nor a joker (D9) then. The cards
they got later (draws, pick-ups) may be anything. Worlds deal such players cards that fit.

Every seat then plays on as ``smart`` plays; a world is scored -1 if the seat loses (D11), else
0, so a mean score is minus the chance of losing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.cards import JOKER_RANK
from bot.gamekit.contract import Seat
from bot.games.dubb.deal import packs
from bot.games.dubb.engine import DubbEngine
from bot.games.dubb.moves import Move, Play
from bot.games.dubb.observation import DubbObservation
from bot.games.dubb.options import DubbOptions
from bot.games.dubb.smart import smart_strategy
from bot.games.dubb.state import PilePlay
from bot.i18n import N_, Later, percent


@dataclass
class DubbMemory:
    """What a seat has learnt of the other hands from the table's events (see the module
    docstring): per player, the ranks the cards they were dealt cannot be (``base``), and for
    every batch of cards they got since, the ranks those cannot be and how many are left."""

    top: int = 0
    base: dict[int, set[int]] = field(default_factory=dict)
    batches: dict[int, list[list[Any]]] = field(default_factory=dict)
    drawn_play: bool = False
    """A draw-and-play was just played (D12): its card came from the draw pile, not the hand."""

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        for e in events:
            kind = e["type"]
            player = e.get("player")
            if kind == "played":
                if self.top and e["rank"] != self.top and not e.get("auto"):
                    self._lacks(player, self.top)
                if self.drawn_play:
                    self.drawn_play = False
                else:
                    self._lose(player, e["cards"])
                self.top = e["rank"]
            elif kind in ("drew", "passed", "draw_played"):
                if self.top and not e.get("auto"):
                    self._lacks(player, self.top)
                if kind == "drew":
                    self._gain(player, e["count"])
                elif kind == "draw_played":
                    self.drawn_play = e["played"]
                    if not e["played"]:
                        self._gain(player, 1)
            elif kind == "dubbed":
                for victim in e["victims"]:
                    if victim["picked_up"]:
                        self._gain(victim["player"], victim["picked_up"])
            elif kind == "pile_turned":
                self.top = 0
            elif kind == "player_left":
                self.base.pop(player, None)
                self.batches.pop(player, None)

    def _lacks(self, player: int, rank: int) -> None:
        self.base.setdefault(player, set()).update((rank, JOKER_RANK))
        for batch in self.batches.get(player, ()):
            batch[0].update((rank, JOKER_RANK))

    def _gain(self, player: int, count: int) -> None:
        self.batches.setdefault(player, []).append([set(), count])

    def _lose(self, player: int, cards: Sequence[int]) -> None:
        batches = self.batches.get(player, [])
        for c in cards:
            rank = c & 15
            # from the newest batch the card may be in; else it was dealt
            for batch in reversed(batches):
                if batch[1] and rank not in batch[0]:
                    batch[1] -= 1
                    break

    def parts(self, player: int, size: int) -> tuple[tuple[frozenset[int], int], ...]:
        """``player``'s ``size`` cards as (ranks they cannot be, how many), dealt cards first."""
        batches = [(frozenset(b[0]), b[1]) for b in self.batches.get(player, ()) if b[1]]
        later = sum(n for _, n in batches)
        while later > size:
            # more cards than the hand holds (a memory begun late): the oldest go first
            _, n = batches.pop(0)
            later -= n
        dealt = (frozenset(self.base.get(player, ())), size - later)
        return tuple(p for p in (dealt, *batches) if p[1])


@dataclass(frozen=True, slots=True)
class DubbInformation:
    """Everything one seat may know (D14) or infer from what it saw, and nothing else: its
    information set."""

    seats: tuple[Seat, ...]
    me: int
    """The seat's index in ``seats``."""
    hand: tuple[int, ...]
    options: DubbOptions
    cards_each: int
    sizes: tuple[int, ...]
    status: tuple[int, ...]
    pile: tuple[PilePlay, ...]
    out_order: tuple[int, ...]
    left_order: tuple[int, ...]
    to_move: int
    first_move: bool
    move_count: int
    strikes: tuple[int, ...]
    legal: tuple[Move, ...]
    parts: tuple[tuple[tuple[frozenset[int], int], ...], ...]
    """Per seat (empty for this seat's own), its cards as ``DubbMemory.parts`` gives them."""

    @property
    def player_id(self) -> int:
        return self.seats[self.me].player_id

    def unseen(self) -> list[int]:
        """The cards the seat has not seen, in deck order: the other hands and the draw pile."""
        seen = set(self.hand)
        for _, _, cards in self.pile:
            seen.update(cards)
        return [c for c in packs(self.options.decks, self.options.jokers) if c not in seen]


def information(view: DubbObservation, memory: DubbMemory | None) -> DubbInformation:
    """The information set of ``view``'s seat: what D14 lets it see, and what its memory of
    the table's events (``None``: none) adds."""
    game = view._game
    memory = memory or DubbMemory()
    return DubbInformation(
        seats=game._seats, me=view._seat, hand=tuple(sorted(view.hand)),
        options=game._options, cards_each=game._cards_each,
        sizes=tuple(len(h) for h in game._hands), status=tuple(game._status),
        pile=tuple(game._pile), out_order=tuple(game._out_order),
        left_order=tuple(game._left_order), to_move=game._to_move,
        first_move=game._first_move, move_count=game._move_count,
        strikes=tuple(game._strikes), legal=tuple(view.legal_moves),
        parts=tuple(() if i == view._seat else memory.parts(pid, len(game._hands[i]))
                    for i, pid in enumerate(game._ids)),
    )


def world(info: DubbInformation, rng: random.Random) -> DubbEngine:
    """A game consistent with ``info``, the unseen cards dealt at random."""
    unseen = info.unseen()
    rng.shuffle(unseen)
    hands: list[list[int]] = [[] for _ in info.sizes]
    hands[info.me] = list(info.hand)
    # the most constrained cards are dealt first, each from the unseen cards that fit it (any,
    # when none fit: a player may not have played as the memory assumes)
    wanted = sorted(((excluded, n, i) for i, parts in enumerate(info.parts)
                     for excluded, n in parts), key=lambda w: -len(w[0]))
    for excluded, n, i in wanted:
        hand = hands[i]
        if excluded:
            kept = []
            for c in unseen:
                if n and c & 15 not in excluded:
                    hand.append(c)
                    n -= 1
                else:
                    kept.append(c)
            unseen = kept
        if n:
            hand.extend(unseen[len(unseen) - n:])
            del unseen[len(unseen) - n:]
    return DubbEngine(
        seats=info.seats, options=info.options, cards_each=info.cards_each, seed=0,
        rng=random.Random(rng.getrandbits(64)), rng_draws=None, hands=hands,
        draw_pile=unseen, pile=list(info.pile), status=list(info.status),
        out_order=list(info.out_order), left_order=list(info.left_order),
        to_move=info.to_move, first_move=info.first_move, move_count=info.move_count,
        strikes=list(info.strikes), end=None,
    )


def candidates(info: DubbInformation, rng: random.Random) -> list[Move]:
    """Smart's move first, then drawing (or passing, D5), draw-and-play (D12) and, for every
    rank that may be played, all its naturals, and the jokers with or without them (D9). Playing
    part of a rank is left out: it keeps cards that only the same rank can shed later."""
    legal = list(info.legal)
    if len(legal) == 1:
        return legal
    probe = world(info, random.Random(0))
    # smart decides from the seat's own cards and public facts, the same in every world
    baseline = smart_strategy(probe.observe(info.player_id), rng)
    chosen: list[Move] = [baseline]
    best: dict[tuple[int, bool], Play] = {}
    for m in legal:
        if type(m) is not Play:
            if m not in chosen:
                chosen.append(m)
            continue
        key = (m.rank, m.jokers > 0)
        held = best.get(key)
        if held is None or m.count > held.count:
            best[key] = m
    for m in best.values():
        if m not in chosen:
            chosen.append(m)
    return chosen


def rollout(info: DubbInformation, game: DubbEngine, move: Move, rng: random.Random) -> float:
    me = info.player_id
    game.apply(me, move)
    while not game.is_over:
        player = game._ids[game._to_move]
        game.apply(player, smart_strategy(game.observe(player), rng))
    result = game.result
    assert result is not None
    return -1.0 if result.loser == me else 0.0


class DubbSearch:
    """``bot.gamekit.search.SearchRules`` for Dubb: everything a seat knows is in its view."""

    def memory(self) -> DubbMemory:
        return DubbMemory()

    def remember(self, memory: DubbMemory, events: Sequence[Mapping[str, Any]]) -> None:
        memory.remember(events)

    def information(self, view: DubbObservation, memory: DubbMemory | None) -> DubbInformation:
        return information(view, memory)

    def candidates(self, info: DubbInformation, rng: random.Random) -> list[Move]:
        return candidates(info, rng)

    def effort(self, info: DubbInformation) -> float:
        return 1.0

    def world(self, info: DubbInformation, rng: random.Random) -> DubbEngine:
        return world(info, rng)

    def rollout(self, info: DubbInformation, world: DubbEngine, move: Move,
                rng: random.Random) -> float:
        return rollout(info, world, move, rng)

    def outlook(self, score: float) -> tuple[str, dict[str, Any]]:
        return N_("about a {chance} chance of losing"), {"chance": Later(percent, -score)}

    measure_label = N_("Your chance of losing (%) after each of your decisions")

    def measure(self, score: float) -> float:
        return -100 * score


SEARCH = DubbSearch()
