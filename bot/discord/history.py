"""The history room: a server's finished tables of a game, paged, and replays of them move by
move, privately; the ``history`` command (whose ``export`` options attach the public record,
``bot.discord.exports``), its pages and menu, and a finished table's Replay button."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord
from discord import app_commands

from bot.discord.answers import on_ephemeral, user_lang
from bot.discord.common import FINISHED_COLOUR, button, fit
from bot.discord.controller import RECENT_LINES, TableController, closed_text
from bot.discord.errors import UserFacingError
from bot.discord.exports import MAX_TABLE_ID, MAX_TABLES, history_export
from bot.discord.layout import answer_layout
from bot.discord.reach import place_of
from bot.discord.routing import Handler, Route, RoutedSelect
from bot.discord.rows import Rows
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd
from bot.i18n import N_, join, tr
from bot.storage import MoveRecord, SeatInfo, TableRecord
from bot.table.fairdeal import deals_of, engine_from_start
from bot.table.service import TableSnapshot

HISTORY_PAGE = 5


async def history(controller: TableController, interaction: discord.Interaction, *,
                  before: int | None = None, edit: bool = False) -> None:
    """This server's finished and stopped tables of this game, newest first, paged; a menu
    replays one. Private to whoever asked."""
    place = place_of(interaction)
    if place is None:
        raise UserFacingError("Games are played in server channels.")
    lang = user_lang(interaction)
    records = await controller.service.store.finished_tables(
        place, controller.game.kind, before_id=before, limit=HISTORY_PAGE + 1)
    more = len(records) > HISTORY_PAGE
    records = records[:HISTORY_PAGE]
    # a DM or group DM keeps a history of its own: it is "here", not a server's
    title = (N_("{game} — recent games on this server") if interaction.guild_id is not None
             else N_("{game} — recent games here"))
    embed = discord.Embed(title=tr(lang, title, game=controller.game.name),
                          colour=FINISHED_COLOUR)
    view = Rows()
    options: list[discord.SelectOption] = []
    lines = []
    for record in records:
        snapshot = await controller.service.closed(record)
        who = join(lang, (label for _, label in sorted(controller.names(snapshot).items())))
        how = (controller.face.summary(snapshot, controller.names(snapshot),
                                       await controller.money(snapshot), lang)
               if snapshot.engine is not None else closed_text(record.closed_note, lang))
        lines.append(f"**#{record.id}** · <t:{int(record.updated_at)}:R> · {who}\n{how}")
        if snapshot.engine is not None:
            options.append(discord.SelectOption(
                label=tr(lang, "Replay #{table}", table=record.id), value=str(record.id)))
    embed.description = "\n\n".join(lines) or tr(lang, "No {game} games have ended here "
                                                 "yet.", game=controller.game.name)
    extra = (None if controller.history_extra is None or before is not None
             else await controller.history_extra(place, lang))
    if extra:
        embed.add_field(name=tr(lang, "Events"), value=extra, inline=False)
    if options:
        view.add_item(RoutedSelect(Route(controller.game.kind, 0, "replay_pick"), options,
                                   tr(lang, "Replay a game…"), row=0))
    if more:
        view.add_item(button(controller.game.kind, 0, "history", tr(lang, "Older ▶"),
                             counter=records[-1].id, row=1))
    layout = answer_layout(fit(embed), view)
    if edit and on_ephemeral(interaction):
        # a page shown before the layout was an embed: an edit that empties it turns it
        await interaction.response.edit_message(content=None, embed=None, view=layout)
    else:
        await interaction.response.send_message(view=layout, ephemeral=True)


async def replay(controller: TableController, interaction: discord.Interaction, table_id: int,
                 step: int, *, edit: bool) -> None:
    """A finished game move by move, as the table showed it then — public information only
    (a private card only once the game made it public) — with ◀ ▶, privately to whoever
    asked."""
    lang = user_lang(interaction)
    record = await finished_record(controller, interaction, table_id)
    records = await controller.service.moves(table_id)
    last = len(records) - 1
    step = min(max(step, 0), last)
    snapshot = replayed(controller, record, records, step)
    names = controller.names(snapshot)
    public = [controller.game.events.public(e) for e in records[step].events]
    lines = controller.face.describe(public, names, lang)
    assert snapshot.engine is not None
    render = controller.face.table_render(snapshot, snapshot.engine.public_view(),
                                          lines[-RECENT_LINES:], names, lang)
    content = tr(lang, "Replay of {game} #{table}: move {step} of {last}.",
                 game=controller.game.name, table=table_id, step=step, last=last)
    view = Rows()
    for label_text, to, off in (("⏮", 0, step == 0), ("◀", step - 1, step == 0),
                                ("▶", step + 1, step == last),
                                ("⏭", last, step == last)):
        view.add_item(button(controller.game.kind, table_id, "replay", label_text,
                             counter=max(to, 0), arg=label_text.encode().hex(),
                             disabled=off))
    # posting it for everyone is a click away (``bot.discord.replay_share``)
    view.add_item(button(controller.game.kind, table_id, "share_replay",
                         tr(lang, "Share replay"), row=1))
    # the table as it showed then, each seat in its Section, the steps below
    layout = answer_layout(fit(render.embed), view, content=content, seats=render.seats)
    if edit:
        await interaction.response.edit_message(content=None, embed=None, view=layout)
    else:
        await interaction.response.send_message(view=layout, ephemeral=True)


async def finished_record(controller: TableController, interaction: discord.Interaction,
                          table_id: int) -> TableRecord:
    """Table ``table_id`` of this game, if it was played and is over, filed where ``interaction``
    comes from; refused otherwise."""
    record = await controller.service.store.table(table_id)
    if (record is None or record.guild_id != place_of(interaction) or record.is_live
            or not record.has_started or record.kind != controller.game.kind):
        raise UserFacingError("There is no finished game to replay there.")
    return record


def replayed(controller: TableController, record: TableRecord,
              records: Sequence[MoveRecord], step: int) -> TableSnapshot:
    start = records[0].move
    options = controller.game.validate_options(start["options"])
    engine = engine_from_start(controller.game, start, deals_of(record))
    for move in records[1:step + 1]:
        engine.apply(move.player_id, controller.game.moves.from_dict(move.move))
    return TableSnapshot(
        table_id=record.id, guild_id=record.guild_id, channel_id=record.channel_id,
        kind=record.kind, status="finished" if engine.is_over else "playing",
        host_id=record.host_id, options=options,
        seats=tuple(SeatInfo(player_id=s.player_id, name=s.name,
                             is_computer=s.player_id < 0) for s in engine.seats),
        message_id=None, counter=step, engine=engine, turn_seconds=0, turn_deadline=None,
        lobby_expires_at=None, locale=record.locale,
    )


def routes(controller: TableController) -> Mapping[str, Handler]:
    """A replay's ◀ ▶ (and Replay on a finished table), the history's menu and its pages."""

    async def replay_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await replay(controller, i, route.table_id, route.counter or 0, edit=on_ephemeral(i))

    async def replay_pick(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            table_id = int(values[0])
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a table. Nothing was changed.") \
                from None
        await replay(controller, i, table_id, 0, edit=False)

    async def history_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await history(controller, i, before=route.counter or None, edit=True)

    return {"replay": replay_, "replay_pick": replay_pick, "history": history_}


def commands(controller: TableController) -> list[SharedCommand]:
    """``history``: each game words it (it names the game)."""

    @app_commands.describe(
        export=cmd("Attach the finished tables' public record as JSON, to check with "
                   "python -m bot.verify"),
        table=cmd("Export only this table (its number, as #12 shows it)"),
        count=cmd("Export this server's latest tables, this many (default 10)"),
    )
    @app_commands.rename(export=cmd("export"), table=cmd("table"), count=cmd("count"))
    async def history_(interaction: discord.Interaction, export: bool = False,
                       table: app_commands.Range[int, 1, MAX_TABLE_ID] | None = None,
                       count: app_commands.Range[int, 1, MAX_TABLES] | None = None) -> None:
        # table: and count: only say what to export, so either asks for an export
        if export or table is not None or count is not None:
            await history_export(controller, interaction, table_id=table, count=count)
            return
        await history(controller, interaction)

    return [SharedCommand(cmd("history"), history_)]
