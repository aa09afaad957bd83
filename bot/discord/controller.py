"""A game's tables on Discord through their life: read, drawn, published and closed.

The rooms (``bot.discord.features``: the lobby, hands, moves, history, the coach, the
leaderboards) answer people and change tables through the table service; each hands the table
it changed to its game's ``TableController``, which draws it with the game's face
(``bot.discord.face``) and publishes it, refreshing the open hand panel of whoever is to move
(``bot.discord.panels``).

Languages: what only the user sees (answers, panels, replays) is in the user's Discord language;
the public table is in the table's language, fixed when its lobby opened (the server's setting,
else the server's preferred locale).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import discord

from bot.cardart import CardImage
from bot.discord.answers import user_lang
from bot.discord.common import (
    LobbySeat,
    button,
    closed_embed,
    fit,
    lobby_embed,
    lobby_view,
    seated_names,
    shown_name,
)
from bot.discord.errors import UnansweredChange, UserFacingError
from bot.discord.face import GameFace
from bot.discord.panels import HandPanels
from bot.discord.pictures import show_in
from bot.discord.publisher import TablePublisher
from bot.discord.ratings import rated_seats, rating_notes
from bot.discord.reach import place_of
from bot.discord.routing import Route
from bot.discord.rows import Rows
from bot.discord.showing import Draw, Hook, Showing, TableRender
from bot.gamekit.contract import Engine, GameSpec
from bot.i18n import DEFAULT, lang_of, tr
from bot.storage import MoveRecord
from bot.table import TableService
from bot.table.computers import SearchPool, game_levels
from bot.table.errors import NoTableError
from bot.table.fairdeal import deals_from, shown_links
from bot.table.priority import PeopleFirst
from bot.table.service import (
    ABANDONED,
    EMPTY,
    IDLE,
    LOBBY_TTL_SECONDS,
    ROUND_PLAYED,
    STOPPED,
    ApplyResult,
    TableSnapshot,
)
from bot.table.settings import GameDefaults, SettingsService, rated

RECENT_LINES = 6

OnChange = Callable[[TableSnapshot], None]
"""Told about every table the controller shows (timers re-arm, computers look for their turn)."""
PlaysOn = Callable[[int], bool]
"""Whether a table (by id) plays on with only computer players left: an event's tables do,
since their results count in the event's standings."""
HistoryExtra = Callable[[int, str], Awaitable[str | None]]
"""More for a game's history, in a language: ``(guild_id, lang) -> text`` (its events)."""


