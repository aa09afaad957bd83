"""The flow every game shares on Discord: lobby, table message, hand panel, moves, errors, play
again, history and replays.

A game's command group hands an interaction and (for moves) an engine move to its
``TableController``; the controller calls the table service, answers the interaction (always,
within the deadline) and publishes the new table. What differs per game — how a table, a hand
panel and events look, its own components and commands — is the game's ``GameFace``, which
``GameSpec.face`` names and ``load_face`` loads.

Languages: what only the user sees (answers, panels, replays) is in the user's Discord language;
the public table is in the table's language, fixed when its lobby opened (the server's setting,
else the server's preferred locale).
"""

from __future__ import annotations

import importlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Protocol

import discord
from discord.ext import commands
from discord.http import Route as HttpRoute
from discord.webhook.async_ import (
    async_context,
    handle_message_parameters,
    interaction_message_response_params,
)

from bot.cardart import CardImage
from bot.cardart.chart import HEIGHT, WIDTH, line_chart
from bot.discord import checks
from bot.discord.common import (
    FINISHED_COLOUR,
    LobbySeat,
    button,
    closed_embed,
    cut,
    fit,
    labelled,
    level_text,
    lobby_embed,
    lobby_view,
    shown_name,
)
from bot.discord.cycles import empty_view
from bot.discord.deadline import answering, in_time
from bot.discord.errors import UserFacingError
from bot.discord.pictures import attachment, show_in
from bot.discord.publisher import Draw, Hook, Showing, TablePublisher, TableRender
from bot.discord.ratings import profile, result_text, top_embed
from bot.discord.routing import Handler, Route, RoutedSelect, Router
from bot.gamekit.contract import Engine, GameSpec, Seat
from bot.gamekit.search import Budget, Decision
from bot.i18n import DEFAULT, N_, join, lang_of, tr
from bot.storage import MoveRecord, SeatInfo, TableRecord
from bot.table import TableService
from bot.table.computers import (
    DEFAULT_LEVEL,
    SearchPool,
    advise,
    computer_label,
    free_computer,
    game_levels,
    level_name,
)
from bot.table.errors import NoTableError, StaleMoveError
from bot.table.fairdeal import deals_from, deals_of, engine_from_start, links
from bot.table.priority import PeopleFirst
from bot.table.review import Position, Weighed, positions, review_job, run_review
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

_log = logging.getLogger(__name__)

RECENT_LINES = 6
LATE_SECONDS = 1.5
"""An interaction this old before its write is acknowledged first (``defer_if_late``)."""
HISTORY_PAGE = 5
PLAYING_SECONDS = 60.0
"""A person answered at a table this recently is playing: when the turn comes back to them,
their open hand panel announcing it tells them, and the table pings them only if they do not
act within ``bot.discord.publisher.PING_AFTER`` (issue 32)."""
PANEL_FRESH_SECONDS = 14 * 60
REVIEW_SECONDS = 2.0
"""The CPU cap of each decision's search in a review: far above what its rollouts take, so
that a review comes out the same even on a loaded machine."""
COSTLY = 0.01
"""A decision costs something when the best move found beats it by more than this (a 1% chance
of losing, a hundredth of a chip)."""
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description."""
"""A panel is refreshed when the turn comes back to its player while Discord still lets the
bot edit it (15 minutes after the interaction that showed it; a minute is kept in hand)."""

ORIGINAL: Any = "@original"
"""The message id that names an interaction's original answer on its follow-up webhook
(Discord's "Edit Original Interaction Response" is that route with ``@original``)."""

STALE_PANEL_NOTICE = N_("⚠️ The table moved on since this was shown. Here is where things "
                        "stand now.")
RETIRED_PANEL = N_("This panel is out of date: your newer one is further down. (**Your hand** "
                   "on the table opens it again.)")
"""What a panel says once a newer one has opened: it offers no moves any more, so only one of a
player's panels at a table ever looks ready for their move (issue 36)."""

OnChange = Callable[[TableSnapshot], None]
"""Told about every table the controller shows (timers re-arm, computers look for their turn)."""
PlaysOn = Callable[[int], bool]
"""Whether a table (by id) plays on with only computer players left: an event's tables do,
since their results count in the event's standings."""
HistoryExtra = Callable[[int, str], Awaitable[str | None]]
"""More for a game's history, in a language: ``(guild_id, lang) -> text`` (its events)."""


@dataclass(frozen=True)
class Panel:
    """A private hand panel: its text, its components, and a picture of the hand for players
    who see cards as pictures."""

    content: str
    view: discord.ui.View
    image: CardImage | None = None


class GameFace(Protocol):
    """How one game shows itself on Discord, in a given language. Faces only read views; they
    change nothing."""

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

    def move_text(self, engine: Any, player_id: int, move: Any, lang: str) -> str:
        """One of ``player_id``'s moves in ``engine`` (the game as it was then) in a few words,
        as their hand panel names it (hints, reviews): only what that player may see."""
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

    def routes(self, controller: TableController) -> Mapping[str, Handler]:
        """The game's own components, by action (the shared ones are the controller's)."""
        ...

    def cog(self, bot: commands.Bot, controller: TableController) -> commands.Cog:
        """The game's command group."""
        ...


def load_face(spec: GameSpec) -> GameFace:
    """The face ``spec.face`` names (``"package.module:attribute"``)."""
    module_name, _, attribute = spec.face.partition(":")
    face: GameFace = getattr(importlib.import_module(module_name), attribute)
    return face


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


def user_lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale)


def on_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether a component sits on a private hand panel (answered by editing it in place)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _pictured(image: CardImage | None, shown: CardImage | None) -> dict[str, Any]:
    """The ``attachments`` of an edit that makes a message show ``image`` where it shows
    ``shown`` (``None``: no picture, or not known): none at all keeps the message's file, so
    an unchanged picture is neither encoded into the request nor uploaded again."""
    if image is not None and image == shown:
        return {}
    return {"attachments": [attachment(image)] if image else []}


