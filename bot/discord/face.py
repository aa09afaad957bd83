"""The contract between the host's Discord layer and a game's face: how one game shows itself
(its table, hand panel and events in words) and which components and commands it adds.

``GameSpec.face`` names a game's face and ``bot.discord.controller.load_face`` loads it; the host's
rooms only read what a face draws (``FaceDrawing``), and a face changes nothing.

A face's components and commands act through the table controller that draws with it, and hand
it on to the rooms' functions; the controller imports this contract, so the contract leaves the
controller's type open (``GameFace[Host]``): the controller holds a ``GameFace[TableController]``
and a face names the controller it is given, while this module names neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from discord.ext import commands

from bot.cardart import CardImage
from bot.discord.routing import Handler
from bot.discord.rows import Rows
from bot.discord.scene import HandScene, TableScene
from bot.discord.shared import SharedWords
from bot.discord.showing import TableRender
from bot.table.service import TableSnapshot

Host = TypeVar("Host", contravariant=True)
"""What a face's components and commands act through: the host's table controller, given to
``GameFace.routes`` and ``GameFace.cog``."""


@dataclass(frozen=True)
class Panel:
    """A private hand panel: its text, its components, and a picture of the hand for players
    who see cards as pictures."""

    content: str
    view: Rows
    image: CardImage | None = None


class FaceDrawing(Protocol):
    """How one game shows itself on Discord, in a given language: what the rooms draw with.
    Faces only read views; they change nothing."""

    def options_line(self, options: Any, players: int, lang: str) -> str:
        """The table's options in a few words, for the lobby (``players`` seated so far)."""
        ...

    def table_render(self, snapshot: TableSnapshot, view: Any, recent: Sequence[str],
                     names: Mapping[int, str], lang: str) -> TableRender:
        """The public table of a game in play or over, from its public ``view`` (the engine's
        ``public_view()``, taken when the version was made: the snapshot's engine may be
        ``None`` or have moved on); ``recent`` are its latest lines. A replay draws past
        states with it too (the controller replaces the components)."""
        ...

    def describe(self, events: Sequence[Mapping[str, Any]], names: Mapping[int, str],
                 lang: str) -> list[str]:
        """Events in their public form as lines of plain words."""
        ...

    def starts_round(self, event: Mapping[str, Any]) -> bool:
        """Whether this public event begins a new round (a new deal): the latest lines then
        start afresh, since an earlier round's cards are dealt again."""
        ...

    def hand_panel(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str, *, notice: str | None, arg: str | None) -> Panel:
        """The private panel: the player's cards and exactly their legal moves."""
        ...

    def move_text(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                  lang: str) -> str:
        """One of ``player_id``'s moves in ``engine`` (the game as it was then) in a few words,
        as their hand panel names it (hints, reviews): only what that player may see. A player
        it mentions is named by ``names``: escaped for a message, as typed for a menu."""
        ...

    def move_reason(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                    lang: str) -> str | None:
        """What one of ``player_id``'s moves would do for them, in a few words (a hint's
        reason: "it dubs Bo: 2 cards each"), or ``None``: only what that player may see."""
        ...

    def move_notice(self, events: Sequence[Any], player_id: int, lang: str) -> str | None:
        """What only the mover learns from their move (the card they drew), or ``None``."""
        ...

    def left_text(self, events: Sequence[Any], snapshot: TableSnapshot, lang: str) -> str | None:
        """What a player who left a game in play is told, or ``None`` for the plain text."""
        ...

    def hand_picture(self, snapshot: TableSnapshot, player_id: int, lang: str
                     ) -> CardImage | None:
        """The player's hand as a picture, their legal cards highlighted (alt text in
        ``lang``)."""
        ...

    def table_picture(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                      lang: str) -> CardImage | None:
        """The public cards on the table (its public ``view``) as a picture, or ``None`` when
        there are none to show. Public information only, as ``table_render``; ``names`` are
        everyone's names as typed (plain text, for the alt text)."""
        ...

    def summary(self, snapshot: TableSnapshot, names: Mapping[int, str],
                money: Mapping[int, int] | None, lang: str) -> str:
        """One line on how a table that is over went (history, closed tables): the loser, or
        the hands played and each player's net at the table (``money``, for games played for
        stakes)."""
        ...

    def table_scene(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                    lang: str) -> TableScene:
        """The public table of a game in play or over as data, for the Activity: what
        ``table_render`` shows, from the same public ``view``."""
        ...

    def hand_scene(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str) -> HandScene | None:
        """``player_id``'s own cards and exactly their legal moves as data, for the
        Activity: what ``hand_panel`` shows; ``None`` when they hold no hand in this game."""
        ...


class GameFace(FaceDrawing, Protocol[Host]):
    """A game's face: how it shows itself (``FaceDrawing``), and the components and commands
    it adds, which act through the table controller (``Host``) that draws with it."""

    shared: SharedWords
    """Which of the subcommands every game shares its command group takes, worded for the
    game, and where they go among its own (``bot.discord.features``)."""

    def routes(self, controller: Host) -> Mapping[str, Handler]:
        """The game's own components, by action (the shared ones are the rooms')."""
        ...

    def cog(self, bot: commands.Bot, controller: Host) -> commands.Cog:
        """The game's command group, with the game's own subcommands (the shared ones are
        added to it)."""
        ...
