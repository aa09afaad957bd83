"""Tonk's face on Discord: the table, the hand panel, events in words, its components, the
ledger and the ``/tonk`` command group, in any language the bot speaks. Only the Discord layer
loads this (``GameSpec.face``)."""

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
from bot.games.tonk.engine import TonkEngine
from bot.games.tonk.events import Left
from bot.games.tonk.face import pictures, reasons, render, scene
from bot.games.tonk.face.commands import SHARED, Tonk, routes
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.views import TonkPublicView
from bot.i18n import tr
from bot.table.service import TableSnapshot


def _engine(snapshot: TableSnapshot) -> TonkEngine:
    engine = snapshot.engine
    assert isinstance(engine, TonkEngine)
    return engine


class TonkFace:
    shared = SHARED

    def options_line(self, options: Any, players: int, lang: str) -> str:
        return render.options_line(options, lang)

    def table_render(self, snapshot: TableSnapshot, view: Any, recent: Sequence[str],
                     names: Mapping[int, str], lang: str) -> TableRender:
        # the public view only: a replay of a past state shows what the table showed then
        assert isinstance(view, TonkPublicView)
        return render.table_render(view, recent,
                                   table_id=snapshot.table_id, counter=snapshot.counter,
                                   names=names, lang=lang, deadline=snapshot.turn_deadline)

    def describe(self, events: Sequence[Mapping[str, Any]], names: Mapping[int, str],
                 lang: str) -> list[str]:
        return render.describe(events, names, lang)

    def starts_round(self, event: Mapping[str, Any]) -> bool:
        return event.get("type") == "dealt"

    def hand_panel(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str, *, notice: str | None, arg: str | None) -> Panel:
        engine = _engine(snapshot)
        return render.hand_panel(engine.public_view(), engine.private_view(player_id),
                                 table_id=snapshot.table_id, counter=snapshot.counter,
                                 names=names, lang=lang, notice=notice,
                                 deadline=snapshot.turn_deadline)

    def move_text(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                  lang: str) -> str:
        assert isinstance(engine, TonkEngine)
        return render.move_text(move, engine.public_view(), engine.private_view(player_id),
                                names, lang)

    def move_reason(self, engine: Any, player_id: int, move: Any, names: Mapping[int, str],
                    lang: str) -> str | None:
        assert isinstance(engine, TonkEngine)
        return reasons.move_reason(move, engine.public_view(), engine.private_view(player_id),
                                   lang)

    def move_notice(self, events: Sequence[Any], player_id: int, lang: str) -> str | None:
        return render.move_notice(events, player_id, lang)

    def left_text(self, events: Sequence[Any], snapshot: TableSnapshot, lang: str) -> str | None:
        if any(isinstance(e, Left) and e.forfeit for e in events):
            options = snapshot.options
            stake = options.stake if isinstance(options, TonkOptions) else 1
            return tr(lang, "You left during the hand and forfeited it: you paid {chips} to "
                            "each other player.", chips=render.chips(lang, stake))
        return tr(lang, "You left the table.")

    def hand_picture(self, snapshot: TableSnapshot, player_id: int, lang: str
                     ) -> CardImage | None:
        engine = _engine(snapshot)
        return pictures.hand_picture(engine.public_view(), engine.private_view(player_id), lang)

    def table_picture(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                      lang: str) -> CardImage | None:
        # alt text is plain text, never markdown: names go in as typed, at Discord's length
        assert isinstance(view, TonkPublicView)
        return pictures.table_picture(view, {p: n[:32] for p, n in names.items()}, lang)

    def summary(self, snapshot: TableSnapshot, names: Mapping[int, str],
                money: Mapping[int, int] | None, lang: str) -> str:
        return render.summary(_engine(snapshot).public_view(), names, money, lang)

    def table_scene(self, snapshot: TableSnapshot, view: Any, names: Mapping[int, str],
                    lang: str) -> TableScene:
        assert isinstance(view, TonkPublicView)
        return scene.table_scene(view, names, lang, finished=snapshot.status == "finished")

    def hand_scene(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str],
                   lang: str) -> HandScene | None:
        engine = _engine(snapshot)
        view = engine.public_view()
        if all(s.player_id != player_id for s in view.seats):
            return None
        return scene.hand_scene(view, engine.private_view(player_id), names, lang)

    def routes(self, controller: TableController) -> Mapping[str, Handler]:
        return routes(controller)

    def cog(self, bot: commands.Bot, controller: TableController) -> commands.Cog:
        return Tonk(controller)


FACE = TonkFace()
