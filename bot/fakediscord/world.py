"""The world the fake models: the application and its bot user, users, servers (guilds), their
roles, members and channels (threads too), and the permissions that follow from them.

The world announces its changes through ``events`` (the gateway, handed in once it exists) and
wakes waiters through ``changes``; it imports neither the gateway nor the REST routes.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from bot.fakediscord import errors
from bot.fakediscord.changes import Changes
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.intents import INTENT_GUILD_MEMBERS, INTENT_GUILDS
from bot.fakediscord.locales import DEFAULT_LOCALE, check_locale
from bot.fakediscord.model import (
    ADMINISTRATOR,
    BOT_DEFAULT,
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    CHANNEL_GUILD_TEXT,
    CHANNEL_GUILD_VOICE,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EVERYONE_DEFAULT,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USE_EMBEDDED_ACTIVITIES,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Member,
    Role,
    StoredMessage,
    User,
)
from bot.fakediscord.snowflake import SnowflakeFactory, iso_now

_USERNAME_CHARS = re.compile(r"[^a-z0-9_.]")


class Events(Protocol):
    """Where the world's changes go out as gateway events (the gateway implements it)."""

    def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None, guild_id: int | None
    ) -> None: ...

    def dispatch_message(self, event: str, message: StoredMessage) -> None: ...

    def guild_available(self, guild: Guild) -> None: ...

    def live_sessions(self, guild_id: int | None = None) -> list[Any]: ...


class _NoEvents:
    """Before the gateway is wired in: nothing is connected to hear anything."""

    def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None, guild_id: int | None
    ) -> None:
        return None

    def dispatch_message(self, event: str, message: StoredMessage) -> None:
        return None

    def guild_available(self, guild: Guild) -> None:
        return None

    def live_sessions(self, guild_id: int | None = None) -> list[Any]:
        return []


@dataclass
class Application:
    id: int
    name: str
    owner: User
    verify_key: str
    privileged_intents: int
    embedded: bool = False
    """Activities enabled in the Developer Portal."""

    @property
    def flags(self) -> int:
        # The *_LIMITED flags are what a bot in under 100 servers has once the intent is
        # switched on in the developer portal.
        value = 1 << 23  # APPLICATION_COMMAND_BADGE
        if self.embedded:
            value |= 1 << 17  # EMBEDDED: the app has an Activity
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


