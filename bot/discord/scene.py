"""A table as data rather than as a message: what a game's face gives the Activity
(``bot.activity``) to draw, in the same words as its table message and hand panel.

A face names its seats, piles and moves; the Activity adds the lobby, the person's own seat and
the actions around a game (join, start, play again), which are the same for every game, and
turns it all into the page's JSON (docs/activity.md, "The scene").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PileKind = Literal["play", "stock", "discard", "spread"]
"""What a pile is, for the page to draw it (a face-down stock, a fanned spread); it names no
game."""
SceneState = Literal["playing", "between", "over"]
"""A game's part of the scene's ``state``: a hand in play, between two hands, the game over."""


@dataclass(frozen=True, slots=True)
class SeatScene:
    """A seat as everyone sees it: ``cards`` held (``None``: none dealt, or not known), its
    state in words, and whether it is to move."""

    player_id: int
    name: str
    cards: int | None
    status: str
    to_move: bool


@dataclass(frozen=True, slots=True)
class PileScene:
    """Cards on the table: ``cards`` face up (oldest first, the top last), ``count`` how many
    the pile holds in all (``None``: all of them are in ``cards``). ``id`` stays the same
    while the table lasts (a move's ``target``)."""

    id: str
    kind: PileKind
    label: str
    cards: tuple[int, ...]
    count: int | None = None


@dataclass(frozen=True, slots=True)
class MoveScene:
    """One legal move of a seat, as its hand panel names it: the game's ``move`` itself, the
    cards it uses, and its pile: the one its cards go onto, or for a move without cards the
    one it takes from (``None``: none, or a new one)."""

    move: Any
    label: str
    cards: tuple[int, ...] = ()
    target: str | None = None


@dataclass(frozen=True, slots=True)
class TableScene:
    """The public table of a game in play or over: no card of any hand in it."""

    state: SceneState
    title: str
    status: str
    seats: tuple[SeatScene, ...]
    piles: tuple[PileScene, ...]
    result: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class HandScene:
    """One seat's own cards, its total in words where the game counts one, and exactly its
    legal moves now."""

    cards: tuple[int, ...]
    total: str | None
    moves: tuple[MoveScene, ...]
