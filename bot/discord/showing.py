"""What one version of a table shows, and through which hook it can be written: the render a
game's face draws (``TableRender``), a person's interaction or the channel's webhook that can
write it (``Hook``), and one version of a table ready for its channel (``Showing``). The
publisher (``bot.discord.publisher``) takes these and decides when and how each is written."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Protocol

import discord

from bot.cardart import CardImage
from bot.discord.layout import SeatBlocks
from bot.discord.pacing import Kind
from bot.discord.rows import Rows
from bot.discord.webhooks import ChannelHook


@dataclass(frozen=True)
class TableRender:
    """What a game's face draws for the public table message at one moment."""

    embed: discord.Embed
    view: Rows | None
    content: str | None = None
    image: CardImage | None = None
    """A picture of the table's cards, attached to the message (its layout shows it)."""
    seats: SeatBlocks | None = None
    """The field that lists the seats, drawn as one Section per seat."""


Draw = Callable[[], TableRender]
"""Draws one version of a table when it is about to be sent. Under load most versions are
replaced before their write's turn comes, so only the ones sent are ever drawn (issue 16); a
draw reads only what was captured when the version was made, never the live game. Each call
draws a new render: a sent render's view is emptied (``bot.discord.cycles``), and a failed
write draws again."""


PING_AFTER = 8.0
"""Seconds a person who is playing (their open hand panel announced the turn: ``Showing.quiet``)
has before the table pings them after all: a ping costs a post and a delete, and an edit of
their panel told them already, unless they looked away."""
HOOK_LIFETIME = 14 * 60
"""Seconds an interaction's webhook is used for after the interaction was made: Discord accepts
its token for 15 minutes ("Interaction tokens are valid for 15 minutes"); a minute is kept in
hand for a write that waits its turn."""


@dataclass(frozen=True, eq=False)
class Hook:
    """A person's interaction at the table, answered, whose webhook (the application's, with the
    interaction's token) can post, edit and delete the table's messages: the interaction
    endpoints, outside the bot's global rate limit (Discord: "Interaction endpoints are not
    bound to the bot's Global Rate Limit"). Only the webhook is kept, not the interaction
    (``bot.discord.panels.OpenPanel`` says why). A message is edited and deleted only
    through the hook that posted it, as Discord documents follow-ups."""

    webhook: discord.Webhook
    channel_id: int
    made_at: float
    """When Discord made the interaction (Unix seconds, its id's time)."""
    channel: ChannelHook | None = None
    """Not an interaction's: the bot's webhook on the channel (``bot.discord.webhooks``),
    good until it is deleted, on the address's budget rather than the interactions'."""
    thread_id: int | None = None
    """The thread the table is in, which a channel webhook names in every request."""
    answered_by_follow_up: bool = False
    """The interaction was acknowledged late (``bot.discord.deadline``), so its own answer may
    have been a follow-up: one fewer is left for the table where follow-ups are counted."""
    answers: discord.Interaction | None = field(default=None, repr=False)
    """Set while the interaction is not answered yet: the table's first post through this hook
    is the interaction's own answer, a public message (``answering``). Kept only until that
    post went out or failed: the publisher then holds ``answered()`` instead."""

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Hook | None:
        """The interaction's webhook, once its answer is sent; ``None`` when it cannot post a
        table: not answered yet, or deferred as a private "thinking…" message (its first
        follow-up would replace that, and stay private)."""
        response = interaction.response
        if (interaction.channel_id is None or not response.is_done()
                or response.type is discord.InteractionResponseType.deferred_channel_message):
            return None
        late = response.type is discord.InteractionResponseType.deferred_message_update
        return cls(interaction.followup, interaction.channel_id,
                   interaction.created_at.timestamp(), answered_by_follow_up=late)

    @classmethod
    def answering(cls, interaction: discord.Interaction) -> Hook | None:
        """The hook of an interaction not answered yet, whose answer is to be the table's
        message itself (issue 49: a lobby shows with the command's one answer, not a private
        answer and a follow-up); ``None`` once it is answered (``of`` then)."""
        if interaction.channel_id is None or interaction.response.is_done():
            return None
        return cls(interaction.followup, interaction.channel_id,
                   interaction.created_at.timestamp(), answers=interaction)

    def answered(self) -> Hook:
        """This hook once its interaction's answer went out: its later posts are follow-ups."""
        return replace(self, answers=None)

    @classmethod
    def of_token(cls, token: str, made_at: float, channel_id: int, client: discord.Client
                 ) -> Hook | None:
        """The interaction webhook of a stored ``token`` (``Showing.message_token``), issued at
        ``made_at``: it edits and deletes the message it posted while it is fresh, a restart
        included (``None`` where the bot has no application id to address it by)."""
        application_id = client.application_id
        if application_id is None:
            return None
        return cls(discord.Webhook.partial(application_id, token, client=client), channel_id,
                   made_at)

    @classmethod
    def of_channel(cls, hook: ChannelHook, channel_id: int, thread_id: int | None,
                   client: discord.Client) -> Hook:
        return cls(discord.Webhook.partial(hook.webhook_id, hook.token, client=client),
                   channel_id, 0.0, hook, thread_id)

    @property
    def key(self) -> int:
        """The pacer's key for this token's own limits (a channel webhook's: its id, which
        every table of the channel and its threads shares)."""
        return self.channel.webhook_id if self.channel is not None else hash(self.webhook.token)

    @property
    def kind(self) -> Kind:
        return Kind.HOOK if self.channel is None else Kind.WEBHOOK

    def fresh(self, now: float) -> bool:
        """Whether the token is still good at ``now`` (the publisher's clock, Unix seconds:
        Discord's time as far as the bot knows it); a channel webhook's always is."""
        return self.channel is not None or now - self.made_at < HOOK_LIFETIME


