"""The data of an application command interaction as Discord's client builds it: the
command the bot synced (in the user's language too), its subcommands and options, checked as
Discord (and, unless told otherwise, its client) checks them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.fakediscord.locales import DEFAULT_LOCALE, localized
from bot.fakediscord.model import ADMINISTRATOR, CHANNEL_DM, Channel, Role, User
from bot.fakediscord.results import DriverError
from bot.fakediscord.validation import (
    OPTION_ATTACHMENT,
    OPTION_BOOLEAN,
    OPTION_CHANNEL,
    OPTION_INTEGER,
    OPTION_MENTIONABLE,
    OPTION_NUMBER,
    OPTION_ROLE,
    OPTION_STRING,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
    OPTION_USER,
)

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

# Discord's own limits on option values, which no client can pass
STRING_OPTION_MAX = 6000
INTEGER_OPTION_MAX = 2**53 - 1


def synced_command(
    fake: FakeCore, channel: Channel, name: str, locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """The synced chat-input command ``name`` as a user in ``channel`` would see it; a user
    whose client is set to ``locale`` may also type the command's name in that language."""
    command = fake.synced_command(channel.guild_id, name)
    if command is None:
        scopes = [fake.guild_commands.get(channel.guild_id, {}), fake.global_commands]
        command = next(
            (
                c
                for scope in scopes
                for (kind, _), c in scope.items()
                if kind == 1 and localized(c, "name", locale) == name
            ),
            None,
        )
    if command is None:
        known = sorted(
            {n for (_, n) in fake.global_commands}
            | {n for (_, n) in fake.guild_commands.get(channel.guild_id, {})}
        )
        raise DriverError(f"/{name} was not synced by the bot; synced: {known}")
    return command


def command_data(
    fake: FakeCore,
    user: User,
    channel: Channel,
    command_line: str,
    options: Mapping[str, Any],
    focused: str | None,
    validate: bool = True,
) -> tuple[dict[str, Any], int | None]:
    parts = command_line.strip().lstrip("/").split()
    if not parts:
        raise DriverError("empty command")
    command = synced_command(fake, channel, parts[0], user.locale)
    _check_command_permission(fake, user, channel, command)
    resolved: dict[str, dict[str, Any]] = {}
    leaf_options, nesting = _walk_subcommands(command, parts, user.locale)
    # options may be named as the user's client shows them; the payload uses the defaults
    given = {_default_name(leaf_options, k, user.locale): v for k, v in options.items()}
    if focused is not None:
        focused = _default_name(leaf_options, focused, user.locale)
    built, focused_type = _build_options(
        fake, command_line, leaf_options, given, focused, resolved, channel, validate
    )
    top: list[dict[str, Any]] = built
    for option in reversed(nesting):
        top = [{"name": option["name"], "type": option["type"], "options": top}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
    }
    if top:
        data["options"] = top
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data, focused_type


def user_command_data(
    fake: FakeCore, user: User, channel: Channel, name: str, target: User
) -> dict[str, Any]:
    """The data of a user command (a context-menu command, type 2) ``name`` (as synced, or as
    localized for the user) run on ``target``: its ``target_id`` and the target ``resolved``,
    with their member object in a server (Discord docs, "User Commands")."""
    scopes = [fake.guild_commands.get(channel.guild_id, {}), fake.global_commands]
    command = next((c for scope in scopes for (kind, synced), c in scope.items()
                    if kind == 2 and name in (synced, localized(c, "name", user.locale))),
                   None)
    if command is None:
        raise DriverError(f"no user command {name!r} was synced")
    _check_command_permission(fake, user, channel, command)
    resolved: dict[str, Any] = {"users": {str(target.id): target.payload()}}
    guild = fake.guilds.get(channel.guild_id) if channel.guild_id is not None else None
    member = guild.members.get(target.id) if guild is not None else None
    if guild is not None and member is not None:
        resolved["members"] = {str(target.id): {
            **member.payload(with_user=False),
            "permissions": str(guild.permissions_in(target.id, channel))}}
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 2,
                            "target_id": str(target.id), "resolved": resolved}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    return data


def channel_context(channel: Channel) -> int:
    """The interaction context type of ``channel``: 0 a server's, 1 the bot's DM, 2 a group DM
    or a DM between people."""
    if channel.guild_id is not None:
        return 0
    return 1 if channel.type == CHANNEL_DM else 2


def _check_command_permission(
    fake: FakeCore, user: User, channel: Channel, command: dict[str, Any]
) -> None:
    context = channel_context(channel)
    contexts = command.get("contexts")
    if contexts is not None and context not in contexts:
        raise DriverError(f"/{command['name']} is not offered in context {context} "
                          f"(contexts {contexts})")
    # which install brings the command here: the server's (the bot is a member) or the
    # person's own (Discord docs, "Installation context")
    installs = set(command.get("integration_types") or [0])
    guild = fake.guilds.get(channel.guild_id) if channel.guild_id is not None else None
    by_server = guild is not None and fake.bot_user.id in guild.members and 0 in installs
    by_person = user.id in fake.user_installs and 1 in installs
    if not (by_server or by_person):
        raise DriverError(f"/{command['name']} is not installed for {user.username} here "
                          f"(integration types {sorted(installs)})")
    needed = command.get("default_member_permissions")
    if needed is None or guild is None:
        return
    have = guild.permissions_of(user.id)
    # "0" hides the command from everyone but administrators (Discord docs)
    allowed = bool(have & ADMINISTRATOR) or (int(needed) != 0 and not int(needed) & ~have)
    if not allowed:
        raise DriverError(
            f"Discord does not offer /{command['name']} to {user.username}: "
            f"it needs permissions {needed}"
        )


