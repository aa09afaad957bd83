"""The fake's world: users, guilds, roles, members, channels (threads too), messages.

Each entity renders itself as the Discord API v10 object (``payload()``), with the fields
discord.py reads and the ones Discord documents as always present.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.fakediscord.attachments import Attachment, attachment_text
from bot.fakediscord.jsonvalue import copy_json
from bot.fakediscord.layouts import layout_text
from bot.fakediscord.locales import DEFAULT_LOCALE
from bot.fakediscord.snowflake import iso_from_snowflake
from bot.fakediscord.validation import (
    COMPONENT_BUTTON,
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    SELECT_TYPES,
)

# Permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
MANAGE_WEBHOOKS = 1 << 29
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EMBEDDED_ACTIVITIES = 1 << 39
USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EMBEDDED_ACTIVITIES
    | USE_EXTERNAL_APPS
)
# What the README asks the inviter to grant (View Channels, Send Messages [in Threads],
# Create Public Threads, Embed Links, Read Message History).
BOT_DEFAULT = (
    VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS | CREATE_PUBLIC_THREADS | EMBED_LINKS
    | READ_MESSAGE_HISTORY
)

CHANNEL_GUILD_TEXT = 0
CHANNEL_DM = 1
CHANNEL_GUILD_VOICE = 2
CHANNEL_GROUP_DM = 3
PRIVATE_TYPES = (CHANNEL_DM, CHANNEL_GROUP_DM)
CHANNEL_GUILD_CATEGORY = 4
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12
THREAD_TYPES = (CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)

MESSAGE_DEFAULT = 0
MESSAGE_REPLY = 19
MESSAGE_CHAT_INPUT_COMMAND = 20
MESSAGE_CONTEXT_MENU_COMMAND = 23

_USER_MENTION = re.compile(r"<@!?(\d{15,21})>")
_ROLE_MENTION = re.compile(r"<@&(\d{15,21})>")


@dataclass
class User:
    id: int
    username: str
    global_name: str | None
    bot: bool = False
    # the language the user's Discord client is set to; interactions carry it
    locale: str = DEFAULT_LOCALE

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "collectibles": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
            data["global_name"] = None
        return data

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass
class Member:
    user: User
    guild_id: int
    role_ids: list[int]
    joined_at: str
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Channel:
    id: int
    guild_id: int | None
    """``None`` for a DM or a group DM, which belong to no server."""
    name: str
    type: int = CHANNEL_GUILD_TEXT
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    topic: str | None = None
    last_message_id: int | None = None
    message_count: int = 0
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    """Permission overwrites as Discord sends them (``id``, ``type`` 0 role / 1 member,
    ``allow``, ``deny`` as strings); a thread has none of its own: its parent's apply."""
    recipients: list[User] = field(default_factory=list)
    """A DM's or group DM's people (Discord lists them without whoever reads the channel)."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_private(self) -> bool:
        return self.type in PRIVATE_TYPES

    def private_payload(self, viewer: int | None = None) -> dict[str, Any]:
        """A DM or group DM as Discord's Channel Object has it: no guild, its recipients
        (less ``viewer``); a group DM's name, icon and owner."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "recipients": [u.payload() for u in self.recipients if u.id != viewer],
            "flags": 0,
        }
        if self.type == CHANNEL_GROUP_DM:
            data.update({"name": self.name or None, "icon": None,
                         "owner_id": str(self.owner_id) if self.owner_id else None})
        return data

    def payload(self) -> dict[str, Any]:
        if self.is_private:
            return self.private_payload()
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                {
                    "owner_id": str(self.owner_id) if self.owner_id else None,
                    "message_count": self.message_count,
                    "member_count": 1,
                    "total_message_sent": self.message_count,
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": iso_from_snowflake(self.id),
                        "locked": False,
                        "create_timestamp": iso_from_snowflake(self.id),
                    },
                }
            )
            if self.type == CHANNEL_PRIVATE_THREAD:
                data["thread_metadata"]["invitable"] = True
        else:
            if self.type == CHANNEL_GUILD_VOICE:
                # a voice channel has a text chat of its own (messages work as in a text
                # channel) and these fields besides (Channel Object)
                data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
            data.update(
                {
                    "position": self.position,
                    "permission_overwrites": [dict(o) for o in self.overwrites],
                    "topic": self.topic,
                    "nsfw": False,
                    "default_auto_archive_duration": 1440,
                    "default_thread_rate_limit_per_user": 0,
                    "last_pin_timestamp": None,
                }
            )
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    moderator_role_id: int | None = None
    bot_role_id: int | None = None
    preferred_locale: str = DEFAULT_LOCALE

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions; channel overwrites are not modelled (none are set)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.everyone.permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """Permissions in ``channel`` (a thread: its parent's), as Discord computes them: the
        guild's, then the @everyone overwrite, the member's roles' overwrites together, and the
        member's own, each denying before allowing; an administrator or the owner has all."""
        value = self.permissions_of(user_id)
        if value == ALL_PERMISSIONS:
            return value
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        overwrites = source.overwrites if source is not None else []
        member = self.members.get(user_id)
        roles = set(member.role_ids) if member is not None else set()
        everyone = [o for o in overwrites if o["type"] == 0 and int(o["id"]) == self.id]
        of_roles = [o for o in overwrites if o["type"] == 0 and int(o["id"]) in roles]
        own = [o for o in overwrites if o["type"] == 1 and int(o["id"]) == user_id]
        for layer in (everyone, of_roles, own):
            deny = allow = 0
            for overwrite in layer:
                deny |= int(overwrite["deny"])
                allow |= int(overwrite["allow"])
            value = (value & ~deny) | allow
        return value

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if not c.is_thread]

    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def base_payload(self, application_id: int) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None,
            "incidents_data": None,
        }


