"""Exports and checks anyone can take away (docs/fair-deals.md): a game's ledger as CSV for a
server's managers, finished tables' public records as JSON for anyone, and ``/kortbord verify``,
the checks of ``python -m bot.verify`` answered in the reader's language.

Every answer here is private. The files go on that one answer, cut to Discord's attachment limit
(the size the interaction reports, at most ten files on a message): an export that needs more
than one message is refused with what to ask for instead, rather than flooding a channel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.discord.answers import user_lang
from bot.discord.common import DESCRIPTION_LIMIT, FINISHED_COLOUR, cut
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.layout import TEXT_MAX, Layout, answer_layout, files_layout
from bot.discord.pictures import data_file
from bot.discord.reach import place_of
from bot.gamekit.contract import GameSpec
from bot.i18n import tr, trn
from bot.storage import Store, TableRecord
from bot.table.exports import TooLargeError, ledger_csv, records_json
from bot.table.record import Check, NotFinishedError, public_record, verify

MAX_FILES = 10
"""Discord takes at most ten files on one message."""
MEBIBYTE = 1024 * 1024
DEFAULT_TABLES = 10
"""``history export`` without ``table:``: the server's latest ten tables of the game."""
MAX_TABLES = 50
MAX_TABLE_ID = (1 << 53) - 1
"""The largest whole number a Discord integer option carries."""