def _build_options(
    fake: FakeCore,
    command_line: str,
    definitions: list[dict[str, Any]],
    given: dict[str, Any],
    focused: str | None,
    resolved: dict[str, dict[str, Any]],
    channel: Channel,
    validate: bool,
) -> tuple[list[dict[str, Any]], int | None]:
    by_name = {d["name"]: d for d in definitions}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        raise DriverError(f"/{command_line} has no option {unknown}; it has {list(by_name)}")
    if focused is not None and focused not in by_name:
        raise DriverError(f"/{command_line} has no option {focused!r} to focus")
    built: list[dict[str, Any]] = []
    focused_type: int | None = None
    for definition in definitions:
        name = definition["name"]
        kind = definition["type"]
        if name == focused:
            focused_type = kind
            if not definition.get("autocomplete"):
                raise DriverError(f"option {name!r} of /{command_line} has no autocomplete")
            typed = str(given.get(name, ""))
            if len(typed) > STRING_OPTION_MAX:
                raise DriverError(f"Discord takes at most {STRING_OPTION_MAX} characters")
            built.append({"name": name, "type": kind, "value": typed, "focused": True})
            continue
        if name not in given:
            if definition.get("required") and focused is None:
                raise DriverError(f"/{command_line} needs option {name!r}")
            continue
        value = _option_value(
            fake,
            command_line,
            definition,
            given[name],
            resolved,
            channel,
            check_choices=focused is None,
            validate=validate,
        )
        built.append({"name": name, "type": kind, "value": value})
    return built, focused_type


def _option_value(
    fake: FakeCore,
    command_line: str,
    definition: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    channel: Channel,
    *,
    check_choices: bool,
    validate: bool = True,
) -> Any:
    """The option's value as Discord sends it. Discord's own type checks always apply;
    ``validate`` False skips what only Discord's client enforces (choices, min/max value
    and length), as a modified client or an outdated declaration could send."""
    kind = definition["type"]
    name = definition["name"]
    where = f"option {name!r} of /{command_line}"
    guild = fake.guilds.get(channel.guild_id) if channel.guild_id is not None else None
    if kind == OPTION_STRING:
        if not isinstance(value, str):
            raise DriverError(f"{where} takes text, not {value!r}")
        low, high = 0, STRING_OPTION_MAX
        if validate:
            low = definition.get("min_length", low)
            high = definition.get("max_length", high)
        if not low <= len(value) <= high:
            raise DriverError(f"{where} must be {low}..{high} characters")
    elif kind == OPTION_INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DriverError(f"{where} takes a whole number, not {value!r}")
        if abs(value) > INTEGER_OPTION_MAX:
            raise DriverError(f"{where}: Discord takes integers within ±(2**53 - 1)")
        if validate:
            _check_range(where, definition, value)
    elif kind == OPTION_NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DriverError(f"{where} takes a number, not {value!r}")
        if validate:
            _check_range(where, definition, value)
    elif kind == OPTION_BOOLEAN:
        if not isinstance(value, bool):
            raise DriverError(f"{where} takes True/False, not {value!r}")
    elif kind in (OPTION_USER, OPTION_MENTIONABLE) and isinstance(value, User):
        member = guild.members.get(value.id) if guild is not None else None
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if member is not None and guild is not None:
            resolved.setdefault("members", {})[str(value.id)] = {
                **member.payload(with_user=False),
                "permissions": str(guild.permissions_of(value.id)),
            }
        return str(value.id)
    elif kind in (OPTION_ROLE, OPTION_MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    elif kind == OPTION_CHANNEL and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.payload(),
            "permissions": str(guild.permissions_of(fake.bot_user.id)),
        }
        return str(value.id)
    elif kind == OPTION_ATTACHMENT:
        raise DriverError(f"{where}: attachment options are not supported by the driver")
    else:
        raise DriverError(f"{where} (type {kind}) cannot take {value!r}")
    choices = definition.get("choices")
    if validate and check_choices and choices and value not in [c["value"] for c in choices]:
        raise DriverError(
            f"{where} must be one of {[c['value'] for c in choices]}, not {value!r}"
        )
    return value


def _default_name(definitions: list[dict[str, Any]], name: str, locale: str) -> str:
    """The default name of the option called ``name`` by default or in ``locale``."""
    for definition in definitions:
        if name == definition["name"]:
            return name
    for definition in definitions:
        if localized(definition, "name", locale) == name:
            return str(definition["name"])
    return name


def _walk_subcommands(
    command: dict[str, Any], parts: list[str], locale: str = DEFAULT_LOCALE
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Follow "game start" into the definition: the leaf's option list and the path there.
    Subcommands may be named in ``locale``."""
    options: list[dict[str, Any]] = command.get("options") or []
    nesting: list[dict[str, Any]] = []
    for part in parts[1:]:
        subs = [o for o in options if o["type"] in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)]
        wanted = _default_name(subs, part, locale)
        sub = next((o for o in subs if o["name"] == wanted), None)
        if sub is None:
            names = [
                o["name"]
                for o in options
                if o["type"] in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)
            ]
            where = " ".join([command["name"], *[n["name"] for n in nesting]])
            raise DriverError(f"/{where} has no subcommand {part!r}; it has {names}")
        nesting.append(sub)
        options = sub.get("options") or []
    pending = [
        o["name"] for o in options if o["type"] in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)
    ]
    if pending:
        where = " ".join(parts)
        raise DriverError(f"/{where} needs a subcommand: {pending}")
    return options, nesting


def _check_range(where: str, definition: dict[str, Any], value: float) -> None:
    low = definition.get("min_value")
    high = definition.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise DriverError(f"{where} must be within {low}..{high}, not {value}")