class World:
    """Users, servers, members and channels; lookups that answer as Discord's errors."""

    def __init__(
        self, ids: SnowflakeFactory, changes: Changes, *, app_name: str, privileged_intents: int
    ) -> None:
        self.ids = ids
        self.changes = changes
        self.events: Events = _NoEvents()
        """The gateway, once wired in by the fake."""
        owner = User(ids.next(), "appowner", "App Owner")
        app_id = ids.next()
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
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.user_installs: set[int] = set()
        """The people who installed the app to their account (integration type 1): its
        commands follow them into group DMs, its DM and servers that never added the bot."""

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
        with_bot: bool = True,
    ) -> Guild:
        """``shard_of=(shard_id, num_shards)`` picks an id whose events go to that shard;
        ``guild_id`` fixes it. ``with_bot=False``: a server whose managers never added the
        bot, where the app reaches only the people who installed it themselves."""
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
        if not with_bot:
            self.guilds[guild_id] = guild
            self._join(guild, owner, [])
            self.changes.changed()
            return guild
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
        self.events.guild_available(guild)
        self.changes.changed()
        return guild

    def install_for(self, user: User) -> None:
        """``user`` installs the app to their account (the user-install link's OAuth2 flow
        with the ``applications.commands`` scope): no bot joins anything, no gateway event."""
        self.user_installs.add(user.id)
        self.changes.changed()

    def add_group_dm(self, owner: User, others: list[User], *, name: str = "",
                     channel_id: int | None = None) -> Channel:
        """A group DM ``owner`` made with ``others`` (at most 10 people in all, as Discord
        allows). The bot is not among its recipients, so the bot token may not read or write
        it; the bot hears nothing of it over the gateway either."""
        people = [owner, *[u for u in others if u.id != owner.id]]
        if len(people) > 10:
            raise ValueError("a group DM holds at most 10 people")
        channel = Channel(channel_id or self.ids.next(), None, name, CHANNEL_GROUP_DM,
                          owner_id=owner.id, recipients=people)
        self.channels[channel.id] = channel
        self.changes.changed()
        return channel

    def bot_dm(self, user: User) -> Channel:
        """The DM between ``user`` and the app's bot user (made on first use)."""
        for channel in self.channels.values():
            if channel.type == CHANNEL_DM and user in channel.recipients:
                return channel
        channel = Channel(self.ids.next(), None, "", CHANNEL_DM,
                          recipients=[user, self.bot_user])
        self.channels[channel.id] = channel
        self.changes.changed()
        return channel

    def set_locale(self, user: User, locale: str) -> None:
        """The user switches their client's language (no gateway event: it is a client
        setting; the next interaction carries it)."""
        user.locale = check_locale(locale)
        self.changes.changed()

    def set_preferred_locale(self, guild: Guild, locale: str) -> None:
        """The server's "primary language" changes: GUILD_UPDATE, as Discord sends."""
        guild.preferred_locale = check_locale(locale)
        self.events.dispatch(
            "GUILD_UPDATE",
            guild.base_payload(self.application.id),
            intent=INTENT_GUILDS,
            guild_id=guild.id,
        )
        self.changes.changed()

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
        self.events.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
            guild_id=guild.id,
        )
        self.changes.changed()
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
        voice: bool = False,
        channel_id: int | None = None,
    ) -> Channel:
        """``channel_id`` gives the channel a fixed id (a world rebuilt the same on every
        start); ``voice`` makes a voice channel (type 2), whose text chat takes messages and
        where Activities are launched."""
        if thread:
            parent = parent or next(
                (c for c in guild.text_channels() if c.type == CHANNEL_GUILD_TEXT), None)
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
                CHANNEL_GUILD_VOICE if voice else CHANNEL_GUILD_TEXT,
                position=len(guild.text_channels()),
            )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        if thread:
            payload = {**channel.payload(), "newly_created": True}
            self.events.dispatch(
                "THREAD_CREATE", payload, intent=INTENT_GUILDS, guild_id=guild.id
            )
        else:
            self.events.dispatch(
                "CHANNEL_CREATE", channel.payload(), intent=INTENT_GUILDS, guild_id=guild.id
            )
        self.changes.changed()
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
        self.events.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True},
                             intent=INTENT_GUILDS, guild_id=guild.id)
        self.changes.changed()
        return thread

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
        self.events.dispatch("CHANNEL_UPDATE", channel.payload(), intent=INTENT_GUILDS,
                             guild_id=channel.guild_id)
        self.changes.changed()

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

    def bot_permissions(self, guild_id: int | None, channel: Channel | None = None) -> int:
        """The bot's permissions in the guild, or in ``channel`` (its overwrites applied); in a
        DM or group DM none unless the bot is a recipient, and no server-only ones there."""
        if guild_id is None:
            if channel is None or self.bot_user not in channel.recipients:
                return 0
            return VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | EMBED_LINKS
        guild = self.guilds.get(guild_id)
        if guild is None:
            return 0
        if channel is None:
            return guild.permissions_of(self.bot_user.id)
        return guild.permissions_in(self.bot_user.id, channel)

    def may_use_activities(self, user: User, channel: Channel) -> bool:
        """Whether the App Launcher offers ``user`` Activities in ``channel``: Use Activities
        (USE_EMBEDDED_ACTIVITIES) in a server's channel; anyone in a DM or group DM."""
        if channel.guild_id is None:
            return True
        guild = self.guilds[channel.guild_id]
        return bool(guild.permissions_in(user.id, channel) & USE_EMBEDDED_ACTIVITIES)

    def require_bot_permissions(self, channel: Channel, *, send: bool = False) -> None:
        perms = self.bot_permissions(channel.guild_id, channel)
        if not perms & VIEW_CHANNEL:
            raise errors.missing_access()
        if send:
            needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            if not perms & needed:
                raise errors.missing_permissions()
