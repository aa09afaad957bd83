"""What a modified client can send as a component interaction, and what Discord checks first.

A client posts ``{type: 3, message_id, data: {custom_id, component_type, values}}`` to
Discord's ``/interactions``; Discord fills in the guild, channel, member, permissions and
locale itself, so those cannot be forged. Before delivering, Discord checks the component
against the message as it stands ("Component validation failed", 400 ``50035``
``COMPONENT_VALIDATION_FAILED``, reported in discord-api-docs #5943 and by modified-client
libraries since 2023; the 2021 docs' warning that apps must check custom_ids themselves
predates it). The checks modelled here: the user can see the message; a component with that
``custom_id`` and ``component_type`` is on it and not disabled; a string select's values are
among its options and their count within ``min_values``..``max_values``; an entity select's
values name users, roles or channels of the server. The form itself is always checked
(``custom_id`` 1–100 characters, at most 25 values of at most 100 characters).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.fakediscord.model import Guild, StoredMessage
from bot.fakediscord.validation import (
    COMPONENT_BUTTON,
    COMPONENT_CHANNEL_SELECT,
    COMPONENT_MENTIONABLE_SELECT,
    COMPONENT_ROLE_SELECT,
    COMPONENT_STRING_SELECT,
    COMPONENT_USER_SELECT,
    CUSTOM_ID_MAX,
    SELECT_TYPES,
)

COMPONENT_TYPES = (COMPONENT_BUTTON, *SELECT_TYPES)


class InteractionRejected(AssertionError):
    """Discord refused the client's interaction (it never reaches the bot): ``status``,
    ``code`` and the error body Discord answers the client with."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"Discord refuses the interaction: {status} {code} {message} {errors}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def _form_error(where: str, code: str, message: str) -> InteractionRejected:
    return InteractionRejected(
        400,
        50035,
        "Invalid Form Body",
        {"data": {where: {"_errors": [{"code": code, "message": message}]}}},
    )


def validation_failed() -> InteractionRejected:
    error = {"code": "COMPONENT_VALIDATION_FAILED", "message": "Component validation failed"}
    return InteractionRejected(400, 50035, "Invalid Form Body", {"data": {"_errors": [error]}})


def check_form(custom_id: str, component_type: int, values: Sequence[str] | None) -> None:
    """The shape of ``data``, which Discord checks for every client."""
    if not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
        raise _form_error(
            "custom_id", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {CUSTOM_ID_MAX} in length."
        )
    if component_type not in COMPONENT_TYPES:
        raise _form_error(
            "component_type", "BASE_TYPE_CHOICES", f"Value must be one of {set(COMPONENT_TYPES)}."
        )
    if values is None:
        return
    if len(values) > 25:
        raise _form_error("values", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    if any(len(v) > 100 for v in values):
        raise _form_error("values", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def check_component(
    message: StoredMessage,
    guild: Guild,
    custom_id: str,
    component_type: int,
    values: Sequence[str] | None,
) -> dict[str, Any]:
    """The component Discord finds on ``message`` for this interaction, or the refusal."""
    component = next(
        (
            c
            for c in message.interactive_components()
            if c.get("custom_id") == custom_id and c.get("type") == component_type
        ),
        None,
    )
    if component is None or component.get("disabled"):
        raise validation_failed()
    if component_type == COMPONENT_BUTTON:
        if values is not None:
            raise validation_failed()
        return component
    chosen = list(values or [])
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(chosen) <= high or len(set(chosen)) != len(chosen):
        raise validation_failed()
    if not all(_offered(component, guild, value) for value in chosen):
        raise validation_failed()
    return component


def _offered(component: dict[str, Any], guild: Guild, value: str) -> bool:
    kind = component["type"]
    if kind == COMPONENT_STRING_SELECT:
        return value in {o.get("value") for o in component.get("options") or []}
    try:
        entity = int(value)
    except ValueError:
        return False
    users = entity in guild.members
    roles = entity in guild.roles
    channels = entity in guild.channels
    return {
        COMPONENT_USER_SELECT: users,
        COMPONENT_ROLE_SELECT: roles,
        COMPONENT_MENTIONABLE_SELECT: users or roles,
        COMPONENT_CHANNEL_SELECT: channels,
    }[kind]


def resolved_for(guild: Guild, values: Sequence[str]) -> dict[str, Any]:
    """The ``resolved`` Discord adds for entity selects: what each id names in the server."""
    resolved: dict[str, dict[str, Any]] = {}
    for value in values:
        try:
            entity = int(value)
        except ValueError:
            continue
        member = guild.members.get(entity)
        if member is not None:
            resolved.setdefault("users", {})[value] = member.user.payload()
            resolved.setdefault("members", {})[value] = {
                **member.payload(with_user=False),
                "permissions": str(guild.permissions_of(entity)),
            }
        if entity in guild.roles:
            resolved.setdefault("roles", {})[value] = guild.roles[entity].payload()
        if entity in guild.channels:
            resolved.setdefault("channels", {})[value] = guild.channels[entity].payload()
    return resolved