async def _edit_answer(webhook: discord.Webhook, *, view: discord.ui.View | None,
                       **fields: Any) -> None:
    """Edit an interaction's answer (a hand panel) through the interaction's webhook, straight
    through discord.py's webhook adapter: the message Discord sends back is not needed, and
    ``Webhook.edit_message`` would build a ``WebhookMessage`` of it and store the view, which
    the routed components (``DynamicItem``) do not need (issue 16, as the table's writes)."""
    assert webhook.token is not None
    with handle_message_parameters(view=view, **fields) as params:
        empty_view(view)
        await async_context.get().edit_webhook_message(
            webhook.id, webhook.token, ORIGINAL, session=webhook.session, proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth, payload=params.payload, multipart=params.multipart,
            files=params.files, with_components=view is not None)


async def _update_panel(interaction: discord.Interaction, *, view: discord.ui.View | None,
                        **fields: Any) -> None:
    """Answer a click on a private panel by editing that panel (``UPDATE_MESSAGE``) without
    asking Discord for the message back. ``InteractionResponse.edit_message`` always asks
    (``with_response``) and builds a ``Message`` of the answer, which nothing here reads: about
    3% of the bot's CPU under load (issue 16). Discord answers such a callback with 204."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    webhook = interaction.followup  # the interaction's session, as discord.py's answer uses
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        view=view, previous_allowed_mentions=interaction.client.allowed_mentions, **fields)
    empty_view(view)
    route = HttpRoute("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                      webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(
        route, webhook.session, proxy=webhook.proxy, proxy_auth=webhook.proxy_auth,
        payload=None if params.files else params.payload, multipart=params.multipart,
        files=params.files)
    # what discord.py's own answer records: is_done() and type read it, so that nothing answers
    # this interaction twice (tests/unit/test_panel_answer.py pins it)
    response._response_type = discord.InteractionResponseType.message_update


async def _answer_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool,
                        shown: CardImage | None = None) -> int | None:
    """Show a hand panel: in place when the interaction came from the user's own private panel
    (which shows the picture ``shown``, when known), else as a new private message — never on a
    public message, whatever the component. Its picture rides on the same answer. Returns the
    panel's message id when it was edited in place."""
    async with answering(interaction):
        return await _send_panel(interaction, panel, edit=edit, shown=shown)


async def _send_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool,
                      shown: CardImage | None) -> int | None:
    content = cut(panel.content, 2000)
    if edit and on_ephemeral(interaction):
        assert interaction.message is not None
        if interaction.response.is_done():
            # acknowledged late (``bot.discord.deadline``): edited through the webhook
            await _edit_answer(interaction.followup, content=content, embed=None,
                               view=panel.view, **_pictured(panel.image, shown))
        else:
            await _update_panel(interaction, content=content, embed=None, view=panel.view,
                                **_pictured(panel.image, shown))
        return interaction.message.id
    if interaction.response.is_done():
        # "thinking…" (``bot.discord.deadline``): the panel replaces it
        await interaction.edit_original_response(
            content=content, view=panel.view,
            attachments=[attachment(panel.image)] if panel.image is not None else [])
        return None
    if panel.image is not None:
        await interaction.response.send_message(content, view=panel.view, ephemeral=True,
                                                file=attachment(panel.image))
    else:
        await interaction.response.send_message(content, view=panel.view, ephemeral=True)
    return None


async def defer_if_late(interaction: discord.Interaction) -> None:
    """Acknowledge now (Discord shows "thinking…") when the interaction has waited so long that
    the database write still to come might miss Discord's 3-second deadline — a busy bot, a
    slow disk. An interaction in time costs no extra request."""
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if waited > LATE_SECONDS and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


def may_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_messages)


def display_name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name


@dataclass
class _OpenPanel:
    """The answer that last showed a player their panel (Discord lets the bot edit it for 15
    minutes) and the language it was shown in.

    The interaction itself is not kept, only its follow-up webhook (the application's id and
    the interaction's token): an interaction holds its whole payload in reference cycles that
    only a full garbage collection frees, and one kept per player for minutes made those
    collections stall the loop for 100 ms under load (issue 16)."""

    webhook: discord.Webhook
    mentions: discord.AllowedMentions | None
    """The client's allowed mentions, which discord.py sends with every edit."""
    lang: str
    shown_at: float
    image: CardImage | None
    """The picture the interaction's answer shows now (``None``: none, or not known)."""
    message_id: int | None
    """That answer's message, when it is known (a panel edited in place)."""
    counter: int = -1
    """The table's move counter the panel was drawn at: a panel drawn at the table's latest
    move already shows it ready for the player's move, with its own notice (the answer to that
    move), which a refresh for the same move must not overwrite (issue 36)."""


class _PanelEdits:
    """Edits of each player's panels in flight. What a panel shows is known only after an edit
    that overlapped no other: two edits in flight may land in either order."""

    def __init__(self) -> None:
        self._open: dict[tuple[int, int], list[int]] = {}
        """Per table and player: edits in flight, edits begun."""

    def begin(self, key: tuple[int, int]) -> tuple[int, bool]:
        """Start an edit: its token, and whether it is alone."""
        entry = self._open.setdefault(key, [0, 0])
        alone = entry[0] == 0
        entry[0] += 1
        entry[1] += 1
        return entry[1], alone

    def end(self, key: tuple[int, int], token: tuple[int, bool]) -> bool:
        """Whether the edit that began with ``token`` was alone from start to end."""
        entry = self._open[key]
        entry[0] -= 1
        clean = token[1] and entry[1] == token[0]
        if entry[0] == 0:
            del self._open[key]
        return clean


