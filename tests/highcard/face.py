"""High card on Discord: the table, the panel, events in words, the ``/highcard`` group.

A test game: it speaks English only, whatever ``lang`` asks for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import cards
from bot.discord import lobby, moves
from bot.discord.common import button, name_of
from bot.discord.controller import TableController
from bot.discord.face import Panel
from bot.discord.routing import Handler
from bot.discord.rows import Rows
from bot.discord.scene import HandScene, MoveScene, PileScene, SeatScene, TableScene
from bot.discord.shared import SharedWords
from bot.discord.showing import TableRender
from bot.table.service import TableSnapshot
from tests.highcard.engine import HighCardGame, HighCardOptions, Show, Shown
from tests.highcard.spec import PLAYED, WINS


def _engine(snapshot: TableSnapshot) -> HighCardGame:
    assert isinstance(snapshot.engine, HighCardGame)
    return snapshot.engine


class HighCardFace:
    # the host's join and hand, in the test game's words (it speaks English only)
    shared = SharedWords(order=("start", "join", "hand", "show", "stats"),
                         descriptions={"join": "Sit down", "hand": "Your card"})

    def options_line(self, options: Any, players: int, lang: str) -> str:
        return "one card each"

    def table_render(self, snapshot: TableSnapshot, view: Any, recent: Sequence[str],
                     names: Mapping[int, str], lang: str) -> TableRender:
        embed = discord.Embed(title=f"High card — {'over' if view.over else 'in play'}")
        embed.add_field(name="Players", value="\n".join(
            f"{name_of(names, s.player_id, lang)}: "
            f"{cards.display(view.shown[s.player_id]) if s.player_id in view.shown else '🂠'}"
            for s in view.seats), inline=False)
        if recent:
            embed.add_field(name="Latest", value="\n".join(recent), inline=False)
        if view.over:
            return TableRender(embed=embed, view=None)
        buttons = Rows()
        buttons.add_item(button("highcard", snapshot.table_id, "hand", "Your hand",
                                discord.ButtonStyle.primary))
        return TableRender(embed=embed, view=buttons, content=f"<@{view.to_move}> to move.")

    def describe(self, events: Sequence[Mapping[str, Any]], names: Mapping[int, str],
                 lang: str) -> list[str]:
        lines = []
        for e in events:
            if e["type"] == "shown":
                who = name_of(names, e["player"], lang)
                lines.append(f"{who} showed {cards.display(e['card'])}")
            elif e["type"] == "left":
                lines.append(f"{name_of(names, e['player'], lang)} left")
            elif e["type"] == "game_over":
                lines.append("A draw" if e["winner"] is None
                             else f"{name_of(names, e['winner'], lang)} wins")
        return lines

    def starts_round(self, event: Mapping[str, Any]) -> bool:
        return False

    def hand_panel(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str, *, notice: str | None, arg: str | None) -> Panel:
        private = _engine(snapshot).private_view(player_id)
        panel = Rows()
        if private.legal_moves:
            panel.add_item(button("highcard", snapshot.table_id, "show", "Show",
                                  counter=snapshot.counter))
        text = f"Your card: {cards.display(private.hand[0])}"
        return Panel(f"{notice}\n{text}" if notice else text, panel)

    def move_notice(self, events: Sequence[Any], player_id: int, lang: str) -> str | None:
        return next((f"You showed {cards.display(e.card)}." for e in events
                     if isinstance(e, Shown) and e.player == player_id), None)

    def left_text(self, events: Sequence[Any], snapshot: TableSnapshot, lang: str) -> str | None:
        return None

    def hand_picture(self, snapshot: TableSnapshot, player_id: int, lang: str) -> None:
        return None

    def table_picture(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                      lang: str) -> None:
        return None

    def summary(self, snapshot: TableSnapshot, names: Mapping[int, str],
                money: Mapping[int, int] | None, lang: str) -> str:
        winner = _engine(snapshot).public_view().winner
        return "A draw" if winner is None else f"{name_of(names, winner, lang)} won"

    def table_scene(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                    lang: str) -> TableScene:
        seats = tuple(SeatScene(s.player_id, name_of(names, s.player_id, lang),
                                0 if s.player_id in view.shown else 1, "",
                                s.player_id == view.to_move) for s in view.seats)
        shown = tuple(view.shown[s.player_id] for s in view.seats if s.player_id in view.shown)
        return TableScene("over" if view.over else "playing",
                          f"High card — {'over' if view.over else 'in play'}",
                          self.summary(snapshot, names, None, lang) if view.over else "",
                          seats, (PileScene("shown", "play", "Shown", shown),))

    def hand_scene(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str) -> HandScene | None:
        private = _engine(snapshot).private_view(player_id)
        return HandScene(private.hand, None, tuple(
            MoveScene(move, "Show", private.hand, "shown") for move in private.legal_moves))

    def routes(self, controller: TableController) -> Mapping[str, Handler]:
        return {"show": moves.button(controller, Show())}

    def cog(self, bot: commands.Bot, controller: TableController) -> commands.Cog:
        return HighCard(controller)


class HighCard(commands.Cog):
    highcard = app_commands.Group(name="highcard", description="High card: the higher card wins",
                                  guild_only=True)

    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    @highcard.command(name="start", description="Open a high card lobby")
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby.open_lobby(self.controller, interaction, HighCardOptions(), turn_seconds=0)

    @highcard.command(name="show", description="Show your card")
    async def show(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, Show())

    @highcard.command(name="stats", description="Who wins most")
    async def stats(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        rows = await self.controller.service.stats(interaction.guild_id, "highcard")
        lines = [f"{r.name}: {r.count(WINS)} of {r.count(PLAYED)}" for r in rows]
        await interaction.response.send_message("\n".join(lines) or "No games yet.")


FACE = HighCardFace()
