"""Dubb's face on Discord: the table, the hand panel, events in words, its components and the
``/dubb`` command group. Only the Discord layer loads this (``GameSpec.face``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from discord.ext import commands

from bot.cardart import CardImage
from bot.discord.controller import TableController
from bot.discord.face import Panel
from bot.discord.routing import Handler
from bot.discord.scene import HandScene, TableScene
from bot.discord.showing import TableRender
from bot.games.dubb.engine import DubbEngine
from bot.games.dubb.face import pictures, reasons, render, scene
from bot.games.dubb.face.commands import SHARED, Dubb, routes
from bot.games.dubb.views import DubbPublicView
from bot.table.service import TableSnapshot


def _engine(snapshot: TableSnapshot) -> DubbEngine:
    engine = snapshot.engine
    assert isinstance(engine, DubbEngine)
    return engine


class DubbFace:
    shared = SHARED

    def options_line(self, options: Any, players: int, lang: str) -> str:
        return render.options_line(options, lang, players)

    def table_render(self, snapshot: TableSnapshot, view: Any, recent: Sequence[str],
                     names: Mapping[int, str], lang: str) -> TableRender:
        assert isinstance(view, DubbPublicView)
        return render.table_render(
            view, recent, names, lang, table_id=snapshot.table_id,
            counter=snapshot.counter, deadline=snapshot.turn_deadline,
        )

    def describe(self, events: Sequence[Mapping[str, Any]], names: Mapping[int, str],
                 lang: str) -> list[str]:
        return render.describe(events, names, lang)

    def starts_round(self, event: Mapping[str, Any]) -> bool:
        return False

    def hand_panel(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str, *, notice: str | None, arg: str | None) -> Panel:
        engine = _engine(snapshot)
        content, view = render.hand_panel(
            engine.public_view(), engine.private_view(player_id), names, lang,
            table_id=snapshot.table_id, counter=snapshot.counter,
            rank_filter=int(arg) if arg and arg.isdigit() else None, notice=notice,
            deadline=snapshot.turn_deadline,
        )
        return Panel(content, view)

    def move_text(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                  lang: str) -> str:
        return render.move_text(move, lang)

    def move_reason(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                    lang: str) -> str | None:
        assert isinstance(engine, DubbEngine)
        return reasons.move_reason(move, engine.public_view(), engine.private_view(player_id),
                                   names, lang)

    def move_notice(self, events: Sequence[Any], player_id: int, lang: str) -> str | None:
        return render.move_notice(events, player_id, lang)

    def left_text(self, events: Sequence[Any], snapshot: TableSnapshot, lang: str) -> str | None:
        return None

    def hand_picture(self, snapshot: TableSnapshot, player_id: int, lang: str
                     ) -> CardImage | None:
        engine = _engine(snapshot)
        return pictures.hand_picture(engine.public_view(), engine.private_view(player_id), lang)

    def table_picture(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                      lang: str) -> CardImage | None:
        assert isinstance(view, DubbPublicView)
        return pictures.streak_picture(view, lang)

    def summary(self, snapshot: TableSnapshot, names: Mapping[int, str],
                money: Mapping[int, int] | None, lang: str) -> str:
        return render.summary(_engine(snapshot).public_view(), names, lang)

    def table_scene(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                    lang: str) -> TableScene:
        assert isinstance(view, DubbPublicView)
        return scene.table_scene(view, names, lang)

    def hand_scene(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str) -> HandScene | None:
        engine = _engine(snapshot)
        if all(p.player_id != player_id for p in engine.public_view().players):
            return None
        return scene.hand_scene(engine.private_view(player_id), lang)

    def routes(self, controller: TableController) -> Mapping[str, Handler]:
        return routes(controller)

    def cog(self, bot: commands.Bot, controller: TableController) -> commands.Cog:
        return Dubb(controller)


FACE = DubbFace()
