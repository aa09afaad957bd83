"""Activities: the app's Activity settings (enabled, URL mappings) and its running instances.

Discord's "Activities" docs and ``GET /applications/{id}/activity-instances/{instance_id}``
(Embedded Activity Instance): an Activity runs as one **instance** per place — a server's
channel (location kind ``gc``, text or voice) or a DM/group DM (``pc``) — and whoever launches
the app where an instance of it already runs joins that instance. An instance lists its
``users`` (the participants) and ends when the last one leaves (its id is then unknown).

Not documented, so assumed from what Discord's clients show: ids look like Discord's
(``location.id`` "gc-<guild>-<channel>" or "pc-<channel>"; ``instance_id``
"i-<launch_id>-<location id>"; ``launch_id`` a snowflake).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.fakediscord.changes import Changes
from bot.fakediscord.model import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    CHANNEL_GUILD_TEXT,
    CHANNEL_GUILD_VOICE,
    Channel,
    User,
)
from bot.fakediscord.snowflake import SnowflakeFactory

CLIENT_HOST = "localhost:3333"
CLIENT_ORIGIN = f"http://{CLIENT_HOST}"
"""The fake Discord client's origin: one the Embedded App SDK accepts messages from (its
``getAllowedOrigins``), so the real SDK talks to the fake client page."""
ACTIVITY_HOST_SUFFIX = ".discordsays.localhost:3333"
"""An app's Activity origin is ``http://<app id>`` + this (Discord: ``https://<app
id>.discordsays.com``; ``*.localhost`` reaches this machine without DNS and is a secure
context)."""


def activity_origin(application_id: int) -> str:
    return f"http://{application_id}{ACTIVITY_HOST_SUFFIX}"


LAUNCHABLE = (CHANNEL_GUILD_TEXT, CHANNEL_GUILD_VOICE, CHANNEL_DM, CHANNEL_GROUP_DM)
"""Where an Activity can be launched: a server's text or voice channel, a DM, a group DM."""


class LaunchRefused(Exception):
    """Discord's client would not launch the Activity there (a test asked for the
    impossible)."""


@dataclass(frozen=True)
class UrlMapping:
    """One row of the Developer Portal's URL Mappings: requests under ``prefix`` of
    ``https://<app id>.discordsays.com`` go to ``target``."""

    prefix: str
    target: str


@dataclass
class ActivityInstance:
    id: str
    application_id: int
    launch_id: int
    channel: Channel
    users: list[User] = field(default_factory=list)
    ended: bool = False

    @property
    def location_id(self) -> str:
        return location_id(self.channel)

    def location(self) -> dict[str, Any]:
        channel = self.channel
        if channel.guild_id is None:
            return {"id": self.location_id, "kind": "pc", "channel_id": str(channel.id)}
        return {"id": self.location_id, "kind": "gc", "channel_id": str(channel.id),
                "guild_id": str(channel.guild_id)}

    def payload(self) -> dict[str, Any]:
        """The Embedded Activity Instance object."""
        return {
            "application_id": str(self.application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": self.location(),
            "users": [str(u.id) for u in self.users],
        }


def location_id(channel: Channel) -> str:
    if channel.guild_id is None:
        return f"pc-{channel.id}"
    return f"gc-{channel.guild_id}-{channel.id}"


class Activities:
    """The application's Activity: whether it is enabled, its URL mappings, its instances.
    ``on_participants`` are told whenever an instance's users change (the fake client pages
    dispatch ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE from it)."""

    def __init__(self, ids: SnowflakeFactory, changes: Changes, application_id: int) -> None:
        self.ids = ids
        self.changes = changes
        self.application_id = application_id
        self.enabled = False
        self.url_mappings: list[UrlMapping] = []
        self.instances: dict[str, ActivityInstance] = {}
        self.on_participants: list[Callable[[ActivityInstance], None]] = []

    def enable(self, root: str | None = None) -> None:
        """Activities switched on in the Developer Portal; ``root`` is the target of the
        root URL mapping (``/`` → the app's server)."""
        self.enabled = True
        if root is not None:
            self.map_url("/", root)
        self.changes.changed()

    def map_url(self, prefix: str, target: str) -> None:
        if not prefix.startswith("/"):
            raise ValueError("a URL mapping's prefix starts with /")
        self.url_mappings = [m for m in self.url_mappings if m.prefix != prefix]
        self.url_mappings.append(UrlMapping(prefix, target.rstrip("/")))
        self.changes.changed()

    def map_path(self, path: str) -> str | None:
        """The target URL a request for ``path`` on the discordsays origin goes to: the
        mapping with the longest matching prefix (``None``: no mapping covers it)."""
        best: UrlMapping | None = None
        for mapping in self.url_mappings:
            prefix = mapping.prefix.rstrip("/") + "/"
            if (path == mapping.prefix or path.startswith(prefix) or mapping.prefix == "/") and (
                    best is None or len(mapping.prefix) > len(best.prefix)):
                best = mapping
        if best is None:
            return None
        rest = path[len(best.prefix.rstrip("/")):]
        return best.target + (rest if rest.startswith("/") else "/" + rest)

    # -- instances -----------------------------------------------------------------------------

    def in_channel(self, channel: Channel) -> ActivityInstance | None:
        return next((i for i in self.instances.values() if i.channel.id == channel.id), None)

    def launch(self, user: User, channel: Channel) -> ActivityInstance:
        """``user`` opens the Activity in ``channel``: joins the instance running there, or
        starts one."""
        if not self.enabled:
            raise LaunchRefused("the application has no Activity (Activities not enabled)")
        if channel.type not in LAUNCHABLE:
            raise LaunchRefused(f"an Activity cannot be launched in a channel of type "
                                f"{channel.type}")
        instance = self.in_channel(channel)
        if instance is None:
            launch_id = self.ids.next()
            instance = ActivityInstance(
                f"i-{launch_id}-{location_id(channel)}", self.application_id, launch_id, channel)
            self.instances[instance.id] = instance
        self.join(user, instance)
        return instance

    def join(self, user: User, instance: ActivityInstance) -> None:
        if instance.ended:
            raise LaunchRefused(f"instance {instance.id} has ended")
        if user not in instance.users:
            instance.users.append(user)
            self._participants_changed(instance)

    def leave(self, user: User, instance: ActivityInstance) -> None:
        """``user`` closes the Activity; the last one out ends the instance."""
        if user not in instance.users:
            return
        instance.users.remove(user)
        if not instance.users:
            instance.ended = True
            del self.instances[instance.id]
        self._participants_changed(instance)

    def instance(self, instance_id: str) -> ActivityInstance | None:
        return self.instances.get(instance_id)

    def _participants_changed(self, instance: ActivityInstance) -> None:
        for listener in list(self.on_participants):
            listener(instance)
        self.changes.changed()