@dataclass
class Webhook:
    """A channel's incoming webhook (type 1). One a bot creates is application-owned
    (``application_id``): its messages may carry interactive components, and its token is
    shown only to that application (Discord docs, "Webhook Object")."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    token: str
    creator: User
    application_id: int | None = None

    @property
    def author(self) -> User:
        """Who its messages are by: a user with the webhook's id and name, a bot."""
        return User(self.id, self.name, None, bot=True)

    def payload(self, *, viewer_application: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 1,
            "guild_id": str(self.guild_id),
            "channel_id": str(self.channel_id),
            "user": self.creator.payload(),
            "name": self.name,
            "avatar": None,
            "application_id": None if self.application_id is None else str(self.application_id),
        }
        if self.application_id is None or self.application_id == viewer_application:
            data["token"] = self.token
            data["url"] = f"https://discord.com/api/webhooks/{self.id}/{self.token}"
        return data


@dataclass
class StoredMessage:
    """A message as the fake stores it. Live: it always shows the latest edit.

    An edit replaces ``embeds`` and ``components`` with new lists and never changes them in
    place, so payloads and log entries share them instead of copying (a request's hot path);
    whoever reads them must not modify them either."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = MESSAGE_DEFAULT
    tts: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    legacy_interaction: dict[str, Any] | None = None
    ephemeral_for: int | None = None
    mentions: list[User] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    edited_timestamp: str | None = None
    deleted: bool = False
    version: int = 1
    nonce: str | int | None = None
    author_member: Member | None = None
    referenced: StoredMessage | None = None
    _interactive: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False)
    """``components`` and its buttons and selects, as last walked: every click and every
    test's look at a table walks them, and an edit replaces the list (never changes it), so
    the walk is redone only for a new one."""

    def __repr__(self) -> str:
        audience = "public" if self.ephemeral_for is None else f"only {self.ephemeral_for}"
        state = " deleted" if self.deleted else ""
        return (
            f"<StoredMessage {self.id} in {self.channel_id} ({audience}{state}) "
            f"v{self.version} {self.content[:60]!r} buttons={len(self.buttons())}>"
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user_id: int) -> bool:
        if self.deleted:
            return False
        return self.ephemeral_for is None or self.ephemeral_for == user_id

    def payload(self) -> dict[str, Any]:
        """The REST shape (no ``guild_id``/``member``; the gateway adds those)."""
        data: dict[str, Any] = {
            "type": self.type,
            "content": self.content,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_role_ids],
            "attachments": [a.payload() for a in self.attachments if not a.referenced],
            "embeds": self.embeds,
            "timestamp": iso_from_snowflake(self.id),
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
            "components": self.components,
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "pinned": False,
            "mention_everyone": self.mention_everyone,
            "tts": self.tts,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy_json(self.interaction_metadata)
        if self.legacy_interaction is not None:
            data["interaction"] = copy_json(self.legacy_interaction)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.referenced is not None:
            ref = self.referenced
            data["message_reference"] = {
                "type": 0,
                "message_id": str(ref.id),
                "channel_id": str(ref.channel_id),
                "guild_id": str(ref.guild_id) if ref.guild_id is not None else None,
            }
            data["referenced_message"] = None if ref.deleted else ref.payload()
        return data

    # -- helpers for tests -------------------------------------------------------------------

    def interactive_components(self) -> list[dict[str, Any]]:
        """Buttons and selects in display order, wherever they sit (rows, sections, containers)."""
        walked = self._interactive
        if walked is None or walked[0] is not self.components:
            walked = self._interactive = (self.components, list(iter_interactive(self.components)))
        return list(walked[1])

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.interactive_components() if c.get("type") == COMPONENT_BUTTON]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.interactive_components() if c.get("type") in SELECT_TYPES]

    def button(self, label_or_custom_id: str) -> dict[str, Any]:
        for button in self.buttons():
            if label_or_custom_id in (button.get("label"), button.get("custom_id")):
                return button
        raise LookupError(
            f"no button {label_or_custom_id!r} on message {self.id}; "
            f"buttons: {[b.get('label') or b.get('custom_id') for b in self.buttons()]}"
        )

    def select(self, custom_id: str | None = None) -> dict[str, Any]:
        selects = self.selects()
        if custom_id is None:
            if len(selects) != 1:
                raise LookupError(
                    f"message {self.id} has {len(selects)} selects; name one by custom_id: "
                    f"{[s.get('custom_id') for s in selects]}"
                )
            return selects[0]
        for select in selects:
            if select.get("custom_id") == custom_id:
                return select
        raise LookupError(f"no select {custom_id!r} on message {self.id}")

    @property
    def shown(self) -> str:
        """The message's words as a reader sees them: its ``content``, or the Text Displays of
        a Components V2 layout (which has no content)."""
        if self.flags & FLAG_IS_COMPONENTS_V2:
            return layout_text(self.components)
        return self.content

    @property
    def text(self) -> str:
        return message_text(self.content, self.embeds, self.components, self.attachments)


def iter_interactive(components: list[dict[str, Any]]) -> Any:
    for component in components:
        kind = component.get("type")
        if kind == COMPONENT_BUTTON or kind in SELECT_TYPES:
            yield component
        yield from iter_interactive(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory is not None:
            yield from iter_interactive([accessory])
        inner = component.get("component")
        if inner is not None:
            yield from iter_interactive([inner])


def message_text(
    content: str,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[Attachment] | tuple[Attachment, ...] = (),
) -> str:
    """Every piece of text a reader could see: content, embeds, component labels and options,
    and the files' names and alt text."""
    parts = [content]
    for embed in embeds:
        parts.append(embed.get("title") or "")
        parts.append(embed.get("description") or "")
        parts.append((embed.get("author") or {}).get("name") or "")
        parts.append((embed.get("footer") or {}).get("text") or "")
        for f in embed.get("fields") or []:
            parts.append(f.get("name") or "")
            parts.append(f.get("value") or "")
    _component_text(components, parts)
    parts.extend(attachment_text(list(attachments)))
    return "\n".join(p for p in parts if p)