def closed_text(note: Mapping[str, Any] | None, lang: str) -> str:
    """How a closed table says why it closed (the note is stored, so it reads the same after a
    restart)."""
    why = (note or {}).get("why")
    if why == STOPPED:
        by = shown_name(str((note or {}).get("by")))
        if (note or {}).get("lobby"):
            return tr(lang, "The lobby was closed by {name}.", name=by)
        return tr(lang, "The game was stopped by {name}.", name=by)
    if why == IDLE:
        return tr(lang, "The lobby closed: the game did not start within {minutes} minutes.",
                  minutes=LOBBY_TTL_SECONDS // 60)
    if why == ABANDONED:
        return tr(lang, "Nobody but computer players was left at the table, so the game ended.")
    if why == EMPTY:
        return tr(lang, "The lobby closed: nobody is left.")
    if why == ROUND_PLAYED:
        return tr(lang, "This table has played its hands for the event's round.")
    return tr(lang, "The table closed.")


_log = logging.getLogger(__name__)


class TableController:
    """One game's tables on Discord: ``game`` is its spec, ``face`` how it looks."""

    def __init__(self, service: TableService, publisher: TablePublisher, game: GameSpec,
                 face: GameFace[TableController], settings: SettingsService, *,
                 on_change: OnChange | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 people: PeopleFirst | None = None, pool: SearchPool | None = None) -> None:
        self.service = service
        self.pool = pool
        """Where hints and reviews search (issue 34); ``None``: this bot gives none."""
        self.people = people or PeopleFirst()
        """Whose heavy step goes next (``PeopleFirst.step``): drawing a panel or a table."""
        self.publisher = publisher
        self.settings = settings
        self.game = game
        self.face = face
        self.on_change = on_change
        self._clock = clock
        self._recent: dict[int, deque[str]] = {}
        self._fair: dict[int, tuple[tuple[int, bool, str], str]] = {}
        """Table → its fair-deal lines as last drawn, with what they stand for (hands dealt,
        over, language): the same until a hand ends, and each working out costs the hands'
        HMACs (``_fair_deal``)."""
        self.plays_on: PlaysOn = lambda table_id: False
        self.history_extra: HistoryExtra | None = None
        self.panels = HandPanels(service, settings, game, face, self.people, clock, pool)
        self.launch = False
        """Whether its tables and lobbies offer **Play in an Activity** (the Activity is
        configured: ``bot.activity``)."""

    # -- reading the table ---------------------------------------------------------------------

    async def table_for(self, interaction: discord.Interaction, route: Route | None = None
                        ) -> TableSnapshot:
        """The channel's table of this game; for a component, the very table it was drawn for."""
        if interaction.channel_id is None or place_of(interaction) is None:
            raise UserFacingError("Games are played in server channels.")
        # what is done with the table read here (a panel drawn, a move applied) runs without
        # awaiting: its step of the loop comes first (issue 16)
        await self.people.step()
        snapshot = await self.service.get(interaction.channel_id)
        if snapshot is None or snapshot.kind != self.game.kind:
            if route is not None:
                raise UserFacingError("That game is over, so this button does nothing now.")
            raise UserFacingError("There is no {game} game in this channel. Start one with "
                                  "`/{command} start`.", game=self.game.name,
                                  command=self.game.kind)
        if route is not None and route.table_id != snapshot.table_id:
            raise UserFacingError("That button belongs to an earlier game in this channel.")
        return snapshot

    @staticmethod
    def names(snapshot: TableSnapshot) -> dict[int, str]:
        """Everyone who sat at the table as it names them (``seated_names``)."""
        return seated_names(snapshot)

    @staticmethod
    def table_lang(snapshot: TableSnapshot) -> str:
        return lang_of(snapshot.locale or DEFAULT)

    async def recent_lines(self, snapshot: TableSnapshot) -> list[str]:
        lines = self._recent.get(snapshot.table_id)
        if lines is None:
            # after a restart the latest lines come back from the move log: those of the
            # round in play (an earlier round's cards were dealt again)
            records = await self.service.moves(snapshot.table_id)
            lines = deque(self._lines_of(snapshot, records), maxlen=RECENT_LINES)
            self._recent[snapshot.table_id] = lines
        return list(lines)

    def _lines_of(self, snapshot: TableSnapshot, records: Sequence[MoveRecord]) -> list[str]:
        return self.latest_lines(records, self.names(snapshot), self.table_lang(snapshot))

    def latest_lines(self, records: Sequence[MoveRecord], names: Mapping[int, str],
                     lang: str) -> list[str]:
        """The latest lines of a table's move log ``records`` (its last ``RECENT_LINES * 2``
        moves suffice): those of the round in play (an earlier round's cards were dealt
        again), in ``lang``."""
        public = [[self.game.events.public(e) for e in r.events] for r in records]
        start = max((i for i, events in enumerate(public)
                     if any(self.face.starts_round(e) for e in events)), default=0)
        lines: list[str] = []
        for events in public[max(start, len(public) - RECENT_LINES * 2):]:
            lines += self.face.describe(events, names, lang)
        return lines[-RECENT_LINES:]

    def remember(self, snapshot: TableSnapshot, events: Sequence[Any], *,
                 opening: bool = False) -> None:
        """Add what ``events`` did to the table's latest lines, in the table's language;
        ``opening``: they are the start's, the whole of the table's move log."""
        lines = self._recent.get(snapshot.table_id)
        if lines is None:
            if not opening:
                # not read back since a restart: the move log already holds these events, and
                # the next render reads them from there
                return
            # nothing to read back: the start's first drawing needs no read of the move log (a
            # thousand tables started at once, issue 49)
            lines = self._recent[snapshot.table_id] = deque(maxlen=RECENT_LINES)
        codec = self.game.events
        public = [codec.public(codec.to_dict(e)) for e in events]
        if any(self.face.starts_round(e) for e in public):
            lines.clear()
        lines.extend(self.face.describe(public, self.names(snapshot), self.table_lang(snapshot)))

    def lobby_render(self, snapshot: TableSnapshot) -> TableRender:
        lang = self.table_lang(snapshot)
        embed = lobby_embed(
            title=self.game.name,
            options_line=self.face.options_line(snapshot.options, len(snapshot.seats), lang)
            + ("" if rated(snapshot) else " · " + tr(lang, "not rated")),
            seats=[LobbySeat(s.player_id, s.name, s.is_computer) for s in snapshot.seats],
            host_id=snapshot.host_id,
            min_players=self.game.min_players,
            max_players=self.game.max_players,
            expires_at=snapshot.lobby_expires_at,
            lang=lang,
            turn_seconds=snapshot.turn_seconds,
        )
        view = lobby_view(self.game.kind, snapshot.table_id, lang, game_levels(self.game))
        return TableRender(embed=embed, view=self._with_launch(view, snapshot, lang))

    def _with_launch(self, view: Rows | None, snapshot: TableSnapshot, lang: str
                     ) -> Rows | None:
        """``view`` with **Play in an Activity** (``bot.discord.activity``) when it is
        offered: on a lobby and a game in play, never on a table that is over, nor in a
        thread (an event's tables are all in threads), where Discord launches no Activity: it
        refuses the button's answer there (``bot.discord.activity.launch`` answers an old
        button)."""
        if (self.launch and view is not None
                and not self.publisher.in_thread(snapshot.guild_id, snapshot.channel_id)):
            view.add_item(button(self.game.kind, snapshot.table_id, "activity",
                                 tr(lang, "Play in an Activity"), discord.ButtonStyle.primary))
        return view

    async def drawing(self, snapshot: TableSnapshot) -> tuple[int | None, Draw]:
        """The person to move in ``snapshot`` (``None``: a computer, or nobody) and how to draw
        its table. Everything the drawing needs is taken now, the public view included, so it
        may be drawn later (only if its write goes out) and still show this version."""
        if snapshot.is_lobby:
            return None, lambda: self.lobby_render(snapshot)
        pictures = (await self.settings.server(snapshot.guild_id)).cards == "pictures"
        recent = await self.recent_lines(snapshot)
        finished = snapshot.status == "finished"
        # the table itself cannot know the money it moved; the ledger does
        money = await self.money(snapshot) if finished else None
        lang = self.table_lang(snapshot)
        ratings = (await rating_notes(self.service.store, snapshot.table_id, lang)
                   if finished else {})
        # the engine is shared: from here on, read it without awaiting
        engine = snapshot.engine
        assert engine is not None
        names = self.names(snapshot)
        view = engine.public_view()
        plain = dict(engine.names) if pictures else {}
        summary = (self.face.summary(snapshot, names, money, lang)
                   if finished and self.game.stakes else None)
        person = engine.to_move
        to_move = None if finished or person is None or person < 0 else person
        fair = self._fair_deal(snapshot, engine, lang)
        frozen = replace(snapshot, engine=None)

        @cache
        def picture() -> CardImage | None:
            return self.face.table_picture(frozen, view, plain, lang) if pictures else None

        def draw() -> TableRender:
            # a new render at each call, since a sent one's view is emptied; the picture,
            # the costly part, is drawn once
            render = self.face.table_render(frozen, view, recent, names, lang)
            if summary is not None:
                render.embed.add_field(name=tr(lang, "How it went"), value=summary,
                                       inline=False)
            render = rated_seats(render, self.game.kind, frozen.table_id, ratings, names, money,
                                 lang)
            if fair:
                render.embed.add_field(name=tr(lang, "Fair deal"), value=fair, inline=False)
            if finished:
                render = replace(render, view=self._over_view(frozen.table_id, lang))
            else:
                render = replace(render, view=self._with_launch(render.view, frozen, lang))
            embed = fit(render.embed)
            image = picture()
            if image is not None:
                return replace(render, embed=show_in(embed, image), image=image)
            return replace(render, embed=embed)

        return to_move, draw

    def _fair_deal(self, snapshot: TableSnapshot, engine: Engine, lang: str) -> str:
        """The commitment to the hand in play or next to be dealt, shown before its first card
        is, and the key of the hand last over (docs/fair-deals.md); nothing for old tables.
        Worked out again only when a hand ended (or the language changed): a table is drawn
        at every move (issue 44)."""
        stands_for = (engine.deals_done, engine.is_over, lang)
        kept = self._fair.get(snapshot.table_id)
        if kept is not None and kept[0] == stands_for:
            return kept[1]
        text = self._fair_lines(snapshot, engine, lang)
        self._fair[snapshot.table_id] = (stands_for, text)
        return text

    @staticmethod
    def _fair_lines(snapshot: TableSnapshot, engine: Engine, lang: str) -> str:
        deals = deals_from(snapshot.deals)
        if deals is None:
            return ""
        over, coming = shown_links(deals, engine)
        lines = []
        if over is not None:
            lines.append(tr(lang, "Hand {hand} is over; its secret: `{key}`", hand=over.hand,
                            key=over.key))
        if coming is not None:
            lines.append(tr(lang, "Hand {hand}'s deal is committed to: `{commitment}`",
                            hand=coming.hand, commitment=coming.commitment))
        return "\n".join(lines)

    def _over_view(self, table_id: int, lang: str) -> Rows:
        view = Rows()
        view.add_item(button(self.game.kind, table_id, "again", tr(lang, "Play again"),
                             discord.ButtonStyle.success))
        view.add_item(button(self.game.kind, table_id, "replay", tr(lang, "Replay"),
                             counter=0))
        if self.game.search is not None and self.pool is not None:
            # issue 34: each player's own review, privately
            view.add_item(button(self.game.kind, table_id, "review", tr(lang, "Review")))
        return view

    async def showing(self, snapshot: TableSnapshot, draw: Draw,
                      to_move: int | None = None,
                      via: discord.Interaction | None = None) -> Showing:
        """``snapshot`` for the publisher, drawn by ``draw``, pinging the person ``to_move``
        unless they (or their server) turned pings off; ``via`` is the interaction it answers,
        whose webhook the table's next post may go through (``Hook``)."""
        ping = (to_move if to_move is not None
                and await self.settings.pings(snapshot.guild_id, to_move) else None)
        only = self.publisher.interaction_only(snapshot.guild_id, snapshot.channel_id)
        asleep_note = tr(self.table_lang(snapshot), "⏸ Nobody has pressed a button here for "
                         "a while, so this table cannot update itself. Press any of its "
                         "buttons to bring it up to date.") if only else None
        return Showing(
            table_id=snapshot.table_id, channel_id=snapshot.channel_id,
            message_id=snapshot.message_id, version=snapshot.version, counter=snapshot.counter,
            draw=draw, place_id=snapshot.guild_id, to_move=to_move, ping=ping,
            pinged=snapshot.pinged,
            final=snapshot.status not in ("lobby", "playing"),
            behind=snapshot.shown_version != snapshot.version,
            hook=None if via is None else Hook.of(via), message_webhook=snapshot.message_webhook,
            strays_from=snapshot.strays_from, message_token=snapshot.message_token,
            interaction_only=only, asleep_note=asleep_note,
        )

    async def publish(self, snapshot: TableSnapshot,
                      via: discord.Interaction | None = None) -> None:
        """Show ``snapshot`` on its table; ``via``: the person's interaction it answers."""
        if (snapshot.is_playing and all(s.is_computer for s in snapshot.seats)
                and not self.plays_on(snapshot.table_id)):
            # issue 8: a table with no person left ends instead of playing on among computers
            await self._end_abandoned(snapshot)
            return
        if snapshot.status == "cancelled":
            await self.close_table(snapshot, via)
            return
        try:
            await self._show(snapshot, via)
        finally:
            self._shown(snapshot)

    def _shown(self, snapshot: TableSnapshot) -> None:
        """What follows a change's showing, whatever became of it: the change is made, so the
        turn's timer, a computer to move, an event and the Activity learn of it. A drawing or
        a database read that failed must not leave a computer that never moves."""
        if snapshot.status not in ("lobby", "playing"):
            self._drop_table(snapshot.table_id)
        self.changed(snapshot)

    async def _show(self, snapshot: TableSnapshot, via: discord.Interaction | None) -> None:
        to_move, draw = await self.drawing(snapshot)
        showing = await self.showing(snapshot, draw, to_move, via)
        # a person who is playing learns of their turn from their panel, which the refresh
        # below edits: no post and delete to ping them, unless they look away (PING_AFTER)
        quiet = (to_move is not None and showing.ping is not None
                 and self.panels.playing(snapshot.table_id, to_move))
        if quiet:
            assert to_move is not None
            # the panel first: under load a table write could land before the panel's, and a
            # person looking at the table would see their turn there with neither a ping nor
            # their panel telling them (issue 32); if the panel cannot say it, the table pings
            announced = await self.panels.refresh(snapshot, to_move)
            self.publisher.publish(replace(showing, quiet=True) if announced else showing)
        else:
            self.publisher.publish(showing)
            if to_move is not None:
                await self.panels.refresh(snapshot, to_move)

    @contextlib.asynccontextmanager
    async def shown_after(self, snapshot: TableSnapshot, via: discord.Interaction
                          ) -> AsyncIterator[None]:
        """Publish ``snapshot``, a change ``via`` made, once the block has answered ``via``'s
        person, and also when the answer fails (``UnansweredChange``): the change is made, and
        the table must show it and play go on — computers and turn timers wait for it. An
        answer fails when it comes after Discord's 3 seconds on an overloaded bot, or when
        Discord errs; the table is then not written through that interaction's token. A
        showing that fails is logged: the person has their answer (or is told that what they
        did went through), and the next change shows the table."""
        try:
            yield
        except Exception as exc:
            await self._publish_logged(snapshot, None)
            raise UnansweredChange(f"table {snapshot.table_id}: the answer failed") from exc
        await self._publish_logged(snapshot, via)

    async def _publish_logged(self, snapshot: TableSnapshot,
                              via: discord.Interaction | None) -> None:
        try:
            await self.publish(snapshot, via)
        except Exception:
            _log.exception("table %d: could not show move %d", snapshot.table_id,
                           snapshot.counter)

    async def bring_up_to_date(self, snapshot: TableSnapshot,
                               interaction: discord.Interaction) -> None:
        """Where only interactions write the table (``bot.discord.reach``), a click that
        changed nothing there (Your hand) still writes it through its own token: what happened
        while nobody's token was good (a turn timer's move, a computer's) shows, and the
        table no longer says it waits."""
        if snapshot.status in ("lobby", "playing") and self.publisher.interaction_only(
                snapshot.guild_id, snapshot.channel_id):
            await self.publish(snapshot, via=interaction)

    async def show_automatic(self, result: ApplyResult) -> None:
        """Show a move the bot made for someone: a computer player's, or a turn timer's."""
        self.remember(result.snapshot, result.events)
        await self.publish(result.snapshot)

    async def close_table(self, snapshot: TableSnapshot,
                          via: discord.Interaction | None = None) -> None:
        """Show a table that was stopped or closed itself (its ``closed_note`` says how), with
        its latest lines, and — if it had started — how it went and Play again."""
        try:
            await self._show_closed(snapshot, via)
        finally:
            self._shown(snapshot)

    async def _show_closed(self, snapshot: TableSnapshot,
                           via: discord.Interaction | None) -> None:
        lang = self.table_lang(snapshot)
        embed = closed_embed(tr(lang, "{game} — closed", game=self.game.name),
                             closed_text(snapshot.closed_note, lang))
        started = snapshot.engine is not None
        seats = None
        if started:
            lines = await self.recent_lines(snapshot)
            if lines:
                embed.add_field(name=tr(lang, "Latest"), value="\n".join(lines), inline=False)
            money = await self.money(snapshot)
            embed.add_field(name=tr(lang, "How it went"),
                            value=self.face.summary(snapshot, self.names(snapshot), money, lang),
                            inline=False)
            ratings = await rating_notes(self.service.store, snapshot.table_id, lang)
            seats = rated_seats(TableRender(embed=embed, view=None), self.game.kind,
                                snapshot.table_id, ratings, self.names(snapshot), money,
                                lang).seats
        embed = fit(embed)

        def draw() -> TableRender:
            view = self._over_view(snapshot.table_id, lang) if started else None
            return TableRender(embed=embed, view=view, seats=seats)

        self.publisher.publish(await self.showing(snapshot, draw, via=via))

    async def money(self, snapshot: TableSnapshot) -> dict[int, int] | None:
        """Each player's net at a table played for stakes (the ledger knows it), else ``None``."""
        if not self.game.stakes:
            return None
        balances = await self.service.balances(snapshot.guild_id, self.game.kind,
                                               snapshot.table_id)
        return {b.player_id: b.net for b in balances}

    async def redraw(self, snapshot: TableSnapshot) -> None:
        """Show a table as it stands, live or long over (a start-up catching up)."""
        await self.publish(snapshot)

    async def _end_abandoned(self, snapshot: TableSnapshot) -> None:
        await self.recent_lines(snapshot)
        try:
            closed = await self.service.cancel(snapshot.channel_id, snapshot.host_id, True,
                                               note={"why": ABANDONED})
        except NoTableError:
            return
        await self.close_table(closed)

    def _drop_table(self, table_id: int) -> None:
        """Forget what is kept in memory for a table that has closed."""
        self._recent.pop(table_id, None)
        self._fair.pop(table_id, None)
        self.panels.drop_table(table_id)

    def changed(self, snapshot: TableSnapshot) -> None:
        """Tell ``on_change`` about a table shown."""
        if self.on_change is not None:
            self.on_change(snapshot)

    async def defaults(self, guild_id: int) -> GameDefaults:
        """This game's defaults as the server set them (turn time, options)."""
        return (await self.settings.server(guild_id)).games.get(self.game.kind, GameDefaults())

    async def channel_lang(self, interaction: discord.Interaction) -> str:
        """The language a new table's public messages use: the server's setting, else the
        server's preferred locale, else English; in a DM or group DM the language of whoever
        opened it."""
        place = place_of(interaction)
        assert place is not None
        chosen = (await self.settings.server(place)).language
        return lang_of(chosen or interaction.guild_locale or interaction.locale.value or DEFAULT)

    async def repost(self, interaction: discord.Interaction) -> None:
        """Post the channel's table again at the bottom of the channel."""
        snapshot = await self.table_for(interaction)
        await interaction.response.send_message(tr(user_lang(interaction),
                                                   "The table is below."), ephemeral=True)
        to_move, draw = await self.drawing(snapshot)
        await self.publisher.post_new(replace(await self.showing(snapshot, draw, to_move,
                                                                 interaction), ping=None),
                                      repost=True)


def load_face(spec: GameSpec) -> GameFace[TableController]:
    """The face ``spec.face`` names (``"package.module:attribute"``): how a game's controller
    draws its tables, and the components and commands that act through it."""
    module_name, _, attribute = spec.face.partition(":")
    face: GameFace[TableController] = getattr(importlib.import_module(module_name), attribute)
    return face
