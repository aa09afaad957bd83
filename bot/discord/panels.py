"""Each player's hand panel: drawing it, answering with it, and keeping the one they have open
so that their turn shows there at once (issue 32) and an older one says it is out of date
(issue 36).

A panel is an interaction's private answer, which Discord lets the bot edit for 15 minutes
through that interaction's webhook. Only what one player may see is ever drawn on their panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace

import aiohttp
import discord

from bot.cardart import CardImage
from bot.coach import hints
from bot.discord.answers import answer_panel, edit_answer, pictured, user_lang
from bot.discord.common import button, seated_names
from bot.discord.face import FaceDrawing, Panel
from bot.discord.layout import panel_layout
from bot.gamekit.contract import GameSpec
from bot.i18n import N_, tr
from bot.table import TableService
from bot.table.computers import SearchPool
from bot.table.priority import PeopleFirst
from bot.table.service import TableSnapshot
from bot.table.settings import SettingsService

_log = logging.getLogger(__name__)
_NOT_EDITED = (discord.HTTPException, aiohttp.ClientError, TimeoutError)
"""What an edit of a panel through its interaction's webhook may end in, besides its success."""

PLAYING_SECONDS = 60.0
"""A person answered at a table this recently is playing: when the turn comes back to them,
their open hand panel announcing it tells them, and the table pings them only if they do not
act within ``bot.discord.showing.PING_AFTER`` (issue 32)."""
PANEL_FRESH_SECONDS = 14 * 60
"""A panel is refreshed when the turn comes back to its player while Discord still lets the
bot edit it (15 minutes after the interaction that showed it; a minute is kept in hand)."""

RETIRED_PANEL = N_("This panel is out of date: your newer one is further down. (**Your hand** "
                   "on the table opens it again.)")
"""What a panel says once a newer one has opened: it offers no moves any more, so only one of a
player's panels at a table ever looks ready for their move (issue 36)."""


@dataclass
class OpenPanel:
    """The answer that last showed a player their panel (Discord lets the bot edit it for 15
    minutes) and the language it was shown in.

    The interaction itself is not kept, only its follow-up webhook (the application's id and
    the interaction's token): an interaction holds its whole payload in reference cycles that
    only a full garbage collection frees, and one kept per player for minutes made those
    collections stall the loop for 100 ms under load (issue 16)."""

    key: tuple[int, int]
    """The table and the player."""
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
    retired: bool = False
    """A newer panel replaced it: it offers no moves any more, and no refresh shows one."""


class PanelWrites:
    """Each player's panel writes at a table, one at a time.

    Two edits of one message in flight may land in either order. A panel whose picture did
    not change keeps it (no ``attachments``: its layout still shows ``attachment://hand.png``),
    and Discord refuses that edit (400, ``UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND``) if one
    that took the picture away — the panel's retirement — landed first. One at a time, what a
    panel shows is known after every write, and a refresh that waited never brings a retired
    panel back (issue 44)."""

    def __init__(self) -> None:
        self._turns: dict[tuple[int, int], _Turns] = {}

    @contextlib.asynccontextmanager
    async def one(self, key: tuple[int, int]) -> AsyncIterator[None]:
        """The turn of one write of the panels of ``key`` (table, player)."""
        turns = self._turns.setdefault(key, _Turns())
        turns.waiting += 1
        try:
            async with turns.lock:
                yield
        finally:
            turns.waiting -= 1
            if not turns.waiting:
                del self._turns[key]


@dataclass
class _Turns:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0