def _mib(limit: int) -> int:
    return max(limit // MEBIBYTE, 1)


def _named(stem: str, suffix: str, parts: Sequence[bytes]) -> list[discord.File]:
    if len(parts) == 1:
        return [data_file(parts[0], f"{stem}{suffix}")]
    return [data_file(p, f"{stem}-part{n}-of-{len(parts)}{suffix}")
            for n, p in enumerate(parts, 1)]


async def _send(interaction: discord.Interaction, text: str, files: list[discord.File]) -> None:
    """The deferred answer in the look of the bot's other answers, each of its files shown
    below the words (the first follow-up replaces "thinking…")."""
    await interaction.followup.send(view=files_layout(text, files), files=files,
                                    ephemeral=True)


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("Games are played in server channels.")
    return interaction.guild_id


# -- the ledger as CSV -----------------------------------------------------------------------------


async def ledger_export(controller: TableController, interaction: discord.Interaction, *,
                        season: int | None, all_time: bool, table_id: int | None,
                        player_id: int | None) -> None:
    """The game's ledger of this server as CSV (Manage Server): the current season, the one
    asked for, or all time; optionally one table's or one player's rows."""
    guild_id = _guild(interaction)
    # Discord applies default permissions to whole command groups only: this check counts
    if not interaction.permissions.manage_guild:
        raise UserFacingError("Only members with the Manage Server permission can export the "
                              "ledger. Nothing was sent.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    store = controller.service.store
    kind = controller.game.kind
    if not all_time and season is None:
        season = (await store.seasons(guild_id, kind))[-1].season
    entries, (seq, digest) = await store.chained_ledger(
        guild_id, kind, season=None if all_time else season, table_id=table_id,
        player_id=player_id)
    lang = user_lang(interaction)
    limit = interaction.filesize_limit
    parts = ledger_csv(entries, limit)
    if len(parts) > MAX_FILES:
        raise UserFacingError("That ledger is larger than one message can carry ({files} files "
                              "of {size} MB). Export one season, one table or one player at "
                              "a time. Nothing was sent.", files=MAX_FILES, size=_mib(limit))
    scope = (tr(lang, "all time") if all_time
             else tr(lang, "season {season}", season=season))
    stem = f"ledger-{kind}-{guild_id}-" + ("all" if all_time else f"season-{season}")
    if table_id is not None:
        stem += f"-table-{table_id}"
    if player_id is not None:
        stem += f"-player-{player_id}"
    text = "\n".join([
        trn(lang, "The {game} ledger of this server, {scope}: {n} row, as CSV.",
            "The {game} ledger of this server, {scope}: {n} rows, as CSV.", len(entries),
            game=controller.game.name, scope=scope),
        tr(lang, "The server's ledger chain ends at link {seq}, digest `{digest}`. Each row "
                 "carries its link and digest; how to check them: {doc}.",
           seq=seq, digest=digest, doc="docs/fair-deals.md"),
        tr(lang, "Chips are play money: they have no value and cannot be bought or cashed."),
    ])
    await _send(interaction, text, _named(stem, ".csv", parts))


# -- finished tables as their public record -----------------------------------------------------


async def _records(store: Store, games: Mapping[str, GameSpec], tables: Sequence[TableRecord]
                   ) -> list[dict[str, object]]:
    out = []
    for record in tables:
        try:
            out.append(await public_record(store, games, record.id))
        except NotFinishedError:
            continue  # a lobby that closed before its game began has no record
    return out


async def _latest(controller: TableController, guild_id: int, count: int
                  ) -> list[dict[str, object]]:
    """The server's ``count`` latest tables of the game that were played, newest first."""
    store, kind = controller.service.store, controller.game.kind
    games = {kind: controller.game}
    found: list[dict[str, object]] = []
    before: int | None = None
    while len(found) < count:
        page = await store.finished_tables(guild_id, kind, before_id=before, limit=count)
        if not page:
            break
        found += await _records(store, games, [t for t in page if t.has_started])
        before = page[-1].id
    return found[:count]


async def history_export(controller: TableController, interaction: discord.Interaction, *,
                         table_id: int | None, count: int | None) -> None:
    """Finished tables of this server (or DM, or group DM) and game as their public record,
    JSON that ``python -m bot.verify FILE`` checks: one table, else the latest ``count`` (ten
    unless told)."""
    # a DM or group DM exports its own history, as a server does (issue 45)
    guild_id = place_of(interaction)
    if guild_id is None:
        raise UserFacingError("Games are played in server channels.")
    lang = user_lang(interaction)
    game = controller.game
    store = controller.service.store
    if table_id is not None:
        record = await store.table(table_id)
        if record is None or record.guild_id != guild_id or record.kind != game.kind:
            if interaction.guild_id is None:
                raise UserFacingError("There is no {game} table #{table} here.",
                                      game=game.name, table=table_id)
            raise UserFacingError("There is no {game} table #{table} on this server.",
                                  game=game.name, table=table_id)
        if record.is_live:
            raise UserFacingError("Table #{table} is still being played: its record is public "
                                  "once it is over.", table=table_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if table_id is not None:
        records = await _records(store, {game.kind: game}, [record])
    else:
        records = await _latest(controller, guild_id, min(count or DEFAULT_TABLES, MAX_TABLES))
    if not records:
        raise UserFacingError("No {game} game has been played to its end here yet, so there is "
                              "nothing to export.", game=game.name)
    limit = interaction.filesize_limit
    try:
        parts = records_json(records, limit)
    except TooLargeError:
        raise UserFacingError("One table's record is larger than Discord lets me attach "
                              "({size} MB), so it can't be exported here. Nothing was sent.",
                              size=_mib(limit)) from None
    if len(parts) > MAX_FILES:
        raise UserFacingError("Those records are larger than one message can carry ({files} "
                              "files of {size} MB). Ask for fewer with count:, or one with "
                              "table:. Nothing was sent.", files=MAX_FILES, size=_mib(limit))
    ids = [int(str(r["table"])) for r in records]
    stem = (f"history-{game.kind}-{guild_id}-table-{ids[0]}" if len(ids) == 1
            else f"history-{game.kind}-{guild_id}-tables-{min(ids)}-{max(ids)}")
    text = "\n".join([
        trn(lang, "The public record of {n} {game} table of this server, as JSON.",
            "The public record of {n} {game} tables of this server, as JSON.", len(records),
            game=game.name),
        tr(lang, "Anyone can check it from the file alone: `python -m bot.verify FILE` "
                 "recomputes every deal from its revealed secret and replays every move "
                 "({doc}).", doc="docs/fair-deals.md"),
    ])
    await _send(interaction, text, _named(stem, ".json", parts))


# -- /kortbord verify ------------------------------------------------------------------------------


def checks_text(checks: Sequence[Check], lang: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """One line per check; when they are too many for ``limit``, every failed one and as many
    passed ones as fit, then how many passed checks are not listed."""
    lines = [(c.ok, ("✅ " if c.ok else "❌ ") + c.text(lang)) for c in checks]
    text = "\n".join(line for _, line in lines)
    if len(text) <= limit:
        return text
    failed = [line for ok, line in lines if not ok]
    room = limit - sum(len(line) + 1 for line in failed) - 80
    kept: list[str] = []
    for ok, line in lines:
        if ok and room - len(line) - 1 > 0:
            kept.append(line)
            room -= len(line) + 1
    passed = sum(ok for ok, _ in lines)
    more = trn(lang, "…and {n} more passed check.", "…and {n} more passed checks.",
               passed - len(kept))
    return cut("\n".join([*kept, *failed, more]), limit)


async def verify_answer(store: Store, games: Mapping[str, GameSpec],
                        interaction: discord.Interaction, table_id: int) -> None:
    """``/kortbord verify table:N``: the checks of ``python -m bot.verify`` on one finished
    table of this server, privately, in the reader's language."""
    guild_id = _guild(interaction)
    record = await store.table(table_id)
    if record is None or record.guild_id != guild_id or record.kind not in games:
        raise UserFacingError("There is no table #{table} on this server.", table=table_id)
    if record.is_live:
        raise UserFacingError("Table #{table} is still being played: its deals can be checked "
                              "once it is over.", table=table_id)
    if not record.has_started:
        raise UserFacingError("Table #{table} closed before its game began: there is nothing "
                              "to check.", table=table_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = user_lang(interaction)
    checks = list(verify(await public_record(store, games, table_id), games))
    answer = checks_layout(checks, games[record.kind].name, table_id, lang)
    await interaction.followup.send(view=answer, ephemeral=True)


def checks_layout(checks: Sequence[Check], game: str, table_id: int,
                  lang: str) -> Layout:
    """The answer to ``/kortbord verify``: how many checks passed or failed, then one line
    each."""
    failed = sum(not c.ok for c in checks)
    title = (trn(lang, "{game} #{table}: {n} check, all passed",
                 "{game} #{table}: {n} checks, all passed", len(checks), game=game,
                 table=table_id) if not failed else
             trn(lang, "{game} #{table}: {n} check failed", "{game} #{table}: {n} checks failed",
                 failed, game=game, table=table_id))
    footer = tr(lang, "The same checks as python -m bot.verify: commitments, deals, every "
                      "move and the ledger rows.")
    # the layout's 4,000 characters hold the title and the small print too: the checks get
    # the rest, so a failed one is never cut
    room = TEXT_MAX - len(f"## {title}\n") - len(f"-# {footer}")
    embed = discord.Embed(title=title, description=checks_text(checks, lang, room),
                          colour=FINISHED_COLOUR if not failed else discord.Colour.red())
    embed.set_footer(text=footer)
    return answer_layout(embed)