@dataclass(frozen=True)
class Showing:
    """One version of one table, ready for its channel. ``to_move`` is the person whose turn
    it is (``None``: a computer's, or nobody's) and ``ping`` the person to notify that it is
    their turn (``None``: nobody, or they do not want pings); ``message_id`` and ``pinged`` are
    the table message and whose turn it pinged for, as stored."""

    table_id: int
    channel_id: int
    message_id: int | None
    version: int
    counter: int
    draw: Draw
    place_id: int | None = None
    """The server the table is in (a DM's or group DM's own channel id; ``None``: not known),
    where the bot's cache finds its channel (``reach.server_channel``)."""
    to_move: int | None = None
    ping: int | None = None
    pinged: int | None = None
    final: bool = False
    """The table is over: once this is shown the publisher forgets it."""
    behind: bool = False
    """The stored message showed an older version when this was made (a restart after a crash
    or an outage): a table message posted but never recorded may stand below it."""
    hook: Hook | None = None
    """The interaction this version answers (a person's move, join, start), whose webhook the
    table's next post goes through."""
    message_webhook: int | None = None
    """The channel webhook that posted the stored message (``None``: the bot, or an
    interaction), as stored: only it can edit that message."""
    strays_from: int | None = None
    """Where the table's stale messages may still stand from, as stored (``None``: nowhere;
    ``TableRecord.strays_from``): a sweep deletes them after the table's next write."""
    message_token: tuple[str, float] | None = field(default=None, repr=False)
    """The interaction token that posted the stored message, or where only interactions write
    the newest person's token at its last write, and when Discord issued it, as stored
    (``TableRecord.message_token``): while fresh it edits that message in place after a
    restart, where only the bot's token could otherwise delete it (or nothing could write it)."""
    quiet: bool = False
    """``ping`` is playing and their open hand panel announces the turn: the table does not
    ping them now, only if the turn is still theirs ``PING_AFTER`` seconds after it showed."""
    interaction_only: bool = False
    """The bot is not a member where the table is (``bot.discord.reach``): it is written only
    through people's interactions, never with the bot token."""
    asleep_note: str | None = None
    """For an ``interaction_only`` table: the line it shows, in its language, once no token
    is left to write it (``reach.asleep``)."""
    asleep: bool = False
    """This write is the table's last before its tokens run out: it shows ``asleep_note``."""


class PublishHooks(Protocol):
    """What the publisher records as it goes (the table service stores it)."""

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int, *,
                            webhook: int | None = None,
                            strays_from: int | None = None,
                            token: tuple[str, float] | None = None,
                            run: int | None = None) -> None: ...

    async def message_shows(self, table_id: int, channel_id: int, version: int,
                            pinged: int | None, *, strays_from: int | None = None,
                            token: tuple[str, float] | None = None) -> None: ...

    async def strays_swept(self, table_id: int, channel_id: int, swept: int) -> None: ...

    async def claim_posts(self, run_id: int) -> dict[int, bool]: ...

    async def hold_posts(self, table_id: int, run_id: int) -> None: ...

    async def release_posts(self, run_id: int, *, keep: Collection[int] = ()) -> None: ...

    async def forget_message_tokens(self, issued_before: float) -> int: ...
