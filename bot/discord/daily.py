"""The daily room (issue 46, ``docs/daily.md``): ``/… daily`` plays today's deal of the game
against its computers, privately: the table and the hand in one ephemeral message only the
player sees, a menu of their moves on it, edited in place after each move with the computers'
replies. ``/… daily`` again resumes it (an ephemeral message cannot be edited after the
interaction's 15 minutes, a fresh one can); once it is over it shows the result against the
expert and refuses a second attempt. The day's commitment is shown from the start, yesterday's
secret once revealed.

Components carry the day (its deal number, as a table's id) and the daily's move count, so a
click from an earlier move or an earlier day changes nothing.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.daily.day import deal_number
from bot.daily.play import PERSON, DailyGame
from bot.daily.record import daily_record
from bot.daily.service import (
    Daily,
    DailyMovedError,
    DailyOverError,
    DailyPlayedError,
    DailyService,
)
from bot.discord import daily_share
from bot.discord.answers import display_name, send, update_clicked, user_lang
from bot.discord.common import button, cut, fit, shown_name
from bot.discord.controller import TableController
from bot.discord.daily_board import SPANS, show_board
from bot.discord.deadline import answering, in_time
from bot.discord.errors import UnansweredChange, UserFacingError
from bot.discord.layout import files_layout
from bot.discord.pictures import data_file
from bot.discord.reach import place_of
from bot.discord.routing import Handler, Route, RoutedSelect
from bot.discord.rows import Rows
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd
from bot.i18n import N_, ordinal, signed, tr, trn
from bot.storage import DailyAttempt, DailyDay, SeatInfo
from bot.table.service import TableSnapshot

MOVE, PAGE, SHARE, REPLAY = "daily_move", "daily_page", "daily_share", "daily_replay"
YOURS, EXPERTS = "y", "e"
"""Whose game a replay shows (the first letter of its component's argument)."""
PAGE_SIZE = 25
"""Options a select menu holds (Discord's limit): more moves are paged."""
RECENT = 6
_EPOCH = date(1970, 1, 1)

STALE = N_("⚠️ Your daily moved on since this was shown. Here is where it stands now.")
MOVE_MADE = N_("Sorry, something went wrong on my side while answering you, but your move "
               "was made: press any button of your daily to see where it stands.")

_services: weakref.WeakKeyDictionary[TableController, DailyService] = (
    weakref.WeakKeyDictionary())


def service_of(controller: TableController) -> DailyService:
    """The game's daily service in this process (one, so its baseline lock is shared)."""
    found = _services.get(controller)
    if found is None:
        game = controller.game
        found = DailyService(controller.service.store, {game.kind: game},
                             controller.service.now)
        _services[controller] = found
    return found


def _day_of_number(number: int) -> date:
    return _EPOCH + timedelta(days=number - 1)


def _snapshot(controller: TableController, daily: DailyGame, counter: int) -> TableSnapshot:
    """The daily as a table the game's face can draw (no channel, no timer)."""
    engine = daily.engine
    over = daily.is_over
    return TableSnapshot(
        table_id=deal_number(daily.day), guild_id=0, channel_id=0,
        kind=controller.game.kind, status="finished" if over else "playing", host_id=PERSON,
        options=controller.game.validate_options({}),
        seats=tuple(SeatInfo(player_id=s.player_id, name=s.name, is_computer=s.player_id < 0)
                    for s in engine.seats),
        message_id=None, counter=counter, engine=engine, turn_seconds=0, turn_deadline=None,
        lobby_expires_at=None, rated=False)


def _names(daily: DailyGame) -> dict[int, str]:
    return {p: shown_name(n) for p, n in daily.engine.names.items()}


def _recent(controller: TableController, daily: DailyGame, lang: str) -> list[str]:
    codec = controller.game.events
    events = [codec.public(e) for s in daily.steps[-RECENT * 2:] for e in s.events]
    return controller.face.describe(events, _names(daily), lang)[-RECENT:]


async def _header(controller: TableController, day: DailyDay, lang: str) -> str:
    """The day, its commitment, and the day before's secret now that it is out."""
    text = tr(lang, "**{game} daily, {day}**: the same deal for everyone today, against the "
                    "computers; only you see it. Commitment to today's deal: `{commitment}`",
              game=controller.game.name, day=day.day, commitment=day.commitment)
    before = date.fromisoformat(day.day) - timedelta(days=1)
    shown = await service_of(controller).revealed(controller.game.kind, before)
    if shown is not None:
        text += "\n" + tr(lang, "The secret of {day}'s deal, now out: `{secret}`",
                           day=shown.day, secret=shown.secret)
    return text


def _result(controller: TableController, attempt: DailyAttempt, expert: int,
            lang: str) -> str:
    assert attempt.outcome is not None and attempt.score is not None
    rules = controller.game.daily
    assert rules is not None
    score = signed(lang, attempt.score)
    if rules.measure == "place":
        text = tr(lang, "You finished {place}; the expert finished {expert}: {score}.",
                  place=ordinal(lang, attempt.outcome), expert=ordinal(lang, expert),
                  score=score)
    else:
        text = tr(lang, "You ended on {chips} chips; the expert on {expert}: {score}.",
                  chips=signed(lang, attempt.outcome), expert=signed(lang, expert),
                  score=score)
    if attempt.how == "timed_out":
        text += "\n" + tr(lang, "Your daily was not finished when its day ended, so it was "
                                "played on as if each of your turns had timed out.")
    return text


async def _over_text(controller: TableController, service: DailyService,
                     attempt: DailyAttempt, lang: str) -> str:
    """The result of a finished daily, the streak, and tomorrow's commitment."""
    game = controller.game
    day = date.fromisoformat(attempt.day)
    base = await service.baseline(game, day)
    days = await service.streak(game.kind, attempt.player_id)
    tomorrow = await service.day(game.kind, service.today() + timedelta(days=1))
    percent = await service.percentile(attempt)
    lines = [
        _result(controller, attempt, base.outcome, lang),
        *([] if percent is None else [tr(
            lang, "Better than {percent}% of the others who played this deal.",
            percent=percent)]),
        trn(lang, "Streak: {count} day in a row.", "Streak: {count} days in a row.", days,
            count=days),
        tr(lang, "One daily a day: come back tomorrow. Tomorrow's deal is committed: "
                 "`{commitment}`", commitment=tomorrow.commitment),
    ]
    return "\n".join(lines)


def _moves_view(controller: TableController, daily: Daily, lang: str, page: int
                ) -> Rows:
    game = daily.game
    kind = controller.game.kind
    table = deal_number(game.day)
    counter = daily.attempt.move_count
    legal = list(game.engine.legal_moves(PERSON))
    pages = max(1, -(-len(legal) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    first = page * PAGE_SIZE
    options = [discord.SelectOption(
        # a menu shows text as typed: the names unescaped
        label=cut(controller.face.move_text(game.engine, PERSON, move, dict(game.engine.names),
                                            lang), 100),
        value=str(first + n)) for n, move in enumerate(legal[first:first + PAGE_SIZE])]
    view = Rows()
    view.add_item(RoutedSelect(Route(kind, table, MOVE, counter), options,
                               cut(tr(lang, "Your move…"), 150), row=0))
    if pages > 1:
        view.add_item(button(kind, table, PAGE, tr(lang, "◀ Earlier moves"), counter=counter,
                             arg=str(page - 1), disabled=page == 0, row=1))
        view.add_item(button(kind, table, PAGE, tr(lang, "More moves ▶"), counter=counter,
                             arg=str(page + 1), disabled=page == pages - 1, row=1))
    return view


def _share_view(controller: TableController, attempt: DailyAttempt, lang: str
                ) -> Rows:
    """The finished daily's buttons: **Share result** (a line without a card of the deal) and
    the replays of the person's game and of the expert's in the same seat."""
    view = Rows()
    kind, table = controller.game.kind, deal_number(date.fromisoformat(attempt.day))
    view.add_item(button(kind, table, SHARE, tr(lang, "Share result"),
                         discord.ButtonStyle.primary, counter=attempt.move_count))
    view.add_item(button(kind, table, REPLAY, tr(lang, "Replay your game"),
                         counter=attempt.move_count, arg=f"{YOURS}0"))
    view.add_item(button(kind, table, REPLAY, tr(lang, "Replay the expert's game"),
                         counter=attempt.move_count, arg=f"{EXPERTS}0"))
    return view


async def _draw(controller: TableController, daily: Daily, lang: str, *,
                notice: str | None = None, page: int = 0
                ) -> tuple[str, discord.Embed, Rows | None]:
    """The daily's message: its text, the table (an embed) and the move menu."""
    game = daily.game
    snapshot = _snapshot(controller, game, daily.attempt.move_count)
    names = _names(game)
    embed = fit(controller.face.table_render(snapshot, game.engine.public_view(),
                                             _recent(controller, game, lang), names,
                                             lang).embed)
    parts = [await _header(controller, daily.day, lang)]
    if daily.attempt.finished:
        parts.append(await _over_text(controller, service_of(controller), daily.attempt,
                                      lang))
        return cut("\n\n".join(parts), 2000), embed, _share_view(controller, daily.attempt, lang)
    panel = controller.face.hand_panel(snapshot, PERSON, names, lang, notice=notice, arg=None)
    parts.append(panel.content)
    return (cut("\n\n".join(parts), 2000), embed,
            _moves_view(controller, daily, lang, page) if game.my_turn else None)


async def _finished(controller: TableController, attempt: DailyAttempt, lang: str) -> str:
    service = service_of(controller)
    day = await service.day(controller.game.kind, date.fromisoformat(attempt.day))
    return "\n\n".join([
        tr(lang, "You have played today's {game} daily.", game=controller.game.name),
        await _header(controller, day, lang),
        await _over_text(controller, service, attempt, lang)])


async def start(controller: TableController, interaction: discord.Interaction) -> None:
    """``/… daily``: today's daily, started (that is the attempt) or resumed."""
    lang = user_lang(interaction)
    async with in_time(interaction, update=False):
        service = service_of(controller)
        try:
            # a daily counts on the board of the place it was started in: a server, or a
            # group DM or DM (filed under its channel, as its tables are)
            daily = await service.start(controller.game, interaction.user.id,
                                        place_of(interaction) or 0, display_name(interaction))
        except DailyPlayedError as played:
            await _send(interaction, content=cut(
                await _finished(controller, played.attempt, lang), 2000),
                view=_share_view(controller, played.attempt, lang))
            return
        content, embed, view = await _draw(controller, daily, lang)
        await _send(interaction, content=content, embed=embed, view=view)


async def _send(interaction: discord.Interaction, *, content: str,
                embed: discord.Embed | None = None, view: Rows | None = None
                ) -> None:
    async with answering(interaction):
        fields: dict[str, Any] = {"content": content, "embed": embed}
        if view is not None:
            fields["view"] = view
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.send_message(ephemeral=True, **fields)


async def _current(controller: TableController, interaction: discord.Interaction,
                   route: Route, lang: str, *, notice: str | None, page: int = 0) -> None:
    """The daily the component belongs to, as it stands now."""
    service = service_of(controller)
    kind = controller.game.kind
    day = _day_of_number(route.table_id)
    attempt = await service.store.daily.attempt(kind, day.isoformat(), interaction.user.id)
    known = await service.store.daily.known_day(kind, day.isoformat())
    if attempt is None or known is None:
        raise DailyOverError(f"no {kind} daily of {day}")
    game = DailyGame.replay(controller.game, day, bytes.fromhex(known.secret), attempt.name,
                            attempt.moves)
    content, embed, view = await _draw(controller, Daily(game, attempt, known), lang,
                                       notice=notice, page=page)
    await update_clicked(interaction, content=content, embed=embed, view=view)


def routes(controller: TableController) -> Mapping[str, Handler]:
    async def move(interaction: discord.Interaction, route: Route, values: list[str]) -> None:
        lang = user_lang(interaction)
        async with in_time(interaction, update=True):
            await _move(controller, interaction, route, values, lang)

    async def page(interaction: discord.Interaction, route: Route, _: list[str]) -> None:
        lang = user_lang(interaction)
        number = int(route.arg) if route.arg and route.arg.lstrip("-").isdigit() else 0
        async with in_time(interaction, update=True):
            await _current(controller, interaction, route, lang, notice=None, page=number)

    async def share(interaction: discord.Interaction, route: Route, _: list[str]) -> None:
        # the result is posted for the channel: a late "thinking…" is public too
        async with in_time(interaction, update=False, public=True):
            await daily_share.share(controller, service_of(controller), interaction,
                                    _day_of_number(route.table_id))

    async def replay(interaction: discord.Interaction, route: Route, _: list[str]) -> None:
        lang = user_lang(interaction)
        async with in_time(interaction, update=True):
            await _replay(controller, interaction, route, lang)

    return {MOVE: move, PAGE: page, SHARE: share, REPLAY: replay}


async def _replay(controller: TableController, interaction: discord.Interaction, route: Route,
                  lang: str) -> None:
    """One step of the person's game or the expert's, as the table showed it (public cards
    only), privately, once the person's daily is over."""
    service = service_of(controller)
    game = controller.game
    day = _day_of_number(route.table_id)
    attempt = await service.store.daily.attempt(game.kind, day.isoformat(), interaction.user.id)
    known = await service.store.daily.known_day(game.kind, day.isoformat())
    if attempt is None or known is None or not attempt.finished:
        raise UserFacingError("Finish your daily first: its replays are shown once it is over.")
    arg = route.arg or YOURS
    whose = EXPERTS if arg.startswith(EXPERTS) else YOURS
    moves = attempt.moves
    name = attempt.name
    if whose == EXPERTS:
        moves = (await service.baseline(game, day)).moves
        # the engine's name for the seat (the deal does not depend on it), in words
        name = tr(lang, "The expert")
    step = min(max(int(arg[1:]) if arg[1:].isdigit() else 0, 0), len(moves))
    shown = DailyGame.replay(game, day, bytes.fromhex(known.secret), name, moves[:step])
    embed = fit(controller.face.table_render(
        _snapshot(controller, shown, step), shown.engine.public_view(),
        _recent(controller, shown, lang), _names(shown), lang).embed)
    title = (tr(lang, "Replay: your game") if whose == YOURS
             else tr(lang, "Replay: the expert's game in your seat"))
    text = tr(lang, "{title}, move {step} of {last}.", title=title, step=step, last=len(moves))
    view = Rows()
    kind, counter = game.kind, attempt.move_count
    view.add_item(button(kind, route.table_id, REPLAY, tr(lang, "◀ Previous"), counter=counter,
                         arg=f"{whose}{step - 1}", disabled=step == 0))
    view.add_item(button(kind, route.table_id, REPLAY, tr(lang, "Next ▶"), counter=counter,
                         arg=f"{whose}{step + 1}", disabled=step >= len(moves)))
    other = EXPERTS if whose == YOURS else YOURS
    view.add_item(button(kind, route.table_id, REPLAY,
                         tr(lang, "Replay the expert's game") if other == EXPERTS
                         else tr(lang, "Replay your game"), counter=counter, arg=f"{other}0"))
    await update_clicked(interaction, content=text, embed=embed, view=view)


async def _move(controller: TableController, interaction: discord.Interaction, route: Route,
                values: Sequence[str], lang: str) -> None:
    service = service_of(controller)
    kind = controller.game.kind
    day = _day_of_number(route.table_id)
    attempt = await service.store.daily.attempt(kind, day.isoformat(), interaction.user.id)
    known = await service.store.daily.known_day(kind, day.isoformat())
    if (attempt is None or known is None or attempt.finished
            or attempt.move_count != route.counter or len(values) != 1
            or not values[0].isdigit()):
        await _current(controller, interaction, route, lang, notice=tr(lang, STALE))
        return
    game = DailyGame.replay(controller.game, day, bytes.fromhex(known.secret), attempt.name,
                            attempt.moves)
    legal = list(game.engine.legal_moves(PERSON))
    index = int(values[0])
    if not game.my_turn or index >= len(legal):
        await _current(controller, interaction, route, lang, notice=tr(lang, STALE))
        return
    try:
        daily = await service.play(controller.game, interaction.user.id, day, legal[index])
    except (DailyMovedError, DailyOverError):
        await _current(controller, interaction, route, lang, notice=tr(lang, STALE))
        return
    try:
        content, embed, view = await _draw(controller, daily, lang)
        await update_clicked(interaction, content=content, embed=embed, view=view)
    except Exception as exc:
        # the move is stored: the person must not be told that nothing changed
        raise UnansweredChange(f"daily {day}: the answer to a move failed",
                               told=MOVE_MADE) from exc


async def send_export(controller: TableController, interaction: discord.Interaction) -> None:
    """Your latest daily whose day is over, as its public record (JSON), privately: what
    ``python -m bot.verify`` checks."""
    lang = user_lang(interaction)
    async with in_time(interaction, update=False):
        service = service_of(controller)
        await service.settle()
        kind = controller.game.kind
        today = service.today().isoformat()
        days = [d for d in await service.store.daily.played_days(kind, interaction.user.id)
                if d < today]
        if not days:
            raise UserFacingError("You have no daily whose day is over yet: a daily's record "
                                  "is out the day after it is played.")
        day = date.fromisoformat(days[-1])
        attempt = await service.store.daily.attempt(kind, day.isoformat(), interaction.user.id)
        known = await service.revealed(kind, day)
        assert attempt is not None and known is not None
        record = daily_record(controller.game, day, bytes.fromhex(known.secret), attempt.name,
                              attempt.moves)
        data = json.dumps([record], ensure_ascii=False, separators=(",", ":")).encode()
        text = tr(lang, "Your {game} daily of {day} as its public record. Anyone can check it: "
                        "`python -m bot.verify {file}`", game=controller.game.name,
                  day=day.isoformat(), file=f"{kind}-daily-{day.isoformat()}.json")
        file = data_file(data, f"{kind}-daily-{day.isoformat()}.json")
        await send(interaction, view=files_layout(text, [file]), file=file)


async def set_hidden(controller: TableController, interaction: discord.Interaction,
                     hidden: bool) -> None:
    """``/… daily hide:``: leave every daily board (every game's, every server's), or come
    back; the person's dailies and results stay as they are."""
    lang = user_lang(interaction)
    async with in_time(interaction, update=False):
        service = service_of(controller)
        await service.store.daily.set_hidden(interaction.user.id, hidden, service.now())
        text = (tr(lang, "You are hidden from every daily board now, on every server. Your "
                         "dailies still count for you.") if hidden
                else tr(lang, "You are on the daily boards again."))
        await _send(interaction, content=text)


def commands(controller: TableController) -> list[SharedCommand]:
    @app_commands.rename(export=cmd("export"), board=cmd("board"),
                         everywhere=cmd("everywhere"), hide=cmd("hide"))
    @app_commands.describe(export=cmd("Attach your latest daily whose day is over, to check "
                                       "it (JSON)"),
                           board=cmd("Show this server's board of the dailies instead"),
                           everywhere=cmd("Show the board across every server that shares "
                                          "its boards"),
                           hide=cmd("Hide yourself from every daily board (False: show you "
                                    "again)"))
    @app_commands.choices(board=[app_commands.Choice(name=cmd(SPANS[v]), value=v)
                                 for v in SPANS])
    async def daily(interaction: discord.Interaction, export: bool = False,
                    board: app_commands.Choice[str] | None = None, everywhere: bool = False,
                    hide: bool | None = None) -> None:
        if hide is not None:
            await set_hidden(controller, interaction, hide)
        elif board is not None or everywhere:
            await show_board(controller, service_of(controller), interaction,
                             board.value if board else "today", everywhere)
        elif export:
            await send_export(controller, interaction)
        else:
            await start(controller, interaction)

    return [SharedCommand(cmd("daily"), daily,
                          cmd("Today's deal, the same for all: beat the expert (only you see "
                              "it)"))]
