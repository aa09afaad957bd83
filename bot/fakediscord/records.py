"""What the fake remembers for tests: interactions, the message log, pings, REST calls."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.fakediscord.attachments import Attachment
from bot.fakediscord.errors import DiscordHTTPError
from bot.fakediscord.model import User, message_text

INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE_RESULT = 8
CALLBACK_MODAL = 9
CALLBACK_LAUNCH_ACTIVITY = 12
"""Only for apps with Activities enabled; not after a modal submission (Discord docs,
"Interaction Callback Type": a modal submit cannot open anything further)."""

ALLOWED_CALLBACKS: dict[int, tuple[int, ...]] = {
    INTERACTION_APPLICATION_COMMAND: (4, 5, 9, 12),
    INTERACTION_MESSAGE_COMPONENT: (4, 5, 6, 7, 9, 12),
    INTERACTION_AUTOCOMPLETE: (8,),
    INTERACTION_MODAL_SUBMIT: (4, 5, 6, 7),
}


@dataclass
class InteractionRecord:
    """One interaction from creation to its callback (or its failure at the deadline)."""

    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    created_at: float  # event-loop time, for the 3-second deadline timer
    issued_at: float  # the fake's clock, for the 15-minute token
    acknowledged: asyncio.Future[None]
    focused_type: int | None = None
    component_message_id: int | None = None
    callback_type: int | None = None
    callback_at: float | None = None
    failed: bool = False
    failure: str | None = None
    rejected: list[DiscordHTTPError] = field(default_factory=list)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    deferred_followup_pending: bool = False
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    # a modal submission's: the interaction whose callback opened the modal
    opened_by: InteractionRecord | None = None
    activity_instance_id: str | None = None
    """The Activity instance a LAUNCH_ACTIVITY callback opened (or joined)."""
    deadline_handle: asyncio.TimerHandle | None = None

    def __repr__(self) -> str:
        state = "failed" if self.failed else f"callback {self.callback_type}"
        return f"<InteractionRecord {self.describe()}: {state}>"

    @property
    def answered(self) -> bool:
        return self.callback_type is not None

    @property
    def forced_ephemeral(self) -> bool:
        """Its answers can only be private: the app reached a server that never added it, by
        the person's install, and the person lacks Use External Apps there (Discord docs,
        "Permissions": USE_EXTERNAL_APPS)."""
        if self.guild_id is None or not self.user_install_only:
            return False
        member = self.payload.get("member") or {}
        return not int(member.get("permissions") or 0) & (1 << 50)

    @property
    def user_install_only(self) -> bool:
        """Only the person's install authorised it (the app is not in the server, or it is a
        (G)DM): Discord caps its follow-ups."""
        owners = self.payload.get("authorizing_integration_owners") or {}
        return "0" not in owners

    @property
    def data(self) -> dict[str, Any]:
        return self.payload.get("data") or {}

    def describe(self) -> str:
        data = self.data
        what = data.get("custom_id") or command_path(data) or "?"
        return f"interaction {self.id} (type {self.type}, {what}) by {self.user.username}"


def command_path(data: dict[str, Any]) -> str:
    parts = [data.get("name") or ""]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(p for p in parts if p) if parts[0] else ""


@dataclass(frozen=True)
class LogEntry:
    """One version of one message as an audience saw it. ``audience`` None means everyone."""

    seq: int
    action: str
    message_id: int
    channel_id: int
    audience: int | None
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    author_id: int
    attachments: tuple[Attachment, ...] = ()

    @property
    def text(self) -> str:
        """Content, embeds, component labels and the files' names and alt text."""
        return message_text(self.content, self.embeds, self.components, self.attachments)

    def visible_to(self, user_id: int) -> bool:
        return self.audience is None or self.audience == user_id

    @classmethod
    def of(cls, seq: int, action: str, message: Any) -> LogEntry:
        return cls(
            seq=seq,
            action=action,
            message_id=message.id,
            channel_id=message.channel_id,
            audience=message.ephemeral_for,
            content=message.content,
            # edits replace these lists, never change them, so the version can share them
            embeds=message.embeds,
            components=message.components,
            flags=message.flags,
            author_id=message.author.id,
            # copies: a later edit of a description must not rewrite this version
            attachments=tuple(copy.copy(a) for a in message.attachments),
        )


@dataclass(frozen=True)
class Ping:
    """A mention that notified ``user_id`` (message creation only: edits never notify)."""

    seq: int
    user_id: int
    message_id: int
    channel_id: int


@dataclass(frozen=True)
class RestCall:
    method: str
    route: str
    path: str
    status: int
    injected: bool
    error: dict[str, Any] | None
    unmodelled: bool = False


class Contract(Protocol):
    """A check of each request the fake serves against a description of Discord's API (the
    tests' is ``tests/contract``: Discord's OpenAPI description). ``route`` is the route's
    template (``/channels/{channel_id}/messages``), or the path where the fake has no such
    route; ``body`` the JSON body or ``payload_json``, None when none was read."""

    def check(self, method: str, route: str, body: Any) -> list[str]: ...

    def check_response(self, method: str, route: str, status: int, body: Any) -> list[str]:
        """The same for the JSON body the fake answered (with ``FakeDiscord.contract_answers``
        on: the fake's own tests)."""
        ...


@dataclass(frozen=True)
class ContractBreach:
    """What a ``FakeDiscord.contract`` found wrong with a request (``status``: the fake's
    answer to it)."""

    method: str
    path: str
    status: int
    problem: str


@dataclass(frozen=True)
class RateLimitHit:
    """A 429 the fake answered: from its own limits, or ``injected`` by a test's fault rule."""

    method: str
    route: str
    path: str
    scope: str
    retry_after: float
    injected: bool

    def describe(self) -> str:
        source = "an injected fault" if self.injected else f"the {self.scope} rate limit"
        wait = f"retry after {self.retry_after:.3f} s"
        return f"{self.method} {self.path} got 429 from {source} ({wait})"


@dataclass(frozen=True)
class UnknownEmoji:
    """A ``<:name:id>`` in a message's content (at ``version``) that is no emoji of the app:
    Discord accepts it, and readers see ``:name:``."""

    message_id: int
    version: int
    name: str
    emoji_id: int