class HandPanels:
    """The hand panels of one game's tables: ``game`` is its spec, ``face`` draws them;
    ``pool`` is where hints search (``None``: no Hint button)."""

    def __init__(self, service: TableService, settings: SettingsService, game: GameSpec,
                 face: FaceDrawing, people: PeopleFirst, clock: Callable[[], float],
                 pool: SearchPool | None) -> None:
        self.service = service
        self.settings = settings
        self.game = game
        self.face = face
        self.people = people
        """Whose heavy step goes next (``PeopleFirst.step``): drawing and sending a panel."""
        self.pool = pool
        self._clock = clock
        self._open: dict[tuple[int, int], OpenPanel] = {}
        """Per table and player: the panel they have open."""
        self._writes = PanelWrites()

    async def draw(self, snapshot: TableSnapshot, player: int, lang: str, *,
                   notice: str | None, arg: str | None) -> Panel:
        """``player``'s hand panel, with a picture of the hand unless they chose text, and a
        Hint button on their turn where hints are allowed."""
        pictures = (await self.settings.person(player)).cards != "text"
        hinted = await hints.refusal(self.game, self.pool, self.settings, snapshot) is None
        # the engine is shared: from here on, read it without awaiting
        panel = self.face.hand_panel(snapshot, player, seated_names(snapshot), lang,
                                     notice=notice, arg=arg)
        if hinted and snapshot.engine is not None and snapshot.engine.to_move == player:
            # issue 34: the expert's move for this position, privately; a full panel has no
            # room for the button, and the hint command still answers
            with contextlib.suppress(ValueError):
                panel.view.add_item(button(self.game.kind, snapshot.table_id, "hint",
                                           tr(lang, "Hint"), counter=snapshot.counter))
        if not pictures or snapshot.engine is None or snapshot.seat_of(player) is None:
            return panel
        return replace(panel, image=self.face.hand_picture(snapshot, player, lang))

    def playing(self, table_id: int, player: int) -> bool:
        """Whether ``player`` was answered at the table within ``PLAYING_SECONDS`` and has a
        panel open there that the turn's refresh can edit."""
        panel = self._open.get((table_id, player))
        return panel is not None and self._clock() - panel.shown_at <= min(
            PLAYING_SECONDS, PANEL_FRESH_SECONDS)

    async def refresh(self, snapshot: TableSnapshot, player: int) -> bool:
        """The turn came to ``player``: their open hand panel shows it at once, ready for their
        move (one click instead of two). Whether the panel shows it now (or the table moved
        on meanwhile, and a later version's refresh takes over)."""
        key = (snapshot.table_id, player)
        panel = self._open.get(key)
        if panel is None or self._clock() - panel.shown_at > PANEL_FRESH_SECONDS:
            self._open.pop(key, None)
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
        fresh = await self.draw(snapshot, player, panel.lang,
                                notice=tr(panel.lang, "🔔 Your turn."), arg=None)
        if await self._still(snapshot) is None:
            return True
        async with self._writes.one(key):
            # the panel the player has open now: this one, this one's message edited in place
            # by a click on it since, or a newer one that retired this one meanwhile (which a
            # refresh must not bring back)
            shown = self._open.get(key) or panel
            if shown.retired:
                return False
            if shown.counter == snapshot.counter:
                return True  # opened or answered at this very move: it shows it already
            try:
                await edit_answer(shown.webhook, content=None,
                                  view=panel_layout(fresh.content, fresh.view, fresh.image),
                                  previous_allowed_mentions=shown.mentions,
                                  **pictured(fresh.image, shown.image))
            except _NOT_EDITED as exc:
                # the panel was dismissed, Discord no longer lets the bot edit it, or could not
                # be reached: the turn is announced another way (a ping)
                _log.info("could not refresh a hand panel at table %d: %r",
                          snapshot.table_id, exc)
                if self._open.get(key) is shown:
                    del self._open[key]
                return False
            shown.image, shown.counter = fresh.image, snapshot.counter
        return True

    async def _still(self, snapshot: TableSnapshot) -> TableSnapshot | None:
        """After a step of the loop (``PeopleFirst.step``), the table as it is now if no move
        was made since ``snapshot``, else ``None``."""
        await self.people.step()
        now = await self.service.get(snapshot.channel_id)
        if now is None or now.table_id != snapshot.table_id or now.counter != snapshot.counter:
            return None
        return now

    async def answer(self, interaction: discord.Interaction, table_id: int, panel: Panel, *,
                     edit: bool) -> tuple[int | None, CardImage | None]:
        """``answer_panel``, leaving a picture that did not change on the panel the click came
        from. Returns the panel's message id when it was edited in place, and the picture it
        shows."""
        # the panel is drawn: sending it is a stretch of its own (issue 16)
        await self.people.step()
        key = (table_id, interaction.user.id)
        message = interaction.message
        async with self._writes.one(key):
            kept = self._open.get(key)
            if kept is None or message is None or kept.message_id != message.id:
                kept = None  # not the message the click came from, or not known to be
            try:
                edited = await answer_panel(interaction, panel, edit=edit,
                                            shown=kept.image if kept else None)
            except BaseException:
                if kept is not None:
                    kept.image = None  # it may or may not show the new picture
                raise
        return edited, panel.image

    def keep(self, interaction: discord.Interaction, snapshot: TableSnapshot,
             answered: tuple[int | None, CardImage | None]) -> OpenPanel | None:
        """Remember the panel just answered as the player's open one; returns the one it
        replaces when that is another message (a panel sent anew: ``Your hand`` on the table,
        a slash command), to retire."""
        message_id, image = answered
        key = (snapshot.table_id, interaction.user.id)
        before = self._open.get(key)
        self._open[key] = OpenPanel(
            key, interaction.followup, interaction.client.allowed_mentions, user_lang(interaction),
            self._clock(), image, message_id, snapshot.counter)
        # edited in place, it is the panel kept before: every other one was retired when it
        # was replaced (one whose message is known to differ excepted)
        if before is None or (message_id is not None and before.message_id in (None,
                                                                              message_id)):
            return None
        before.retired = True  # from now on, whatever retire() is waiting for
        return before

    async def retire(self, panel: OpenPanel | None) -> None:
        """A newer panel replaced ``panel``: it says so and offers no moves. Edited through
        its own interaction's webhook, as the turn's refresh is (no global request budget)."""
        if panel is None or self._clock() - panel.shown_at > PANEL_FRESH_SECONDS:
            return
        async with self._writes.one(panel.key):
            try:
                # the panel is a layout, which no edit may turn back into content
                await edit_answer(panel.webhook, content=None,
                                  view=panel_layout(tr(panel.lang, RETIRED_PANEL), None, None),
                                  previous_allowed_mentions=panel.mentions, attachments=[])
            except _NOT_EDITED as exc:
                # dismissed by the player, Discord no longer lets the bot edit it, or could not
                # be reached: the move it follows is made and answered all the same
                _log.info("could not retire a hand panel: %r", exc)

    def drop_table(self, table_id: int) -> None:
        """Forget the panels of a table that has closed."""
        for key in [k for k in self._open if k[0] == table_id]:
            del self._open[key]
