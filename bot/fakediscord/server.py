"""``FakeDiscord``: the state and rules of the fake, and the aiohttp server that exposes them.

The server runs in the caller's event loop on 127.0.0.1 (a free port by default), so an
in-process bot, a bot subprocess and the test driver all see one consistent state. Every
state change wakes ``wait_for`` waiters: tests wait on events, never on sleeps.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.attachments import (
    ATTACHMENT_SIZE_LIMIT,
    MAX_ATTACHMENTS,
    Attachment,
    NewAttachment,
    Upload,
    attachments_after,
    check_uploads,
    resolve_references,
    spoiler_from,
)
from bot.fakediscord.attachments import too_many as too_many_attachments
from bot.fakediscord.emojis import ApplicationEmojis, content_emoji_ids
from bot.fakediscord.errors import DiscordHTTPError, FormErrors
from bot.fakediscord.gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_WEBHOOKS,
    INTENT_GUILDS,
    Gateway,
)
from bot.fakediscord.jsonvalue import copy_json
from bot.fakediscord.locales import DEFAULT_LOCALE, check_locale
from bot.fakediscord.model import (
    ADMINISTRATOR,
    BOT_DEFAULT,
    CHANNEL_GUILD_TEXT,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EVERYONE_DEFAULT,
    MANAGE_MESSAGES,
    MANAGE_WEBHOOKS,
    MESSAGE_CHAT_INPUT_COMMAND,
    MESSAGE_DEFAULT,
    MESSAGE_REPLY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Member,
    Role,
    StoredMessage,
    User,
    Webhook,
    resolve_mentions,
)
from bot.fakediscord.ratelimit import (
    InvalidRequests,
    OldMessageEdits,
    RateLimitConfig,
    RateLimiter,
)
from bot.fakediscord.records import (
    ALLOWED_CALLBACKS,
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    INTERACTION_APPLICATION_COMMAND,
    Contract,
    ContractBreach,
    InteractionRecord,
    LogEntry,
    Ping,
    RateLimitHit,
    RestCall,
    UnknownEmoji,
    command_path,
)
from bot.fakediscord.rest import build_app
from bot.fakediscord.snowflake import SnowflakeFactory, iso_now, new_token
from bot.fakediscord.validation import (
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    validate_autocomplete_choices,
    validate_commands,
    validate_message_body,
    validate_modal,
)

T = TypeVar("T")

_log = logging.getLogger("fakediscord")

WEBHOOK_TOKEN_LIFETIME = 15 * 60
MAX_WEBHOOKS_PER_CHANNEL = 15
"""Discord: "Maximum number of webhooks reached (15)" (30007)."""
# "Each shard can only support a maximum of 2500 guilds" (Discord docs, "Sharding"): more on one
# connection closes it with 4011 Sharding required.
GUILDS_PER_SHARD = 2500
IDENTIFY_LIMIT = 1000
INTERACTION_DEADLINE = 3.0
_CALLBACKS_WITH_RESOURCE = frozenset({CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE})
# Interactions and webhooks parse only user mentions unless told otherwise (Discord docs,
# "Allowed mentions"); plain channel messages parse everything.
WEBHOOK_DEFAULT_MENTIONS: dict[str, Any] = {"parse": ["users"]}
_CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2
_USERNAME_CHARS = re.compile(r"[^a-z0-9_.]")


@dataclass
class FaultRule:
    """Answers matching requests with ``status`` instead of handling them (before any effect)."""

    status: int
    rate: float = 1.0
    remaining: int | None = None
    retry_after: float = 0.05
    scope: str = "user"
    is_global: bool = False
    match: Callable[[str, str], bool] | None = None


@dataclass
class Application:
    id: int
    name: str
    owner: User
    verify_key: str
    privileged_intents: int

    @property
    def flags(self) -> int:
        # The *_LIMITED flags are what a bot in under 100 servers has once the intent is
        # switched on in the developer portal.
        value = 1 << 23  # APPLICATION_COMMAND_BADGE
        if self.privileged_intents & (1 << 8):
            value |= 1 << 13
        if self.privileged_intents & INTENT_GUILD_MEMBERS:
            value |= 1 << 15
        if self.privileged_intents & (1 << 15):
            value |= 1 << 19
        return value

    def payload(self, bot: User) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "description": "kortbord test application",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": self.verify_key,
            "flags": self.flags,
            "flags_new": str(self.flags),
            "owner": self.owner.payload(),
            "team": None,
            "bot": bot.payload(),
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            # no guild, cover image or install URL: Discord leaves the fields out
        }


NONCE_WINDOW = 300.0
"""Seconds an enforced nonce deduplicates message creates ("the past few minutes")."""

class FakeDiscord:
    """A Discord API v10 stand-in: REST under ``/api/v10`` and the gateway websocket at ``/``.

    ``recommended_shards`` and ``max_concurrency`` are what ``GET /gateway/bot`` advises;
    ``guilds_per_shard`` is the most guilds one connection may hold (4011 beyond it).
    ``token`` None accepts any non-empty bot token (as the README's "any token" promises);
    a string makes every other token a 401 and a gateway close 4004. ``rate_limits`` defaults
    to Discord's (``RateLimitConfig.discord_like()``). ``clock`` (Unix seconds) drives the
    rate limits and the 15-minute interaction tokens; tests replace it to move time on.
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        interaction_deadline: float = INTERACTION_DEADLINE,
        privileged_intents: int = 0,
        rate_limits: RateLimitConfig | None = None,
        app_name: str = "Kortbord",
        clock: Callable[[], float] = time.time,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        guilds_per_shard: int = GUILDS_PER_SHARD,
    ) -> None:
        self.ids = SnowflakeFactory(clock=lambda: self.clock())
        self.token = token
        self.interaction_deadline = interaction_deadline
        self.clock = clock
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.guilds_per_shard = guilds_per_shard
        self.limiter = RateLimiter(
            rate_limits or RateLimitConfig.discord_like(), clock=lambda: self.clock()
        )
        self.old_message_edits = OldMessageEdits()
        self.invalid_requests = InvalidRequests()
        """Responses 401, 403 and 429 per IP address, and the ban past 10,000 in 10 minutes."""
        owner = User(self.ids.next(), "appowner", "App Owner")
        app_id = self.ids.next()
        self.bot_user = User(app_id, app_name.lower(), None, bot=True)
        self.application = Application(
            id=app_id,
            name=app_name,
            owner=owner,
            verify_key=secrets.token_hex(32),
            privileged_intents=privileged_intents,
        )
        self.users: dict[int, User] = {owner.id: owner, app_id: self.bot_user}
        self._usernames = {owner.username, self.bot_user.username}
        # server-side state: the emojis outlive any bot process
        self.emojis = ApplicationEmojis(self.ids.next, self.bot_user)
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self._by_channel: dict[int, list[StoredMessage]] = {}
        # (author, nonce) -> (message id, when): enforce_nonce deduplicates recent creates
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.webhooks: dict[int, Webhook] = {}
        """Channel webhooks by id (the interaction webhooks are the application's, apart)."""
        self.global_commands: dict[tuple[int, str], dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[tuple[int, str], dict[str, Any]]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.log: list[LogEntry] = []
        self.pings: list[Ping] = []
        self.rest_calls: list[RestCall] = []
        self.rate_limited: list[RateLimitHit] = []
        self.contract: Contract | None = None
        """Checks every request against Discord's API description (the tests set it)."""
        self.contract_answers = False
        """Check the fake's own JSON answers against the contract too."""
        self.contract_breaches: list[ContractBreach] = []
        self.unknown_emojis: list[UnknownEmoji] = []
        self.faults: list[FaultRule] = []
        self._rng = random.Random(0)
        self._seq = 0
        self._changed = asyncio.Event()
        self.gateway = Gateway(self)
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._runner = web.AppRunner(build_app(self), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.host = host
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for record in self.interactions.values():
            if record.deadline_handle is not None:
                record.deadline_handle.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    # -- waiting ------------------------------------------------------------------------------

    def changed(self) -> None:
        """Wake every ``wait_for``; called after each state change."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], T], within: float = 10.0, what: str = "condition"
    ) -> T:
        """Return ``predicate()`` once truthy; re-checked on every state change, no polling."""
        try:
            async with asyncio.timeout(within):
                while True:
                    event = self._changed
                    result = predicate()
                    if result:
                        return result
                    await event.wait()
        except TimeoutError:
            raise AssertionError(f"timed out after {within:g}s waiting for {what}") from None

    def session_start_limit(self) -> dict[str, int]:
        """IDENTIFYs left of the 1000 a day, counted from the first one (RESUMEs are free)."""
        gateway = self.gateway
        day_ms = 24 * 3600 * 1000
        if gateway.first_identify_at is None:
            reset_after = day_ms
        else:
            elapsed = int((self.clock() - gateway.first_identify_at) * 1000)
            reset_after = max(0, day_ms - elapsed)
        return {
            "total": IDENTIFY_LIMIT,
            "remaining": max(0, IDENTIFY_LIMIT - gateway.identify_count),
            "reset_after": reset_after,
            "max_concurrency": self.max_concurrency,
        }

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # -- auth, rate limits and faults ---------------------------------------------------------

    @property
    def rate_limits(self) -> RateLimitConfig:
        return self.limiter.config

    @rate_limits.setter
    def rate_limits(self, config: RateLimitConfig) -> None:
        self.limiter.config = config
        self.limiter.reset()

    def record_rate_limit(self, hit: RateLimitHit) -> None:
        _log.info("429: %s", hit.describe())
        self.rate_limited.append(hit)

    def global_budget(self, token: str | None = None) -> str:
        """The key of a bot token's global budget in ``limiter.sent`` (default: the one token
        the fake accepts)."""
        token = token or self.token
        if token is None:
            raise ValueError("which bot token? the fake accepts any")
        return f"bot:{token}"

    def token_ok(self, token: str | None) -> bool:
        if not token:
            return False
        return self.token is None or token == self.token

    def inject_faults(
        self,
        rate: float,
        *,
        status: int = 429,
        seed: int = 0,
        retry_after: float = 0.05,
        scope: str = "user",
        is_global: bool = False,
        match: Callable[[str, str], bool] | None = None,
    ) -> FaultRule:
        """Answer a seeded fraction ``rate`` of matching REST requests with 429 or 500."""
        self._rng = random.Random(seed)
        rule = FaultRule(
            status,
            rate=rate,
            retry_after=retry_after,
            scope=scope,
            is_global=is_global,
            match=match,
        )
        self.faults.append(rule)
        return rule

    def fail_next(
        self,
        count: int = 1,
        *,
        status: int = 429,
        retry_after: float = 0.05,
        match: Callable[[str, str], bool] | None = None,
    ) -> FaultRule:
        """Answer the next ``count`` matching requests with ``status``."""
        rule = FaultRule(status, remaining=count, retry_after=retry_after, match=match)
        self.faults.append(rule)
        return rule

    def clear_faults(self) -> None:
        self.faults.clear()

    def pick_fault(self, method: str, route: str) -> FaultRule | None:
        for rule in self.faults:
            if rule.match is not None and not rule.match(method, route):
                continue
            if rule.remaining is not None:
                if rule.remaining <= 0:
                    continue
                rule.remaining -= 1
                return rule
            if self._rng.random() < rule.rate:
                return rule
        return None

    def record_call(self, call: RestCall) -> None:
        _log.info(
            "%s %s -> %s%s",
            call.method,
            call.path,
            call.status,
            " (injected)" if call.injected else "",
        )
        self.rest_calls.append(call)
        self.changed()

    # -- world building -----------------------------------------------------------------------

    def _username(self, name: str) -> str:
        base = _USERNAME_CHARS.sub("", name.lower().replace(" ", "_")) or "user"
        candidate, n = base[:32], 1
        while candidate in self._usernames:
            n += 1
            candidate = f"{base[:28]}{n}"
        self._usernames.add(candidate)
        return candidate

    def add_user(
        self, name: str, *, locale: str = DEFAULT_LOCALE, user_id: int | None = None
    ) -> User:
        """``user_id`` gives the user a fixed id (a world rebuilt the same on every start)."""
        user = User(
            user_id or self.ids.next(), self._username(name), name, locale=check_locale(locale)
        )
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        bot_permissions: int = BOT_DEFAULT,
        everyone_permissions: int = EVERYONE_DEFAULT,
        shard_of: tuple[int, int] | None = None,
        preferred_locale: str = DEFAULT_LOCALE,
        guild_id: int | None = None,
    ) -> Guild:
        """``shard_of=(shard_id, num_shards)`` picks an id whose events go to that shard;
        ``guild_id`` fixes it."""
        if guild_id is None:
            guild_id = self.ids.next() if shard_of is None else self.ids.next_on_shard(*shard_of)
        owner = owner or self.application.owner
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=owner.id,
            preferred_locale=check_locale(preferred_locale),
        )
        guild.roles[guild_id] = Role(guild_id, "@everyone", everyone_permissions)
        moderator = Role(self.ids.next(), "Moderator", MANAGE_MESSAGES, position=1)
        guild.roles[moderator.id] = moderator
        guild.moderator_role_id = moderator.id
        bot_role = Role(
            self.ids.next(),
            self.application.name,
            bot_permissions,
            position=2,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.bot_role_id = bot_role.id
        self.guilds[guild_id] = guild
        self._join(guild, owner, [])
        self._join(guild, self.bot_user, [bot_role.id])
        self.gateway.guild_available(guild)
        self.changed()
        return guild

    def set_locale(self, user: User, locale: str) -> None:
        """The user switches their client's language (no gateway event: it is a client
        setting; the next interaction carries it)."""
        user.locale = check_locale(locale)
        self.changed()

    def set_preferred_locale(self, guild: Guild, locale: str) -> None:
        """The server's "primary language" changes: GUILD_UPDATE, as Discord sends."""
        guild.preferred_locale = check_locale(locale)
        self.gateway.dispatch(
            "GUILD_UPDATE",
            guild.base_payload(self.application.id),
            intent=INTENT_GUILDS,
            guild_id=guild.id,
        )
        self.changed()

    def add_member(
        self, guild: Guild, user: User, *, manage_messages: bool = False, admin: bool = False
    ) -> Member:
        roles: list[int] = []
        if manage_messages and guild.moderator_role_id is not None:
            roles.append(guild.moderator_role_id)
        if admin:
            role = Role(self.ids.next(), f"Admin {user.username}", ADMINISTRATOR, position=3)
            guild.roles[role.id] = role
            roles.append(role.id)
        member = self._join(guild, user, roles)
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
            guild_id=guild.id,
        )
        self.changed()
        return member

    def _join(self, guild: Guild, user: User, roles: list[int]) -> Member:
        member = Member(user=user, guild_id=guild.id, role_ids=roles, joined_at=iso_now())
        guild.members[user.id] = member
        return member

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        thread: bool = False,
        parent: Channel | None = None,
        private: bool = False,
        channel_id: int | None = None,
    ) -> Channel:
        """``channel_id`` gives the channel a fixed id (a world rebuilt the same on every
        start)."""
        if thread:
            parent = parent or next(iter(guild.text_channels()), None)
            if parent is None:
                raise ValueError("a thread needs a text channel to live in")
            kind = CHANNEL_PRIVATE_THREAD if private else CHANNEL_PUBLIC_THREAD
            channel = Channel(
                channel_id or self.ids.next(), guild.id, name, kind, parent_id=parent.id,
                owner_id=guild.owner_id,
            )
        else:
            channel = Channel(
                channel_id or self.ids.next(),
                guild.id,
                name,
                CHANNEL_GUILD_TEXT,
                position=len(guild.text_channels()),
            )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        if thread:
            payload = {**channel.payload(), "newly_created": True}
            self.gateway.dispatch(
                "THREAD_CREATE", payload, intent=INTENT_GUILDS, guild_id=guild.id
            )
        else:
            self.gateway.dispatch(
                "CHANNEL_CREATE", channel.payload(), intent=INTENT_GUILDS, guild_id=guild.id
            )
        self.changed()
        return channel

    def start_thread(self, parent: Channel, body: Any) -> Channel:
        """Discord's "Start Thread without Message" (``POST /channels/{id}/threads``) by the
        bot: a public thread needs Create Public Threads, a private one Create Private Threads
        (403 50013 without; 50001 without View Channel), only in a text channel (400 50024
        in a thread or a category); ``type`` defaults to a private thread in API v9 and v10.
        The thread is announced with THREAD_CREATE (``newly_created``), as Discord does."""
        self.require_bot_permissions(parent)
        if not isinstance(body, dict):
            raise errors.bad_json()
        problems = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.required(("name",))
        elif len(name) > 100:
            problems.max_length(("name",), 100)
        kind = body.get("type")
        kind = CHANNEL_PRIVATE_THREAD if kind is None else kind
        if kind not in (CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD):
            problems.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
        problems.raise_if_any()
        if parent.type != CHANNEL_GUILD_TEXT:
            raise errors.wrong_channel_type()
        needed = CREATE_PUBLIC_THREADS if kind == CHANNEL_PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not self.bot_permissions(parent.guild_id) & needed:
            raise errors.missing_permissions()
        guild = self.guilds[parent.guild_id]
        thread = Channel(self.ids.next(), guild.id, name.strip(), kind, parent_id=parent.id,
                         owner_id=self.bot_user.id)
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True},
                              intent=INTENT_GUILDS, guild_id=guild.id)
        self.changed()
        return thread

    # -- lookups ------------------------------------------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise errors.unknown_channel()
        return channel

    def guild(self, guild_id: int) -> Guild:
        guild = self.guilds.get(guild_id)
        if guild is None or self.bot_user.id not in guild.members:
            raise errors.unknown_guild()
        return guild

    def bot_permissions(self, guild_id: int, channel: Channel | None = None) -> int:
        """The bot's permissions in the guild, or in ``channel`` (its overwrites applied)."""
        guild = self.guilds[guild_id]
        if channel is None:
            return guild.permissions_of(self.bot_user.id)
        return guild.permissions_in(self.bot_user.id, channel)

    def set_overwrite(self, channel: Channel, target_id: int, kind: int, *, allow: int = 0,
                      deny: int = 0) -> None:
        """Set ``channel``'s permission overwrite for a role (``kind`` 0) or a member (1), as
        a member with Manage Roles would; all zero removes it. CHANNEL_UPDATE, as Discord
        sends."""
        kept = [o for o in channel.overwrites if not (int(o["id"]) == target_id
                                                      and o["type"] == kind)]
        if allow or deny:
            kept.append({"id": str(target_id), "type": kind, "allow": str(allow),
                         "deny": str(deny)})
        channel.overwrites = kept
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=INTENT_GUILDS,
                              guild_id=channel.guild_id)
        self.changed()

    def public_message(self, channel_id: int, message_id: int) -> StoredMessage:
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel_id
            or message.ephemeral_for is not None
        ):
            raise errors.unknown_message()
        return message

    # -- messages -----------------------------------------------------------------------------

    def _normalise_components(self, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Discord numbers components that carry no ``id`` (1, 2, ... across the message) and
        returns emoji ids as snowflake strings; a Unicode emoji comes back without an ``id``
        (its description's ComponentEmojiResponse has no null id)."""
        result: list[dict[str, Any]] = copy_json(components)
        counter = [0]

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                counter[0] += 1
                if item.get("id") is None:
                    item["id"] = counter[0]
                for holder in [item, *(item.get("options") or [])]:
                    emoji = holder.get("emoji")
                    if isinstance(emoji, dict) and emoji.get("id") is not None:
                        emoji["id"] = str(emoji["id"])
                    elif isinstance(emoji, dict):
                        emoji.pop("id", None)
                walk(item.get("components") or [])
                for key in ("accessory", "component"):
                    if isinstance(item.get(key), dict):
                        walk([item[key]])

        walk(result)
        return result

    @staticmethod
    def _normalise_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = copy_json(embeds)
        for embed in result:
            embed.setdefault("type", "rich")
            embed["content_scan_version"] = 0
        return result

    def _attachment_factory(self, channel_id: int, *, ephemeral: bool) -> NewAttachment:
        def new(upload: Upload, meta: dict[str, Any]) -> Attachment:
            attachment_id = self.ids.next()
            name = meta.get("filename") or upload.filename
            return Attachment(
                id=attachment_id,
                filename=name,
                content_type=upload.content_type,
                data=upload.data,
                url=f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{name}",
                description=meta.get("description"),
                title=meta.get("title"),
                spoiler=spoiler_from(upload, meta),
                ephemeral=ephemeral,
            )

        return new

    def _files_after(
        self,
        form: FormErrors,
        path: tuple[str | int, ...],
        body: dict[str, Any],
        uploads: list[Upload],
        existing: list[Attachment],
        *,
        channel_id: int,
        ephemeral: bool,
        editing: bool,
    ) -> list[Attachment]:
        check_uploads(uploads)
        result = attachments_after(
            form,
            path,
            body,
            uploads,
            existing,
            self._attachment_factory(channel_id, ephemeral=ephemeral),
            editing=editing,
        )
        if len(result) > MAX_ATTACHMENTS:
            raise too_many_attachments()
        return result

    def _store_files(self, attachments: list[Attachment]) -> None:
        for attachment in attachments:
            self.attachments[attachment.id] = attachment

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        *,
        files: list[Upload] | None = None,
        path: tuple[str | int, ...] = (),
        ephemeral_for: int | None = None,
        extra_flags: int = 0,
        webhook: bool = False,
        message_type: int = MESSAGE_DEFAULT,
        interaction: InteractionRecord | None = None,
        allow_empty: bool = False,
        channel_webhook: Webhook | None = None,
    ) -> StoredMessage:
        """``webhook``: sent through the application's interaction webhook;
        ``channel_webhook``: executed by a channel's webhook (its author)."""
        webhook = webhook or channel_webhook is not None
        form = FormErrors()
        validate_message_body(form, path, body, known_emoji=self.emojis.known)
        attachments = self._files_after(
            form,
            path,
            body,
            files or [],
            [],
            channel_id=channel.id,
            ephemeral=ephemeral_for is not None,
            editing=False,
        )
        form.raise_if_any()
        nonce = body.get("nonce")
        if body.get("enforce_nonce") and nonce is not None and not webhook:
            # Discord: with enforce_nonce, a message the same author created with the same
            # nonce in the past few minutes is returned instead of a new one
            seen = self._nonces.get((author.id, str(nonce)))
            if seen is not None and self.clock() - seen[1] < NONCE_WINDOW:
                earlier = self.messages.get(seen[0])
                if earlier is not None and not earlier.deleted:
                    return earlier
        flags = (body.get("flags") or 0) & _CREATE_FLAGS | extra_flags
        if ephemeral_for is not None:
            flags |= FLAG_EPHEMERAL
        content = body.get("content") or ""
        embeds, components = resolve_references(
            body.get("embeds") or [], body.get("components") or [], attachments
        )
        if not (allow_empty or content or embeds or components or attachments):
            raise errors.empty_message()
        guild = self.guilds.get(channel.guild_id)
        allowed = body.get("allowed_mentions")
        users, roles, everyone = resolve_mentions(
            content, allowed, WEBHOOK_DEFAULT_MENTIONS if webhook else None
        )
        if everyone and not webhook and guild is not None:
            everyone = bool(guild.permissions_of(author.id) & (1 << 17))
        referenced = self._referenced(channel, body.get("message_reference"), path)
        if referenced is not None:
            message_type = MESSAGE_REPLY
            # a reply pings its target unless allowed_mentions leaves replied_user out
            pings_target = allowed is None or bool(allowed.get("replied_user"))
            target = referenced.author.id
            if pings_target and target != author.id and target not in users:
                users.append(target)
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=self._normalise_embeds(embeds),
            components=self._normalise_components(components),
            flags=flags,
            type=message_type,
            tts=bool(body.get("tts")),
            ephemeral_for=ephemeral_for,
            mentions=[self.users[u] for u in users if u in self.users],
            mention_role_ids=roles,
            mention_everyone=everyone,
            nonce=body.get("nonce"),
            author_member=guild.members.get(author.id) if guild is not None else None,
            referenced=referenced,
        )
        message.attachments = attachments
        self._store_files(attachments)
        if channel_webhook is not None:
            message.webhook_id = channel_webhook.id
            message.application_id = channel_webhook.application_id
            message.author_member = None
        elif webhook:
            message.webhook_id = self.application.id
            message.application_id = self.application.id
            message.author_member = None
        if interaction is not None:
            self._attach_interaction(message, interaction)
        self.messages[message.id] = message
        if body.get("enforce_nonce") and nonce is not None and not webhook:
            self._nonces[(author.id, str(nonce))] = (message.id, self.clock())
        # ids grow, so appending keeps each channel's list in order
        self._by_channel.setdefault(channel.id, []).append(message)
        if ephemeral_for is None:
            channel.last_message_id = message.id
            channel.message_count += 1
        self.log.append(LogEntry.of(self.next_seq(), "create", message))
        self._note_unknown_emojis(message)
        if ephemeral_for is None and not flags & FLAG_SUPPRESS_NOTIFICATIONS:
            self._record_pings(message, guild)
        if ephemeral_for is None:
            self.gateway.dispatch_message("MESSAGE_CREATE", message)
        self.changed()
        return message

    def _note_unknown_emojis(self, message: StoredMessage) -> None:
        """Discord accepts any ``<:name:id>`` in content, but one that is no emoji the app can
        use shows as plain ``:name:``; tests see those in ``unknown_emojis``."""
        for name, emoji_id in content_emoji_ids(message.content):
            if not self.emojis.known(emoji_id):
                miss = UnknownEmoji(message.id, message.version, name, emoji_id)
                self.unknown_emojis.append(miss)

    def _referenced(
        self, channel: Channel, reference: Any, path: tuple[str | int, ...]
    ) -> StoredMessage | None:
        if not isinstance(reference, dict) or reference.get("message_id") is None:
            return None
        found = self.messages.get(int(reference["message_id"]))
        if found is None or found.deleted or found.channel_id != channel.id or found.ephemeral:
            if reference.get("fail_if_not_exists", True) is False:
                return None
            form = FormErrors()
            form.add(
                (*path, "message_reference"), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
            )
            form.raise_if_any()
        return found

    def _attach_interaction(self, message: StoredMessage, record: InteractionRecord) -> None:
        meta = _interaction_metadata(record, message.id)
        if record.opened_by is not None:
            # a modal submission's metadata carries the one that opened the modal (Discord's
            # "Message Interaction Metadata": triggering_interaction_metadata)
            meta["triggering_interaction_metadata"] = _interaction_metadata(record.opened_by, None)
        message.interaction_metadata = meta
        if record.type == INTERACTION_APPLICATION_COMMAND:
            message.legacy_interaction = {
                "id": str(record.id),
                "type": record.type,
                "name": command_path(record.data).lstrip("/"),
                "user": record.user.payload(),
            }

    def _record_pings(self, message: StoredMessage, guild: Guild | None) -> None:
        targets = [u.id for u in message.mentions]
        # only @everyone/@here and role mentions reach beyond the named users
        if guild is not None and (message.mention_everyone or message.mention_role_ids):
            for member in guild.members.values():
                hit = message.mention_everyone or any(
                    r in member.role_ids for r in message.mention_role_ids
                )
                if hit and member.user.id not in targets and not member.user.bot:
                    targets.append(member.user.id)
        for user_id in targets:
            if user_id != message.author.id:
                self.pings.append(Ping(self.next_seq(), user_id, message.id, message.channel_id))

    def edit_message(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        *,
        files: list[Upload] | None = None,
        path: tuple[str | int, ...] = (),
    ) -> StoredMessage:
        form = FormErrors()
        validate_message_body(
            form, path, body, existing_flags=message.flags, known_emoji=self.emojis.known
        )
        attachments = self._files_after(
            form,
            path,
            body,
            files or [],
            message.attachments,
            channel_id=message.channel_id,
            ephemeral=message.ephemeral_for is not None,
            editing=True,
        )
        form.raise_if_any()
        new_flags = message.flags & ~FLAG_LOADING
        if "flags" in body and body["flags"] is not None:
            # only SUPPRESS_EMBEDS can be toggled on an existing message
            new_flags = (new_flags & ~FLAG_SUPPRESS_EMBEDS) | (body["flags"] & FLAG_SUPPRESS_EMBEDS)
            if body["flags"] & FLAG_IS_COMPONENTS_V2:
                new_flags |= FLAG_IS_COMPONENTS_V2
        content = body["content"] or "" if "content" in body else message.content
        embeds = body["embeds"] or [] if "embeds" in body else message.embeds
        components = body["components"] or [] if "components" in body else message.components
        if not (content or embeds or components or attachments):
            raise errors.empty_message()
        message.content = content
        if "embeds" in body:
            message.embeds = self._normalise_embeds(embeds)
        if "components" in body:
            message.components = self._normalise_components(components)
        message.embeds, message.components = resolve_references(
            message.embeds, message.components, attachments
        )
        message.attachments = attachments
        self._store_files(attachments)
        if "content" in body:
            users, roles, everyone = resolve_mentions(
                content,
                body.get("allowed_mentions"),
                WEBHOOK_DEFAULT_MENTIONS if message.webhook_id else None,
            )
            message.mentions = [self.users[u] for u in users if u in self.users]
            message.mention_role_ids = roles
            message.mention_everyone = everyone
        completes_defer = message.loading
        message.flags = new_flags
        if not completes_defer:
            message.edited_timestamp = iso_now()
        message.version += 1
        self.log.append(LogEntry.of(self.next_seq(), "edit", message))
        self._note_unknown_emojis(message)
        if (
            completes_defer
            and message.ephemeral_for is None
            and not (message.flags & FLAG_SUPPRESS_NOTIFICATIONS)
        ):
            # filling in a "thinking…" message is its real sending, so its mentions notify
            self._record_pings(message, self.guilds.get(message.guild_id or 0))
        if message.ephemeral_for is None:
            self.gateway.dispatch_message("MESSAGE_UPDATE", message)
        self.changed()
        return message

    def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        self.log.append(LogEntry.of(self.next_seq(), "delete", message))
        if message.ephemeral_for is None:
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                payload["guild_id"] = str(message.guild_id)
            self.gateway.dispatch(
                "MESSAGE_DELETE", payload, intent=INTENT_GUILD_MESSAGES, guild_id=message.guild_id
            )
        self.changed()

    def require_bot_permissions(self, channel: Channel, *, send: bool = False) -> None:
        perms = self.bot_permissions(channel.guild_id, channel)
        if not perms & VIEW_CHANNEL:
            raise errors.missing_access()
        if send:
            needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            if not perms & needed:
                raise errors.missing_permissions()

    def channel_messages(self, channel_id: int) -> list[StoredMessage]:
        """The channel's public messages that exist, oldest first."""
        return [
            m
            for m in self.channel_history(channel_id)
            if not m.deleted and m.ephemeral_for is None
        ]

    def channel_history(self, channel_id: int) -> list[StoredMessage]:
        """Every message ever made in the channel (ephemeral and deleted too), oldest first;
        kept per channel so no request scans the whole server."""
        return self._by_channel.get(channel_id, [])

    # -- application commands -----------------------------------------------------------------

    def command_scope(self, guild_id: int | None) -> dict[tuple[int, str], dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        self.guild(guild_id)
        return self.guild_commands.setdefault(guild_id, {})

    def _store_command(
        self,
        scope: dict[tuple[int, str], dict[str, Any]],
        body: dict[str, Any],
        guild_id: int | None,
    ) -> dict[str, Any]:
        kind = body.get("type", 1)
        key = (kind, body["name"])
        previous = scope.get(key)
        command: dict[str, Any] = {
            "id": previous["id"] if previous else str(self.ids.next()),
            "application_id": str(self.application.id),
            "version": str(self.ids.next()),
            "default_member_permissions": body.get("default_member_permissions"),
            "type": kind,
            "name": body["name"],
            "name_localizations": _without_defaults(body, "name"),
            "description": body.get("description") or "",
            "description_localizations": _without_defaults(body, "description"),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw")),
        }
        if body.get("options"):
            command["options"] = _clean_options(body["options"])
        if guild_id is None:
            command["dm_permission"] = body.get("dm_permission", True)
        else:
            command["guild_id"] = str(guild_id)
        if command["default_member_permissions"] is not None:
            command["default_member_permissions"] = str(command["default_member_permissions"])
        scope[key] = command
        return command

    def put_commands(self, guild_id: int | None, body: Any) -> list[dict[str, Any]]:
        scope = self.command_scope(guild_id)
        form = FormErrors()
        validate_commands(form, body)
        form.raise_if_any()
        old = dict(scope)
        scope.clear()
        for item in body:
            key = (item.get("type", 1), item["name"])
            if key in old:
                scope[key] = old[key]
            self._store_command(scope, item, guild_id)
        self.changed()
        return [copy.deepcopy(c) for c in scope.values()]

    def upsert_command(self, guild_id: int | None, body: Any) -> tuple[dict[str, Any], bool]:
        scope = self.command_scope(guild_id)
        form = FormErrors()
        validate_commands(form, [body])
        form.raise_if_any()
        existed = (body.get("type", 1), body["name"]) in scope
        command = self._store_command(scope, body, guild_id)
        self.changed()
        return copy.deepcopy(command), not existed

    def find_command(self, guild_id: int | None, command_id: int) -> dict[str, Any]:
        for command in self.command_scope(guild_id).values():
            if int(command["id"]) == command_id:
                return command
        raise errors.unknown_application_command()

    def delete_command(self, guild_id: int | None, command_id: int) -> None:
        scope = self.command_scope(guild_id)
        command = self.find_command(guild_id, command_id)
        del scope[(command["type"], command["name"])]
        self.changed()

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands as the bot synced them (global, or one server's), localizations and
        all: copies of what Discord stores."""
        scope = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, {})
        return [copy.deepcopy(c) for c in scope.values()]

    def synced_command(self, guild_id: int | None, name: str) -> dict[str, Any] | None:
        """The chat-input command a user in ``guild_id`` would see: guild first, then global."""
        if guild_id is not None:
            found = self.guild_commands.get(guild_id, {}).get((1, name))
            if found is not None:
                return found
        return self.global_commands.get((1, name))

    # -- interactions -------------------------------------------------------------------------

    def create_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: StoredMessage | None = None,
        focused_type: int | None = None,
        opened_by: InteractionRecord | None = None,
    ) -> InteractionRecord:
        """Build an INTERACTION_CREATE exactly as Discord sends it, dispatch it, start the clock.
        A modal submission names the interaction that opened its modal (``opened_by``)."""
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        interaction_id = self.ids.next()
        token = new_token("aW50ZXJhY3Rpb246")
        permissions = str(guild.permissions_in(user.id, channel))
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application.id),
            "type": kind,
            "data": data,
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "guild_id": str(guild.id),
            "channel": {**channel.payload(), "permissions": permissions},
            "channel_id": str(channel.id),
            "member": {**member.payload(), "permissions": permissions},
            "token": token,
            "version": 1,
            "app_permissions": str(self.bot_permissions(guild.id, channel)),
            "locale": user.locale,
            "guild_locale": guild.preferred_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = message.payload()
        loop = asyncio.get_running_loop()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            guild_id=guild.id,
            channel_id=channel.id,
            payload=payload,
            created_at=loop.time(),
            issued_at=self.clock(),
            acknowledged=loop.create_future(),
            focused_type=focused_type,
            component_message_id=message.id if message is not None else None,
            opened_by=opened_by,
        )
        record.deadline_handle = loop.call_later(
            self.interaction_deadline, self._deadline_passed, record
        )
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        # needs no intent; only the sessions whose shard owns the guild get it
        self.gateway.dispatch("INTERACTION_CREATE", payload, intent=None, guild_id=guild.id)
        _log.info("INTERACTION_CREATE %s", record.describe())
        self.changed()
        return record

    def _deadline_passed(self, record: InteractionRecord) -> None:
        if record.answered or record.failed:
            return
        record.failed = True
        reason = f"no callback within {self.interaction_deadline:g} s"
        if record.rejected:
            last = record.rejected[-1]
            reason += f"; the bot's callback was rejected with {last.status} {last.body()}"
        if not self.gateway.live_sessions(record.guild_id):
            reason += "; no bot session owning this server's shard was connected to the gateway"
        record.failure = reason
        _log.warning("%s: This interaction failed (%s)", record.describe(), reason)
        if not record.acknowledged.done():
            record.acknowledged.set_result(None)
        self.changed()

    def _acknowledge(self, record: InteractionRecord, callback_type: int) -> None:
        record.callback_type = callback_type
        record.callback_at = asyncio.get_running_loop().time()
        if record.deadline_handle is not None:
            record.deadline_handle.cancel()
        if not record.acknowledged.done():
            record.acknowledged.set_result(None)

    def interaction_callback(
        self,
        interaction_id: int,
        token: str,
        body: Any,
        files: list[Upload],
    ) -> tuple[InteractionRecord, StoredMessage | None]:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise errors.unknown_interaction()
        now = asyncio.get_running_loop().time()
        if record.failed or now - record.created_at > self.interaction_deadline:
            self._deadline_passed(record)
            raise errors.unknown_interaction()
        if record.answered:
            raise errors.already_acknowledged()
        try:
            message = self._apply_callback(record, body, files)
        except DiscordHTTPError as exc:
            if exc.status == 400:
                record.rejected.append(exc)
                self.changed()
            raise
        self.changed()
        return record, message

    def _apply_callback(
        self, record: InteractionRecord, body: Any, files: list[Upload]
    ) -> StoredMessage | None:
        if not isinstance(body, dict):
            raise errors.invalid_form_body(
                {
                    "_errors": [
                        {"code": "MODEL_TYPE_CONVERT", "message": "Only dictionaries may be used"}
                    ]
                }
            )
        callback_type = body.get("type")
        allowed = ALLOWED_CALLBACKS.get(record.type, ())
        if callback_type in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE) and (
            record.component_message_id is None
        ):
            allowed = tuple(a for a in allowed if a not in (6, 7))
        if callback_type not in allowed:
            raise errors.invalid_form_body(
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_CHOICES",
                                "message": f"Value must be one of {set(allowed)}.",
                            }
                        ]
                    }
                }
            )
        data = body.get("data") or {}
        channel = self.channels[record.channel_id]
        ephemeral = bool((data.get("flags") or 0) & FLAG_EPHEMERAL)
        message_type = (
            MESSAGE_CHAT_INPUT_COMMAND
            if record.type == INTERACTION_APPLICATION_COMMAND
            else MESSAGE_DEFAULT
        )
        message: StoredMessage | None = None
        if callback_type == CALLBACK_CHANNEL_MESSAGE:
            message = self.create_message(
                channel,
                self.bot_user,
                data,
                files=files,
                path=("data",),
                ephemeral_for=record.user.id if ephemeral else None,
                webhook=True,
                message_type=message_type,
                interaction=record,
            )
            record.original_id = message.id
        elif callback_type == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            message = self.create_message(
                channel,
                self.bot_user,
                {},
                path=("data",),
                ephemeral_for=record.user.id if ephemeral else None,
                webhook=True,
                extra_flags=FLAG_LOADING,
                message_type=message_type,
                interaction=record,
                allow_empty=True,
            )
            record.original_id = message.id
            record.deferred_followup_pending = True
        elif callback_type == CALLBACK_DEFERRED_UPDATE_MESSAGE:
            record.original_id = record.component_message_id
        elif callback_type == CALLBACK_UPDATE_MESSAGE:
            assert record.component_message_id is not None
            target = self.messages[record.component_message_id]
            if target.deleted:
                raise errors.unknown_message()
            message = self.edit_message(target, data, files=files, path=("data",))
            record.original_id = target.id
        elif callback_type == CALLBACK_AUTOCOMPLETE_RESULT:
            form = FormErrors()
            validate_autocomplete_choices(form, ("data",), data, record.focused_type)
            form.raise_if_any()
            record.choices = copy.deepcopy(data["choices"])
        elif callback_type == CALLBACK_MODAL:
            form = FormErrors()
            validate_modal(form, ("data",), data)
            form.raise_if_any()
            record.modal = copy.deepcopy(data)
        self._acknowledge(record, callback_type)
        return message

    def callback_response(
        self, record: InteractionRecord, message: StoredMessage | None
    ) -> dict[str, Any]:
        """The documented InteractionCallbackResponse (``?with_response=true``)."""
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        if record.original_id is not None:
            original = self.messages[record.original_id]
            interaction["response_message_id"] = str(original.id)
            interaction["response_message_loading"] = original.loading
            interaction["response_message_ephemeral"] = original.ephemeral
        response: dict[str, Any] = {"interaction": interaction}
        # the resource is the message the callback created or updated; Discord's docs give it
        # "only if type is either CHANNEL_MESSAGE_WITH_SOURCE or UPDATE_MESSAGE", so a deferral
        # (5, 6) answers without one, its loading message known only by id above
        if message is not None and record.callback_type in _CALLBACKS_WITH_RESOURCE:
            response["resource"] = {"type": record.callback_type, "message": message.payload()}
        return response

    # -- interaction webhooks (follow-ups and @original) ----------------------------------------

    def webhook_record(self, application_id: int, token: str) -> InteractionRecord:
        if application_id != self.application.id:
            raise errors.unknown_webhook()
        record = self._by_token.get(token)
        if record is None:
            raise errors.invalid_webhook_token()
        # the token works for 15 minutes, on the fake's clock (Discord docs, "Followup Messages")
        if self.clock() - record.issued_at > WEBHOOK_TOKEN_LIFETIME:
            raise errors.invalid_webhook_token()
        return record

    def webhook_message(self, record: InteractionRecord, message_ref: str) -> StoredMessage:
        if message_ref == "@original":
            if record.original_id is None:
                raise errors.unknown_message()
            message = self.messages[record.original_id]
        else:
            try:
                message_id = int(message_ref)
            except ValueError:
                raise errors.unknown_message() from None
            message = self.messages.get(message_id)  # type: ignore[assignment]
            owned = {record.original_id, record.component_message_id, *record.followup_ids}
            if message is None or (
                message_id not in owned
                and not (
                    message.webhook_id == self.application.id
                    and message.channel_id == record.channel_id
                    and message.ephemeral_for is None
                )
            ):
                raise errors.unknown_message()
        if message.deleted:
            raise errors.unknown_message()
        return message

    def execute_followup(
        self, record: InteractionRecord, body: dict[str, Any], files: list[Upload]
    ) -> StoredMessage:
        if not record.answered:
            raise errors.unknown_webhook()
        if record.deferred_followup_pending and record.original_id is not None:
            # After a deferred channel message the first follow-up edits the loading message,
            # keeping the defer's ephemerality (Discord docs, "Create Followup Message").
            record.deferred_followup_pending = False
            original = self.messages[record.original_id]
            edit = {k: v for k, v in body.items() if k != "flags"}
            message = self.edit_message(original, edit, files=files)
            self.changed()
            return message
        ephemeral = bool((body.get("flags") or 0) & FLAG_EPHEMERAL)
        channel = self.channels[record.channel_id]
        message_type = (
            MESSAGE_CHAT_INPUT_COMMAND
            if record.type == INTERACTION_APPLICATION_COMMAND
            else MESSAGE_DEFAULT
        )
        message = self.create_message(
            channel,
            self.bot_user,
            body,
            files=files,
            ephemeral_for=record.user.id if ephemeral else None,
            webhook=True,
            message_type=message_type,
            interaction=record,
        )
        record.followup_ids.append(message.id)
        self.changed()
        return message

    def edit_webhook_message(
        self,
        record: InteractionRecord,
        message_ref: str,
        body: dict[str, Any],
        files: list[Upload],
    ) -> StoredMessage:
        message = self.webhook_message(record, message_ref)
        if message.id == record.original_id:
            record.deferred_followup_pending = False
        return self.edit_message(message, body, files=files)

    # -- channel webhooks ----------------------------------------------------------------------

    def create_webhook(self, channel: Channel, body: Any, creator: User) -> Webhook:
        """Discord's Create Webhook: Manage Webhooks in the channel (403 50013), a channel
        that is no thread (400 50024: a webhook lives on the parent, and executes into its
        threads), a valid name (1-80 characters, without "clyde" or "discord" in any case),
        at most 15 a channel (400 30007). A bot's webhook is its application's. Fires
        WEBHOOKS_UPDATE."""
        permissions = self.guilds[channel.guild_id].permissions_in(creator.id, channel)
        if not permissions & VIEW_CHANNEL:
            raise errors.missing_access()
        if not permissions & MANAGE_WEBHOOKS:
            raise errors.missing_permissions()
        if not isinstance(body, dict):
            raise errors.bad_json()
        problems = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.required(("name",))
        elif len(name) > 80:
            problems.bad_length(("name",), 1, 80)
        elif "clyde" in name.lower() or "discord" in name.lower():
            problems.add(("name",), "WEBHOOK_INVALID_NAME",
                         "Webhook names cannot contain \"clyde\" or \"discord\"")
        problems.raise_if_any()
        if channel.is_thread or channel.type != CHANNEL_GUILD_TEXT:
            raise errors.wrong_channel_type()
        if len(self.channel_webhooks(channel)) >= MAX_WEBHOOKS_PER_CHANNEL:
            raise errors.max_webhooks()
        application = self.application.id if creator.id == self.bot_user.id else None
        webhook = Webhook(self.ids.next(), channel.guild_id, channel.id, name, new_token(""),
                          creator, application)
        self.webhooks[webhook.id] = webhook
        self._webhooks_changed(webhook)
        return webhook

    def channel_webhooks(self, channel: Channel) -> list[Webhook]:
        return [w for w in self.webhooks.values() if w.channel_id == channel.id]

    def webhook_by_id(self, webhook_id: int) -> Webhook:
        """A webhook for the bot's own requests (Get and Delete Webhook): Manage Webhooks
        in its channel."""
        webhook = self.webhooks.get(webhook_id)
        if webhook is None:
            raise errors.unknown_webhook()
        channel = self.channel(webhook.channel_id)
        if not self.bot_permissions(channel.guild_id, channel) & MANAGE_WEBHOOKS:
            raise errors.missing_permissions()
        return webhook

    def webhook_by_token(self, webhook_id: int, token: str) -> Webhook:
        webhook = self.webhooks.get(webhook_id)
        if webhook is None:
            raise errors.unknown_webhook()
        if webhook.token != token:
            raise errors.invalid_webhook_token()
        return webhook

    def delete_webhook(self, webhook: Webhook) -> None:
        """The webhook is gone (the bot, or a member in the channel's Integrations settings);
        its messages stay, and nobody can edit them any more."""
        if self.webhooks.pop(webhook.id, None) is not None:
            self._webhooks_changed(webhook)

    def _webhooks_changed(self, webhook: Webhook) -> None:
        self.gateway.dispatch(
            "WEBHOOKS_UPDATE",
            {"guild_id": str(webhook.guild_id), "channel_id": str(webhook.channel_id)},
            intent=INTENT_GUILD_WEBHOOKS,
            guild_id=webhook.guild_id,
        )
        self.changed()

    def webhook_target(self, webhook: Webhook, thread_id: int | None) -> Channel:
        """Where ``webhook`` writes: its channel, or (``thread_id``) a thread of it (400
        50035 otherwise, as for any other channel id)."""
        if thread_id is None:
            return self.channel(webhook.channel_id)
        thread = self.channels.get(thread_id)
        if thread is None or not thread.is_thread or thread.parent_id != webhook.channel_id:
            raise errors.invalid_form_body({"thread_id": {"_errors": [
                {"code": "GUILD_CHANNEL_INVALID_PARENT", "message": "Unknown channel"}]}})
        return thread

    def execute_webhook(self, webhook: Webhook, body: dict[str, Any], files: list[Upload],
                        thread_id: int | None) -> StoredMessage:
        """Post a message as ``webhook``. An application-owned webhook may send interactive
        components; any other's are refused here (Discord ignores them without
        ``with_components``, and never takes buttons from one)."""
        channel = self.webhook_target(webhook, thread_id)
        if webhook.application_id is None and isinstance(body, dict) and body.get("components"):
            raise errors.invalid_form_body({"components": {"_errors": [
                {"code": "COMPONENT_INVALID_FOR_WEBHOOK",
                 "message": "Interactive components need an application-owned webhook"}]}})
        return self.create_message(channel, webhook.author, body, files=files,
                                   channel_webhook=webhook)

    def channel_webhook_message(self, webhook: Webhook, message_ref: str,
                                thread_id: int | None) -> StoredMessage:
        """A message ``webhook`` posted, in its channel or (``thread_id``) that thread: a
        message in a thread is found only with its ``thread_id`` (10008 otherwise)."""
        channel = self.webhook_target(webhook, thread_id)
        try:
            message = self.messages.get(int(message_ref))
        except ValueError:
            raise errors.unknown_message() from None
        if (message is None or message.deleted or message.webhook_id != webhook.id
                or message.channel_id != channel.id):
            raise errors.unknown_message()
        return message

    # -- users' own messages ------------------------------------------------------------------

    def user_says(self, user: User, channel: Channel, content: str) -> StoredMessage:
        return self.create_message(channel, user, {"content": content})


def _without_defaults(item: dict[str, Any], field: str) -> dict[str, str] | None:
    """The localizations Discord keeps: "Any localized values that are identical to the
    default will be ignored"."""
    translations = item.get(f"{field}_localizations")
    if translations is None:
        return None
    return {k: v for k, v in translations.items() if v != item.get(field)}


def _clean_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cleaned = []
    for option in options:
        item = {k: v for k, v in option.items() if v is not None}
        for field in ("name", "description"):
            if f"{field}_localizations" in item:
                item[f"{field}_localizations"] = _without_defaults(item, field)
        if item.get("choices"):
            item["choices"] = [
                {**c, "name_localizations": _without_defaults(c, "name")}
                if c.get("name_localizations") is not None
                else c
                for c in item["choices"]
            ]
        if item.get("options"):
            item["options"] = _clean_options(item["options"])
        cleaned.append(item)
    return cleaned


def _interaction_metadata(record: InteractionRecord, message_id: int | None) -> dict[str, Any]:
    """Discord's message interaction metadata object for ``record`` (on message ``message_id``;
    None for the interaction that opened a modal, named inside the submission's)."""
    data = record.data
    meta: dict[str, Any] = {
        "id": str(record.id),
        "type": record.type,
        "user": record.user.payload(),
        "authorizing_integration_owners": {"0": str(record.guild_id)},
    }
    if record.type == INTERACTION_APPLICATION_COMMAND:
        meta["name"] = data.get("name")
        meta["command_type"] = data.get("type", 1)
    if record.component_message_id is not None and record.opened_by is None:
        meta["interacted_message_id"] = str(record.component_message_id)
    if record.original_id is not None and record.original_id != message_id:
        meta["original_response_message_id"] = str(record.original_id)
    return meta