class TableController:
    """One game's tables on Discord: ``game`` is its spec, ``face`` how it looks."""

    def __init__(self, service: TableService, publisher: TablePublisher, game: GameSpec,
                 face: GameFace, settings: SettingsService, *,
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
        self.plays_on: PlaysOn = lambda table_id: False
        self.history_extra: HistoryExtra | None = None
        self._panels: dict[tuple[int, int], _OpenPanel] = {}
        self._panel_edits = _PanelEdits()

    # -- routing -------------------------------------------------------------------------------

    def register_routes(self, router: Router) -> None:
        """Route the components every game has (the lobby's buttons, Your hand, Play again,
        replays and history pages) to this table controller, and the game's own ones to its
        face."""

        async def join(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.join(i, route)

        async def leave(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.leave(i, route)

        async def start(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.start(i, route)

        async def cancel(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.cancel(i, route)

        async def add_computer(i: discord.Interaction, route: Route, values: list[str]
                               ) -> None:
            # the button sends no values (the default level), the lobby's menu one level
            await self.add_computer(i, route, values[0] if values else None)

        async def hand(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.show_hand(i, route, edit=on_ephemeral(i))

        async def again(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.play_again(i, route.table_id)

        async def replay(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.replay(i, route.table_id, route.counter or 0, edit=on_ephemeral(i))

        async def replay_pick(i: discord.Interaction, route: Route, values: list[str]) -> None:
            try:
                table_id = int(values[0])
            except (ValueError, IndexError):
                raise UserFacingError("That choice is not a table. Nothing was changed.") \
                    from None
            await self.replay(i, table_id, 0, edit=False)

        async def history(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.history(i, before=route.counter or None, edit=True)

        async def hint(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.hint(i, route)

        async def review(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.review(i, route.table_id)

        common: dict[str, Handler] = {
            "join": join, "leave": leave, "start": start, "cancel": cancel,
            "add_computer": add_computer, "hand": hand, "again": again, "replay": replay,
            "replay_pick": replay_pick, "history": history, "hint": hint, "review": review,
        }
        for action, handler in {**common, **self.face.routes(self)}.items():
            router.register(self.game.kind, action, handler)

    def move_button(self, move: Any) -> Handler:
        """A button that makes one fixed move, on the table or on a hand panel."""

        async def handler(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.move(i, move, route=route, from_panel=on_ephemeral(i))

        return handler

    # -- reading the table ---------------------------------------------------------------------

    async def table_for(self, interaction: discord.Interaction, route: Route | None = None
                        ) -> TableSnapshot:
        """The channel's table of this game; for a component, the very table it was drawn for."""
        if interaction.channel_id is None or interaction.guild_id is None:
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

    def names(self, snapshot: TableSnapshot) -> dict[int, str]:
        """Everyone who sat at the table as it names them, computer players as "🤖 Astrid";
        players who left a game are still named (the engine keeps them)."""
        if snapshot.engine is None:
            return labelled((s.player_id, s.name) for s in snapshot.seats)
        return labelled(snapshot.engine.names.items())

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
        public = [[self.game.events.public(e) for e in r.events] for r in records]
        start = max((i for i, events in enumerate(public)
                     if any(self.face.starts_round(e) for e in events)), default=0)
        names = self.names(snapshot)
        lang = self.table_lang(snapshot)
        lines: list[str] = []
        for events in public[max(start, len(public) - RECENT_LINES * 2):]:
            lines += self.face.describe(events, names, lang)
        return lines[-RECENT_LINES:]

    def _remember(self, snapshot: TableSnapshot, events: Sequence[Any]) -> None:
        lines = self._recent.get(snapshot.table_id)
        if lines is None:
            # not read back since a restart: the move log already holds these events, and the
            # next render reads them from there
            return
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
            + ("" if snapshot.rated else " · " + tr(lang, "not rated")),
            seats=[LobbySeat(s.player_id, s.name, s.is_computer) for s in snapshot.seats],
            host_id=snapshot.host_id,
            min_players=self.game.min_players,
            max_players=self.game.max_players,
            expires_at=snapshot.lobby_expires_at,
            lang=lang,
            turn_seconds=snapshot.turn_seconds,
        )
        return TableRender(embed=embed, view=lobby_view(self.game.kind, snapshot.table_id, lang,
                                                        game_levels(self.game)))

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
        money = await self._money(snapshot) if finished else None
        lang = self.table_lang(snapshot)
        ratings = (await result_text(self.service.store, snapshot.table_id,
                                     self.names(snapshot), lang) if finished else None)
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
            if ratings is not None:
                render.embed.add_field(name=tr(lang, "Ratings"), value=ratings, inline=False)
            if fair:
                render.embed.add_field(name=tr(lang, "Fair deal"), value=fair, inline=False)
            if finished:
                render = replace(render, view=self._over_view(frozen.table_id, lang))
            embed = fit(render.embed)
            image = picture()
            if image is not None:
                return replace(render, embed=show_in(embed, image), image=image)
            return replace(render, embed=embed)

        return to_move, draw

    @staticmethod
    def _fair_deal(snapshot: TableSnapshot, engine: Engine, lang: str) -> str:
        """The commitment to the hand in play or next to be dealt, shown before its first card
        is, and the key of the hand last over (docs/fair-deals.md); nothing for old tables."""
        deals = deals_from(snapshot.deals)
        if deals is None:
            return ""
        shown = links(deals, engine)
        lines = []
        over = [link for link in shown if link.key is not None]
        if over:
            last = over[-1]
            lines.append(tr(lang, "Hand {hand} is over; its secret: `{key}`", hand=last.hand,
                            key=last.key))
        coming = [link for link in shown if link.key is None]
        if coming:
            lines.append(tr(lang, "Hand {hand}'s deal is committed to: `{commitment}`",
                            hand=coming[0].hand, commitment=coming[0].commitment))
        return "\n".join(lines)

    async def panel(self, snapshot: TableSnapshot, player: int, lang: str, *,
                    notice: str | None, arg: str | None) -> Panel:
        """``player``'s hand panel, with a picture of the hand unless they chose text, and a
        Hint button on their turn where hints are allowed."""
        pictures = (await self.settings.person(player)).cards != "text"
        hints = await self._hint_refusal(snapshot) is None
        # the engine is shared: from here on, read it without awaiting
        panel = self.face.hand_panel(snapshot, player, self.names(snapshot), lang,
                                     notice=notice, arg=arg)
        if hints and snapshot.engine is not None and snapshot.engine.to_move == player:
            # issue 34: the expert's move for this position, privately; a full panel has no
            # room for the button, and the hint command still answers
            with suppress(ValueError):
                panel.view.add_item(button(self.game.kind, snapshot.table_id, "hint",
                                           tr(lang, "Hint"), counter=snapshot.counter))
        if not pictures or snapshot.engine is None or snapshot.seat_of(player) is None:
            return panel
        return replace(panel, image=self.face.hand_picture(snapshot, player, lang))

    def _over_view(self, table_id: int, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
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
        return Showing(
            table_id=snapshot.table_id, channel_id=snapshot.channel_id,
            message_id=snapshot.message_id, version=snapshot.version, counter=snapshot.counter,
            draw=draw, to_move=to_move, ping=ping, pinged=snapshot.pinged,
            final=snapshot.status not in ("lobby", "playing"),
            behind=snapshot.shown_version != snapshot.version,
            hook=None if via is None else Hook.of(via), message_webhook=snapshot.message_webhook,
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
        to_move, draw = await self.drawing(snapshot)
        showing = await self.showing(snapshot, draw, to_move, via)
        # a person who is playing learns of their turn from their panel, which the refresh
        # below edits: no post and delete to ping them, unless they look away (PING_AFTER)
        quiet = (to_move is not None and showing.ping is not None
                 and self._playing(snapshot.table_id, to_move))
        if quiet:
            assert to_move is not None
            # the panel first: under load a table write could land before the panel's, and a
            # person looking at the table would see their turn there with neither a ping nor
            # their panel telling them (issue 32); if the panel cannot say it, the table pings
            announced = await self._refresh_panel(snapshot, to_move)
            self.publisher.publish(replace(showing, quiet=True) if announced else showing)
        else:
            self.publisher.publish(showing)
            if to_move is not None:
                await self._refresh_panel(snapshot, to_move)
        if snapshot.status not in ("lobby", "playing"):
            self._drop_table(snapshot.table_id)
        self._changed(snapshot)

    def _playing(self, table_id: int, player: int) -> bool:
        """Whether ``player`` was answered at the table within ``PLAYING_SECONDS`` and has a
        panel open there that the turn's refresh can edit."""
        panel = self._panels.get((table_id, player))
        return panel is not None and self._clock() - panel.shown_at <= min(
            PLAYING_SECONDS, PANEL_FRESH_SECONDS)

    async def _refresh_panel(self, snapshot: TableSnapshot, player: int) -> bool:
        """The turn came to ``player``: their open hand panel shows it at once, ready for their
        move (one click instead of two). Whether the panel shows it now (or the table moved
        on meanwhile, and a later version's refresh takes over)."""
        key = (snapshot.table_id, player)
        panel = self._panels.get(key)
        if panel is None or self._clock() - panel.shown_at > PANEL_FRESH_SECONDS:
            self._panels.pop(key, None)
            return False
        if panel.counter == snapshot.counter:
            # it answered this very move and shows it ready for the next (a move that gives
            # its player another turn): "🔔 Your turn." would overwrite what the move said
            return True
        # drawn and sent in steps of their own, not in the move's (issue 16); a move made
        # meanwhile refreshes the panel itself when it is published
        snapshot = await self._still(snapshot)
        if snapshot is None:
            return True
        fresh = await self.panel(snapshot, player, panel.lang,
                                 notice=tr(panel.lang, "🔔 Your turn."), arg=None)
        if await self._still(snapshot) is None:
            return True
        token = self._panel_edits.begin(key)
        try:
            await _edit_answer(panel.webhook, content=cut(fresh.content, 2000),
                               view=fresh.view, previous_allowed_mentions=panel.mentions,
                               **_pictured(fresh.image, panel.image if token[1] else None))
        except discord.HTTPException as exc:
            # the panel was dismissed, or Discord no longer lets the bot edit it
            _log.info("could not refresh a hand panel at table %d: %s", snapshot.table_id, exc)
            self._panels.pop(key, None)
            return False
        finally:
            clean = self._panel_edits.end(key, token)
        if self._panels.get(key) is panel:
            panel.image = fresh.image if clean else None
            panel.counter = snapshot.counter
        return True

    async def _still(self, snapshot: TableSnapshot) -> TableSnapshot | None:
        """After a step of the loop (``PeopleFirst.step``), the table as it is now if no move
        was made since ``snapshot``, else ``None``."""
        await self.people.step()
        now = await self.service.get(snapshot.channel_id)
        if now is None or now.table_id != snapshot.table_id or now.counter != snapshot.counter:
            return None
        return now

    async def _answer_with_panel(self, interaction: discord.Interaction, table_id: int,
                                 panel: Panel, *, edit: bool
                                 ) -> tuple[int | None, CardImage | None]:
        """``_answer_panel``, leaving a picture that did not change on its panel when nothing
        else edits that panel meanwhile. Returns the panel's message id when it was edited in
        place, and the picture it is known to show."""
        # the panel is drawn: sending it is a stretch of its own (issue 16)
        await self.people.step()
        key = (table_id, interaction.user.id)
        kept = self._panels.get(key)
        message = interaction.message
        token = self._panel_edits.begin(key)
        shown = None
        if (token[1] and kept is not None and message is not None
                and kept.message_id == message.id):
            shown = kept.image
        try:
            edited = await _answer_panel(interaction, panel, edit=edit, shown=shown)
        finally:
            clean = self._panel_edits.end(key, token)
        return edited, panel.image if clean else None

    def _keep_panel(self, interaction: discord.Interaction, snapshot: TableSnapshot,
                    answered: tuple[int | None, CardImage | None]) -> _OpenPanel | None:
        """Remember the panel just answered as the player's open one; returns the one it
        replaces when that is another message (a panel sent anew: ``Your hand`` on the table,
        a slash command), to retire."""
        message_id, image = answered
        key = (snapshot.table_id, interaction.user.id)
        before = self._panels.get(key)
        self._panels[key] = _OpenPanel(
            interaction.followup, interaction.client.allowed_mentions, user_lang(interaction),
            self._clock(), image, message_id, snapshot.counter)
        # edited in place, it is the panel kept before: every other one was retired when it
        # was replaced (one whose message is known to differ excepted)
        if before is None or (message_id is not None and before.message_id in (None,
                                                                              message_id)):
            return None
        return before

    async def _retire(self, panel: _OpenPanel | None) -> None:
        """A newer panel replaced ``panel``: it says so and offers no moves. Edited through
        its own interaction's webhook, as the turn's refresh is (no global request budget)."""
        if panel is None or self._clock() - panel.shown_at > PANEL_FRESH_SECONDS:
            return
        try:
            await _edit_answer(panel.webhook, content=tr(panel.lang, RETIRED_PANEL), view=None,
                               previous_allowed_mentions=panel.mentions, attachments=[])
        except discord.HTTPException as exc:
            # dismissed by the player, or Discord no longer lets the bot edit it
            _log.info("could not retire a hand panel: %s", exc)

    async def show_automatic(self, result: ApplyResult) -> None:
        """Show a move the bot made for someone: a computer player's, or a turn timer's."""
        self._remember(result.snapshot, result.events)
        await self.publish(result.snapshot)

    async def close_table(self, snapshot: TableSnapshot,
                          via: discord.Interaction | None = None) -> None:
        """Show a table that was stopped or closed itself (its ``closed_note`` says how), with
        its latest lines, and — if it had started — how it went and Play again."""
        lang = self.table_lang(snapshot)
        embed = closed_embed(tr(lang, "{game} — closed", game=self.game.name),
                             closed_text(snapshot.closed_note, lang))
        started = snapshot.engine is not None
        if started:
            lines = await self.recent_lines(snapshot)
            if lines:
                embed.add_field(name=tr(lang, "Latest"), value="\n".join(lines), inline=False)
            money = await self._money(snapshot)
            embed.add_field(name=tr(lang, "How it went"),
                            value=self.face.summary(snapshot, self.names(snapshot), money, lang),
                            inline=False)
            ratings = await result_text(self.service.store, snapshot.table_id,
                                        self.names(snapshot), lang)
            if ratings is not None:
                embed.add_field(name=tr(lang, "Ratings"), value=ratings, inline=False)
        self._drop_table(snapshot.table_id)
        embed = fit(embed)

        def draw() -> TableRender:
            view = self._over_view(snapshot.table_id, lang) if started else None
            return TableRender(embed=embed, view=view)

        self.publisher.publish(await self.showing(snapshot, draw, via=via))
        self._changed(snapshot)

    async def _money(self, snapshot: TableSnapshot) -> dict[int, int] | None:
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
        for key in [k for k in self._panels if k[0] == table_id]:
            del self._panels[key]

    def _changed(self, snapshot: TableSnapshot) -> None:
        if self.on_change is not None:
            self.on_change(snapshot)

    # -- lobby ---------------------------------------------------------------------------------

    async def defaults(self, guild_id: int) -> GameDefaults:
        """This game's defaults as the server set them (turn time, options)."""
        return (await self.settings.server(guild_id)).games.get(self.game.kind, GameDefaults())

    async def channel_lang(self, interaction: discord.Interaction) -> str:
        """The language a new table's public messages use: the server's setting, else the
        server's preferred locale, else English."""
        assert interaction.guild_id is not None
        chosen = (await self.settings.server(interaction.guild_id)).language
        return lang_of(chosen or interaction.guild_locale or DEFAULT)

    async def _check_channel(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        # a thread follows its channel
        channel = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        if not await self.settings.may_host(interaction.guild_id, channel):
            raise UserFacingError("Games can't be started in this channel: the server's "
                                  "managers chose other channels for them.")

    async def open_lobby(self, interaction: discord.Interaction, options: Any, *,
                         turn_seconds: int | None = None, computers: int = 0,
                         rated: bool = True, level: str | None = None) -> None:
        """Open a lobby with the user as host, ``computers`` computer players of ``level``
        seated (``None``: the server's default level) and a turn time of ``turn_seconds`` (0: no
        timer; ``None``: the server's default for this game, else the game's); ``rated: False``
        keeps it out of the skill ratings. The user is answered as soon as the lobby exists,
        before it is posted."""
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        await self._check_channel(interaction)
        await defer_if_late(interaction)
        if turn_seconds is None:
            turn_seconds = (await self.defaults(interaction.guild_id)).turn_seconds
        if turn_seconds is None:
            turn_seconds = self.game.default_turn_seconds
        checks.turn_seconds(turn_seconds)
        most = self.game.max_players - 1
        if not 0 <= computers <= most:
            raise UserFacingError("A {game} table seats {seats}: from 0 to {most} computer "
                                  "players besides you.", game=self.game.name,
                                  seats=self.game.max_players, most=most)
        level = self._level(level, await self.defaults(interaction.guild_id))
        seated: list[SeatInfo] = []
        for _ in range(computers):
            player_id, name = free_computer(seated, level)
            seated.append(SeatInfo(player_id=player_id, name=name, is_computer=True))
        snapshot = await self.service.open_lobby(
            interaction.guild_id, interaction.channel_id, self.game.kind, interaction.user.id,
            display_name(interaction), options, turn_seconds=turn_seconds,
            guests=[Seat(s.player_id, s.name) for s in seated],
            locale=await self.channel_lang(interaction), rated=rated,
        )
        await self._opened(interaction, snapshot)

    async def _opened(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        text = tr(user_lang(interaction), "{game} lobby opened below. Others can press "
                                          "**Join**.", game=self.game.name)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        await self.publisher.post_new(
            await self.showing(snapshot, lambda: self.lobby_render(snapshot), via=interaction))
        self._changed(snapshot)

    async def play_again(self, interaction: discord.Interaction, table_id: int) -> None:
        """A new lobby in the same channel with the same options and the same people and
        computers seated (those now at another table excepted); whoever pressed is the host."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserFacingError("Games are played in server channels.")
        record = await self.service.store.table(table_id)
        if (record is None or record.guild_id != interaction.guild_id or record.is_live
                or not record.has_started):
            raise UserFacingError("That game is over, so this button does nothing now.")
        await self._check_channel(interaction)
        await defer_if_late(interaction)
        me = interaction.user.id
        guests: list[Seat] = []
        for seat in record.seats:
            if seat.player_id == me:
                continue
            if not seat.is_computer and await self.service.table_of_player(
                    interaction.guild_id, seat.player_id) is not None:
                continue
            guests.append(Seat(seat.player_id, seat.name))
        snapshot = await self.service.open_lobby(
            interaction.guild_id, interaction.channel_id, self.game.kind, me,
            display_name(interaction), record.options, turn_seconds=record.turn_seconds,
            guests=guests[: self.game.max_players - 1], locale=record.locale,
            rated=record.rated,
        )
        await self._opened(interaction, snapshot)

    def _level(self, level: str | None, defaults: GameDefaults) -> str:
        """The computer level asked for, else the server's default for this game, else
        ``normal``; ``UserFacingError`` for one this game does not offer."""
        offered = game_levels(self.game)
        if level is None:
            chosen = level_name(defaults.computer_level)
            return chosen if chosen in offered else DEFAULT_LEVEL
        if level not in offered:
            raise UserFacingError("That is not a computer level of this game. Nothing was "
                                  "changed.")
        return level

    async def add_computer(self, interaction: discord.Interaction,
                           route: Route | None = None, level: str | None = None) -> None:
        """The host seats one more computer player (issue 8) of ``level`` (issue 34;
        ``None``: the server's default level)."""
        snapshot = await self.table_for(interaction, route)
        if not snapshot.is_lobby:
            raise UserFacingError("Computer players are seated in the lobby, before the start.")
        assert interaction.guild_id is not None
        level = self._level(level, await self.defaults(interaction.guild_id))
        player_id, name = free_computer(snapshot.seats, level)
        result = await self.service.add_computer(
            snapshot.channel_id, interaction.user.id, player_id, name
        )
        lang = user_lang(interaction)
        await self._after_change(interaction, result, tr(
            lang, "{name} ({level}) sat down at the table.", name=computer_label(name),
            level=level_text(level, lang)))

    async def join(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.join(
            snapshot.channel_id, interaction.user.id, display_name(interaction)
        )
        await self._after_change(interaction, result,
                                 tr(user_lang(interaction), "You joined the table."))

    async def leave(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.leave(snapshot.channel_id, interaction.user.id)
        if result.snapshot.status == "cancelled":
            await self._closed(interaction, result.snapshot)
            return
        lang = user_lang(interaction)
        text = None if snapshot.is_lobby else self.face.left_text(result.events, snapshot, lang)
        if text is None:
            text = (tr(lang, "You left the table.") if snapshot.is_lobby
                    else tr(lang, "You left the game."))
        await self._after_change(interaction, result, text)

    async def start(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        # a thousand lobbies shown at once are started at once (issue 49): kept in time
        async with in_time(interaction, update=False):
            snapshot = await self.table_for(interaction, route)
            result = await self.service.start(snapshot.channel_id, interaction.user.id)
            await self._after_change(interaction, result,
                                     tr(user_lang(interaction), "The game has started."))

    async def cancel(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        # read without loading the game: stopping must work even when the stored game doesn't
        # load any more (issue 8)
        if interaction.channel_id is None:
            raise UserFacingError("Games are played in server channels.")
        record = await self.service.live_record(interaction.channel_id)
        if record is None or record.kind != self.game.kind:
            raise UserFacingError("There is no {game} game in this channel.",
                                  game=self.game.name)
        if route is not None and route.table_id != record.id:
            raise UserFacingError("That button belongs to an earlier game in this channel.")
        closed = await self.service.cancel(
            record.channel_id, interaction.user.id, may_manage(interaction),
            note={"why": STOPPED, "by": display_name(interaction),
                  "lobby": record.status == "lobby"},
        )
        await self._closed(interaction, closed)

    async def _closed(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        await interaction.response.send_message(
            closed_text(snapshot.closed_note, user_lang(interaction)), ephemeral=True)
        await self.close_table(snapshot, interaction)

    async def _after_change(
        self, interaction: discord.Interaction, result: ApplyResult, text: str
    ) -> None:
        self._remember(result.snapshot, result.events)
        async with answering(interaction):
            if interaction.response.is_done():  # acknowledged late (``bot.discord.deadline``)
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        await self.publish(result.snapshot, interaction)

    async def repost(self, interaction: discord.Interaction) -> None:
        snapshot = await self.table_for(interaction)
        await interaction.response.send_message(tr(user_lang(interaction),
                                                   "The table is below."), ephemeral=True)
        to_move, draw = await self.drawing(snapshot)
        await self.publisher.post_new(replace(await self.showing(snapshot, draw, to_move,
                                                                 interaction), ping=None),
                                      repost=True)

    # -- hands and moves -----------------------------------------------------------------------

    async def show_hand(
        self, interaction: discord.Interaction, route: Route | None = None, *,
        arg: str | None = None, notice: str | None = None, edit: bool = False,
    ) -> None:
        async with in_time(interaction, update=edit and on_ephemeral(interaction)):
            await self._show_hand(interaction, route, arg=arg, notice=notice, edit=edit)

    async def _show_hand(self, interaction: discord.Interaction, route: Route | None, *,
                         arg: str | None, notice: str | None, edit: bool) -> None:
        snapshot = await self.table_for(interaction, route)
        if snapshot.is_lobby:
            raise UserFacingError("The game hasn't started yet: your cards come when it does.")
        if snapshot.seat_of(interaction.user.id) is None and not self._ever_seated(
            snapshot, interaction.user.id
        ):
            raise UserFacingError("You're not playing at this table.")
        panel = await self.panel(snapshot, interaction.user.id, user_lang(interaction),
                                 notice=notice, arg=arg)
        answered = await self._answer_with_panel(interaction, snapshot.table_id, panel, edit=edit)
        if snapshot.seat_of(interaction.user.id) is not None:
            await self._retire(self._keep_panel(interaction, snapshot, answered))

    # -- hints (issue 34) ------------------------------------------------------------------------

    async def _hint_refusal(self, snapshot: TableSnapshot) -> str | None:
        """Why this table gives no hints (a message to translate), or ``None``."""
        if self.pool is None or self.game.search is None:
            return N_("This game gives no hints.")
        if not (await self.settings.server(snapshot.guild_id)).hints:
            return N_("Hints are turned off on this server.")
        if rated(snapshot):
            return N_("Rated tables give no hints: a rating should measure your own play.")
        return None

    async def hint(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        """The move an expert computer in the user's seat would make now, and why, privately:
        searched from what the user's seat has seen, nothing else."""
        snapshot = await self.table_for(interaction, route)
        player = interaction.user.id
        if snapshot.seat_of(player) is None:
            raise UserFacingError("You're not playing at this table.")
        refusal = await self._hint_refusal(snapshot)
        if refusal is not None:
            raise UserFacingError(refusal)
        if not snapshot.is_playing or snapshot.engine is None or snapshot.engine.to_move != player:
            raise UserFacingError("A hint is for your own turn, and it is not your turn now.")
        assert self.pool is not None
        # the search may queue behind computers' in the pool: answer Discord at once
        await interaction.response.defer(ephemeral=True, thinking=True)
        decision = await advise(self.service, self.pool, snapshot.channel_id, player)
        now = await self.service.get(snapshot.channel_id)
        if decision is None or now is None or now.counter != snapshot.counter:
            raise UserFacingError("The table moved on while the hint was worked out: ask again.")
        await interaction.followup.send(self.hint_text(now, player, decision,
                                                       user_lang(interaction)), ephemeral=True)

    def hint_text(self, snapshot: TableSnapshot, player: int, decision: Decision,
                  lang: str) -> str:
        """A hint in one line: the move, what it does (the face's reason), what the search
        expects of it, and of the next best."""
        rules = self.game.search
        assert rules is not None
        move = self.face.move_text(snapshot.engine, player, decision.move, lang)
        if not decision.worlds:
            return tr(lang, "💡 {move}: there is nothing better to do.", move=move)
        chosen = next(e for e in decision.estimates if e.move == decision.move)
        template, values = rules.outlook(chosen.score)
        outlook = tr(lang, template, **values)
        reason = self.face.move_reason(snapshot.engine, player, decision.move,
                                       self.names(snapshot), lang)
        if reason is None:
            text = tr(lang, "💡 {move}: {outlook}.", move=move, outlook=outlook)
        else:
            text = tr(lang, "💡 {move}: {reason}; {outlook}.", move=move, reason=reason,
                      outlook=outlook)
        others = [e for e in decision.estimates if e.move != decision.move]
        if others:
            other = max(others, key=lambda e: e.score)
            template, values = rules.outlook(other.score)
            text += " " + tr(lang, "Next best, {move}: {outlook}.",
                             move=self.face.move_text(snapshot.engine, player, other.move,
                                                      lang),
                             outlook=tr(lang, template, **values))
        return text

    # -- reviews (issue 34) ----------------------------------------------------------------------

    async def review(self, interaction: discord.Interaction, table_id: int) -> None:
        """The user's own decisions in a finished game, weighed by the expert's search from
        what they could see then: the three that cost most, with what was better, and a chart
        of their outlook over the game; privately, and the same every time."""
        record = await self.service.store.table(table_id)
        if (record is None or record.guild_id != interaction.guild_id or record.is_live
                or not record.has_started or record.kind != self.game.kind):
            raise UserFacingError("There is no finished game to review there.")
        rules = self.game.search
        if rules is None or self.pool is None:
            raise UserFacingError("This game gives no reviews.")
        player = interaction.user.id
        records = await self.service.moves(table_id)
        engine = engine_from_start(self.game, records[0].move, deals_of(record))
        if player not in engine.names:
            raise UserFacingError("Only the players of a game can review it.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = user_lang(interaction)
        found = positions(self.game, engine, records, player)
        if not found:
            await interaction.followup.send(
                tr(lang, "You had no choice to make in this game, so there is nothing to "
                         "review."), ephemeral=True)
            return
        budget = Budget(self.pool.budget.iterations, REVIEW_SECONDS)
        weighed: list[Weighed] = await self.pool.run(
            review_job(rules, table_id, player, found, budget), run_review)
        text, image = self.review_text(found, weighed, player, lang)
        await interaction.followup.send(text, file=attachment(image), ephemeral=True)

    def review_text(self, found: Sequence[Position], weighed: Sequence[Weighed], player: int,
                    lang: str) -> tuple[str, CardImage]:
        """A review as a message and its chart (``review``)."""
        rules = self.game.search
        assert rules is not None
        costly = sorted((i for i, w in enumerate(weighed) if w.cost > COSTLY), reverse=True,
                        key=lambda i: weighed[i].cost)[:3]
        lines = [tr(lang, "**Your review**: {n} decisions weighed, {rollouts} playouts each, "
                          "from what you could see at the time.", n=len(weighed),
                    rollouts=self.pool.budget.iterations if self.pool else 0)]
        if not costly:
            lines.append(tr(lang, "The search found nothing better than any of your moves."))
        for i in costly:
            w, p = weighed[i], found[i]
            template, values = rules.outlook(w.score)
            better_template, better_values = rules.outlook(w.best_score)
            lines.append(tr(
                lang, "• Decision {n}: {move} ({outlook}); better: {better} ({better_outlook}).",
                n=i + 1, move=self.face.move_text(p.engine, player, p.move, lang),
                outlook=tr(lang, template, **values),
                better=self.face.move_text(p.engine, player, w.best, lang),
                better_outlook=tr(lang, better_template, **better_values)))
        values = [rules.measure(w.score) for w in weighed]
        title = tr(lang, rules.measure_label)
        alt = cut(f"{title}: " + ", ".join(f"{v:.0f}" for v in values), ALT_TEXT_LIMIT)
        chart = line_chart(values, title, marked=costly)
        return "\n".join(lines), CardImage(chart, alt, WIDTH, HEIGHT, "review.png")

    def _ever_seated(self, snapshot: TableSnapshot, player_id: int) -> bool:
        return player_id in self.names(snapshot)

    async def move(
        self,
        interaction: discord.Interaction,
        move: Any,
        *,
        route: Route | None = None,
        from_panel: bool = False,
    ) -> None:
        """Apply ``move`` for the user and answer: in place on the hand panel it came from, or
        with a fresh private panel (table buttons, slash commands)."""
        # under load the table's read, the write and the panel's drawing can outlast Discord's
        # deadline: the watch acknowledges the click in time (``bot.discord.deadline``)
        async with in_time(interaction, update=from_panel and on_ephemeral(interaction)):
            await self._move(interaction, move, route=route, from_panel=from_panel)

    async def _move(self, interaction: discord.Interaction, move: Any, *, route: Route | None,
                    from_panel: bool) -> None:
        snapshot = await self.table_for(interaction, route)
        if snapshot.is_lobby:
            raise UserFacingError("The game hasn't started yet.")
        player = interaction.user.id
        if snapshot.seat_of(player) is None:
            raise UserFacingError("You're not playing at this table.")
        counter = route.counter if route is not None else None
        lang = user_lang(interaction)
        try:
            result = await self.service.apply(snapshot.channel_id, player, move, counter)
        except StaleMoveError:
            if from_panel:
                await self.show_hand(interaction, route, edit=True,
                                     notice=tr(lang, STALE_PANEL_NOTICE))
                return
            raise
        # the engine is live and shared: read everything for this move before the next await
        notice = self.face.move_notice(result.events, player, lang) or tr(lang, "Done.")
        self._remember(result.snapshot, result.events)
        panel = await self.panel(result.snapshot, player, lang, notice=notice, arg=None)
        answered = await self._answer_with_panel(interaction, result.snapshot.table_id, panel,
                                                 edit=from_panel)
        retired = self._keep_panel(interaction, result.snapshot, answered)
        await self.publish(result.snapshot, interaction)
        await self._retire(retired)

    # -- ratings -------------------------------------------------------------------------------

    async def top(self, interaction: discord.Interaction, *, private: bool = False) -> None:
        """This game's leaderboard in this server's current season (docs/ratings.md)."""
        if interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        store = self.service.store
        season = await store.current_season(interaction.guild_id, self.game.kind)
        rows = await store.ratings(interaction.guild_id, self.game.kind, season)
        # shown to the channel in its table language only when public, as the statistics
        lang = user_lang(interaction) if private else await self.channel_lang(interaction)
        embed = top_embed(rows, interaction.user.id, self.game.name, season, lang)
        await interaction.response.send_message(embed=embed, ephemeral=private)

    async def profile(self, interaction: discord.Interaction, player: discord.abc.User | None,
                      *, private: bool = False) -> None:
        """One person's rating, record and rating-history chart in this season."""
        if interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        who = player or interaction.user
        lang = user_lang(interaction) if private else await self.channel_lang(interaction)
        await defer_if_late(interaction)
        embed, chart = await profile(
            self.service.store, interaction.guild_id, self.game.kind, self.game.name, who.id,
            shown_name(who.display_name), who.display_name, lang)
        files = [chart] if chart is not None else []
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, files=files, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, files=files,
                                                    ephemeral=private)

    # -- history and replays -------------------------------------------------------------------

    async def history(self, interaction: discord.Interaction, *, before: int | None = None,
                      edit: bool = False) -> None:
        """This server's finished and stopped tables of this game, newest first, paged; a menu
        replays one. Private to whoever asked."""
        if interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        lang = user_lang(interaction)
        records = await self.service.store.finished_tables(
            interaction.guild_id, self.game.kind, before_id=before, limit=HISTORY_PAGE + 1)
        more = len(records) > HISTORY_PAGE
        records = records[:HISTORY_PAGE]
        embed = discord.Embed(title=tr(lang, "{game} — recent games on this server",
                                       game=self.game.name), colour=FINISHED_COLOUR)
        view = discord.ui.View(timeout=None)
        options: list[discord.SelectOption] = []
        lines = []
        for record in records:
            snapshot = await self.service.closed(record)
            who = join(lang, (label for _, label in sorted(self.names(snapshot).items())))
            how = (self.face.summary(snapshot, self.names(snapshot),
                                     await self._money(snapshot), lang)
                   if snapshot.engine is not None else closed_text(record.closed_note, lang))
            lines.append(f"**#{record.id}** · <t:{int(record.updated_at)}:R> · {who}\n{how}")
            if snapshot.engine is not None:
                options.append(discord.SelectOption(
                    label=tr(lang, "Replay #{table}", table=record.id), value=str(record.id)))
        embed.description = "\n\n".join(lines) or tr(lang, "No {game} games have ended here "
                                                     "yet.", game=self.game.name)
        extra = (None if self.history_extra is None or before is not None
                 else await self.history_extra(interaction.guild_id, lang))
        if extra:
            embed.add_field(name=tr(lang, "Events"), value=extra, inline=False)
        if options:
            view.add_item(RoutedSelect(Route(self.game.kind, 0, "replay_pick"), options,
                                       tr(lang, "Replay a game…"), row=0))
        if more:
            view.add_item(button(self.game.kind, 0, "history", tr(lang, "Older ▶"),
                                 counter=records[-1].id, row=1))
        embed = fit(embed)
        if edit and on_ephemeral(interaction):
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def replay(self, interaction: discord.Interaction, table_id: int, step: int, *,
                     edit: bool) -> None:
        """A finished game move by move, as the table showed it then — public information only
        (a private card only once the game made it public) — with ◀ ▶, privately to whoever
        asked."""
        lang = user_lang(interaction)
        record = await self.service.store.table(table_id)
        if (record is None or record.guild_id != interaction.guild_id or record.is_live
                or not record.has_started or record.kind != self.game.kind):
            raise UserFacingError("There is no finished game to replay there.")
        records = await self.service.moves(table_id)
        last = len(records) - 1
        step = min(max(step, 0), last)
        snapshot = self._replayed(record, records, step)
        names = self.names(snapshot)
        lines = self.face.describe([self.game.events.public(e) for e in records[step].events],
                                   names, lang)
        assert snapshot.engine is not None
        render = self.face.table_render(snapshot, snapshot.engine.public_view(),
                                        lines[-RECENT_LINES:], names, lang)
        content = tr(lang, "Replay of {game} #{table}: move {step} of {last}.",
                     game=self.game.name, table=table_id, step=step, last=last)
        view = discord.ui.View(timeout=None)
        for label_text, to, off in (("⏮", 0, step == 0), ("◀", step - 1, step == 0),
                                    ("▶", step + 1, step == last),
                                    ("⏭", last, step == last)):
            view.add_item(button(self.game.kind, table_id, "replay", label_text,
                                 counter=max(to, 0), arg=label_text.encode().hex(),
                                 disabled=off))
        embed = fit(render.embed)
        if edit:
            await interaction.response.edit_message(content=content, embed=embed, view=view)
        else:
            await interaction.response.send_message(content, embed=embed, view=view,
                                                    ephemeral=True)

    def _replayed(self, record: TableRecord, records: Sequence[MoveRecord],
                  step: int) -> TableSnapshot:
        start = records[0].move
        options = self.game.validate_options(start["options"])
        engine = engine_from_start(self.game, start, deals_of(record))
        for move in records[1:step + 1]:
            engine.apply(move.player_id, self.game.moves.from_dict(move.move))
        return TableSnapshot(
            table_id=record.id, guild_id=record.guild_id, channel_id=record.channel_id,
            kind=record.kind, status="finished" if engine.is_over else "playing",
            host_id=record.host_id, options=options,
            seats=tuple(SeatInfo(player_id=s.player_id, name=s.name,
                                 is_computer=s.player_id < 0) for s in engine.seats),
            message_id=None, counter=step, engine=engine, turn_seconds=0, turn_deadline=None,
            lobby_expires_at=None, locale=record.locale,
        )

