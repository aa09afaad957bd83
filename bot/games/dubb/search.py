"""What the expert computer player (``bot.games.search``) needs to know about Dubb.

A seat knows (D14) its own hand, every play made (the whole play pile: each was played face
up), every seat's hand size and status, who went out and who left, the draw pile's size and the
turn. It does not know the other hands nor the draw pile's order: cards are drawn and picked up
face down (D5, D8) and the pile is shuffled into the draw pile when turned (D6, D7). So a world
consistent with what it knows deals the cards it has not seen (the packs less its hand and the
play pile) at random to the other hands, by their sizes, and the rest to the draw pile, with a
fresh random source for the shuffles to come. Every seat then plays on as ``smart`` plays; a
world is scored -1 if the seat loses (D11), else 0, so a mean score is minus the chance of losing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Seat
from bot.games.dubb.engine import DubbGame, DubbObservation, PilePlay, _deck
from bot.games.dubb.moves import Move, Play
from bot.games.dubb.options import DubbOptions
from bot.games.dubb.smart import smart_strategy
from bot.i18n import N_


@dataclass(frozen=True, slots=True)
class DubbInformation:
    """Everything one seat may know (D14), and nothing else: its information set."""

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

    @property
    def player_id(self) -> int:
        return self.seats[self.me].player_id

    def unseen(self) -> list[int]:
        """The cards the seat has not seen, in deck order: the other hands and the draw pile."""
        seen = set(self.hand)
        for _, _, cards in self.pile:
            seen.update(cards)
        return [c for c in _deck(self.options.decks, self.options.jokers) if c not in seen]


def information(view: DubbObservation, memory: object = None) -> DubbInformation:
    """The information set of ``view``'s seat. Reads only what D14 lets the seat see."""
    game = view._game
    return DubbInformation(
        seats=game._seats, me=view._seat, hand=tuple(sorted(view.hand)),
        options=game.options, cards_each=game.cards_each,
        sizes=tuple(len(h) for h in game._hands), status=tuple(game._status),
        pile=tuple(game._pile), out_order=tuple(game._out_order),
        left_order=tuple(game._left_order), to_move=game._to_move,
        first_move=game._first_move, move_count=game.move_count,
        strikes=tuple(game._strikes), legal=tuple(view.legal_moves),
    )


def world(info: DubbInformation, rng: random.Random) -> DubbGame:
    """A game consistent with ``info``, the unseen cards dealt at random."""
    unseen = info.unseen()
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for i, size in enumerate(info.sizes):
        if i == info.me:
            hands.append(list(info.hand))
        else:
            hands.append(unseen[len(unseen) - size:] if size else [])
            del unseen[len(unseen) - size:]
    return DubbGame(
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


def rollout(info: DubbInformation, game: DubbGame, move: Move, rng: random.Random) -> float:
    me = info.player_id
    game.apply(me, move)
    while not game.is_over:
        player = game._ids[game._to_move]
        game.apply(player, smart_strategy(game.observe(player), rng))
    result = game.result
    assert result is not None
    return -1.0 if result.loser == me else 0.0


class DubbSearch:
    """``bot.games.search.SearchRules`` for Dubb: everything a seat knows is in its view."""

    def memory(self) -> None:
        return None

    def remember(self, memory: None, events: Sequence[Mapping[str, Any]]) -> None:
        """Nothing to remember: the view holds it all."""

    def information(self, view: DubbObservation, memory: None) -> DubbInformation:
        return information(view)

    def candidates(self, info: DubbInformation, rng: random.Random) -> list[Move]:
        return candidates(info, rng)

    def world(self, info: DubbInformation, rng: random.Random) -> DubbGame:
        return world(info, rng)

    def rollout(self, info: DubbInformation, world: DubbGame, move: Move,
                rng: random.Random) -> float:
        return rollout(info, world, move, rng)

    def outlook(self, score: float) -> tuple[str, dict[str, Any]]:
        return N_("about a {chance} chance of losing"), {"chance": f"{round(-100 * score)}%"}


SEARCH = DubbSearch()
