"""Components as a user's client finds them on a message (as it stands, or as an older
version a client may still show) and the values and resolved data a select sends."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bot.fakediscord.model import Channel, Role, StoredMessage, User
from bot.fakediscord.results import DriverError
from bot.fakediscord.validation import COMPONENT_STRING_SELECT

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore


def find_component(
    fake: FakeCore,
    message: StoredMessage,
    label_or_custom_id: str,
    *,
    allow_stale: bool,
    types: Sequence[int],
) -> dict[str, Any]:
    def match(component: dict[str, Any]) -> bool:
        return component.get("type") in types and label_or_custom_id in (
            component.get("label"),
            component.get("custom_id"),
            component.get("placeholder"),
        )

    for component in message.interactive_components():
        if match(component):
            return component
    if allow_stale:
        # a client that has not yet received the latest edit still shows older versions
        for entry in reversed([e for e in fake.log if e.message_id == message.id]):
            for component in iter_components(entry.components):
                if match(component):
                    return component
    available = [
        c.get("label") or c.get("placeholder") or c.get("custom_id")
        for c in message.interactive_components()
    ]
    raise DriverError(
        f"no component {label_or_custom_id!r} on message {message.id}; it has {available}"
    )


def select_values(
    select: dict[str, Any], values: Sequence[Any], message: StoredMessage
) -> list[str]:
    if select["type"] == COMPONENT_STRING_SELECT:
        offered = [o["value"] for o in select.get("options") or []]
        by_label = {o["label"]: o["value"] for o in select.get("options") or []}
        chosen = []
        for value in values:
            if value in offered:
                chosen.append(value)
            elif value in by_label:
                chosen.append(by_label[value])
            else:
                raise DriverError(
                    f"select {select['custom_id']!r} on message {message.id} offers "
                    f"{offered}, not {value!r}"
                )
        return chosen
    return [str(v.id) if hasattr(v, "id") else str(v) for v in values]


def select_resolved(
    fake: FakeCore, select: dict[str, Any], values: Sequence[Any], message: StoredMessage
) -> dict[str, Any]:
    if select["type"] == COMPONENT_STRING_SELECT:
        return {}
    guild = fake.guilds[message.guild_id] if message.guild_id else None
    resolved: dict[str, dict[str, Any]] = {}
    for value in values:
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                resolved.setdefault("members", {})[str(value.id)] = {
                    **guild.members[value.id].payload(with_user=False),
                    "permissions": str(guild.permissions_of(value.id)),
                }
        elif isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = value.payload()
    return resolved


def iter_all(components: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in components:
        yield component
        yield from iter_all(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from iter_all([component[key]])


def iter_components(components: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in iter_all(components):
        if component.get("type") != 1:
            yield component