def _component_text(components: list[dict[str, Any]], parts: list[str]) -> None:
    for component in components:
        for key in ("label", "placeholder", "content", "title"):
            if component.get(key):
                parts.append(str(component[key]))
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and emoji.get("name"):
            parts.append(str(emoji["name"]))
        for option in component.get("options") or []:
            parts.append(option.get("label") or "")
            parts.append(option.get("description") or "")
        # a V2 picture's alt text (a Thumbnail's, a gallery item's) is read out too
        if component.get("type") == 11 and component.get("description"):
            parts.append(str(component["description"]))
        for item in component.get("items") or []:
            if isinstance(item, dict) and item.get("description"):
                parts.append(str(item["description"]))
        _component_text(component.get("components") or [], parts)
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                _component_text([component[key]], parts)


def mentioned_user_ids(content: str) -> list[int]:
    seen: list[int] = []
    for match in _USER_MENTION.finditer(content):
        value = int(match.group(1))
        if value not in seen:
            seen.append(value)
    return seen


def mentioned_role_ids(content: str) -> list[int]:
    return [int(m.group(1)) for m in _ROLE_MENTION.finditer(content)]


def resolve_mentions(
    content: str,
    allowed: dict[str, Any] | None,
    default_allowed: dict[str, Any] | None = None,
) -> tuple[list[int], list[int], bool]:
    """Which users and roles a message pings, and whether @everyone pings.

    Without ``allowed_mentions`` Discord parses everything; with it, only the listed kinds and
    ids ping. Discord's ``mentions`` array lists the users actually pinged.
    """
    rules = allowed if allowed is not None else default_allowed
    users = mentioned_user_ids(content)
    roles = mentioned_role_ids(content)
    everyone = "@everyone" in content or "@here" in content
    if rules is None:
        return users, roles, everyone
    parse = rules.get("parse") or []
    allowed_users = {int(u) for u in rules.get("users") or []}
    allowed_roles = {int(r) for r in rules.get("roles") or []}
    users = [u for u in users if "users" in parse or u in allowed_users]
    roles = [r for r in roles if "roles" in parse or r in allowed_roles]
    return users, roles, everyone and "everyone" in parse
