"""The test driver: simulated users acting through the fake Discord, and what they see.

Every action builds the interaction payload Discord's client would send (from the commands the
bot *synced*, and from the message as it stands) and returns once the bot has answered, or
raises ``InteractionFailed`` with the reason. Waits are event-driven; the timeouts are only
guards against a hung bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.fakediscord.forgery import (
    InteractionRejected,
    check_component,
    check_form,
    resolved_for,
)
from bot.fakediscord.locales import DEFAULT_LOCALE, localized
from bot.fakediscord.model import (
    ADMINISTRATOR,
    MANAGE_WEBHOOKS,
    Channel,
    Guild,
    Role,
    StoredMessage,
    User,
    Webhook,
)
from bot.fakediscord.records import (
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    InteractionRecord,
    LogEntry,
    Ping,
)
from bot.fakediscord.server import FakeDiscord
from bot.fakediscord.validation import (
    COMPONENT_BUTTON,
    COMPONENT_CHANNEL_SELECT,
    COMPONENT_MENTIONABLE_SELECT,
    COMPONENT_ROLE_SELECT,
    COMPONENT_STRING_SELECT,
    COMPONENT_USER_SELECT,
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

T = TypeVar("T")

GUARD_TIMEOUT = 10.0
# Discord's own limits on option values, which no client can pass
STRING_OPTION_MAX = 6000
INTEGER_OPTION_MAX = 2**53 - 1
MessageRef = StoredMessage | int


class DriverError(AssertionError):
    """The test asked for something a Discord user could not do (unknown command, no such
    button, a message the user cannot see, ...)."""


class InteractionFailed(AssertionError):
    """Discord would show "This interaction failed": the bot did not answer in time."""


@dataclass
class InteractionResult:
    """The bot's answer to one interaction; properties read the fake's live state."""

    record: InteractionRecord
    fake: FakeDiscord

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def type(self) -> int | None:
        """The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8, 9)."""
        return self.record.callback_type

    @property
    def failed(self) -> bool:
        return self.record.failed

    @property
    def message(self) -> StoredMessage | None:
        """The response message: the new one (4/5) or the updated component message (6/7)."""
        if self.record.original_id is None:
            return None
        return self.fake.messages[self.record.original_id]

    @property
    def content(self) -> str:
        message = self.message
        return message.content if message is not None else ""

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return message is not None and message.ephemeral

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.messages[i] for i in self.record.followup_ids]

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.record.choices or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    async def wait_followups(
        self, count: int = 1, within: float = GUARD_TIMEOUT
    ) -> list[StoredMessage]:
        await self.fake.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            within,
            f"{count} follow-up(s) to {self.record.describe()}",
        )
        return self.followups

    async def wait_edited(self, within: float = GUARD_TIMEOUT) -> StoredMessage:
        """Wait until the response message changes from the version seen now."""
        message = self.message
        if message is None:
            raise DriverError(f"{self.record.describe()} has no response message")
        version = message.version
        await self.fake.wait_for(
            lambda: message.version > version, within, f"an edit of message {message.id}"
        )
        return message


class Driver:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._allow_failed = False
        self._allow_rest_errors = False
        self._allow_rate_limits = False
        self._allow_unknown_emojis = False
        self._allow_contract_breaches = False

    # -- the world ----------------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Kortbord Test",
        *,
        bot_permissions: int | None = None,
        everyone_permissions: int | None = None,
        shard_of: tuple[int, int] | None = None,
        preferred_locale: str = DEFAULT_LOCALE,
        guild_id: int | None = None,
    ) -> Guild:
        """A server with @everyone, a Moderator role (Manage Messages) and the bot's role;
        ``shard_of=(k, n)`` gives it an id whose events Discord routes to shard k of n;
        ``guild_id`` fixes its id."""
        options: dict[str, int] = {}
        if bot_permissions is not None:
            options["bot_permissions"] = bot_permissions
        if everyone_permissions is not None:
            options["everyone_permissions"] = everyone_permissions
        return self.fake.add_guild(
            name, shard_of=shard_of, preferred_locale=preferred_locale, guild_id=guild_id,
            **options,
        )

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        thread: bool = False,
        parent: Channel | None = None,
        channel_id: int | None = None,
    ) -> Channel:
        return self.fake.add_channel(
            guild, name, thread=thread, parent=parent, channel_id=channel_id
        )

    def add_user(
        self,
        name: str,
        *,
        manage_messages: bool = False,
        admin: bool = False,
        guilds: Iterable[Guild] | None = None,
        locale: str = DEFAULT_LOCALE,
        user_id: int | None = None,
    ) -> User:
        """A user who joins ``guilds`` (default: every guild there is now), with their client
        set to ``locale``; ``user_id`` fixes their id."""
        user = self.fake.add_user(name, locale=locale, user_id=user_id)
        for guild in list(guilds) if guilds is not None else list(self.fake.guilds.values()):
            self.fake.add_member(guild, user, manage_messages=manage_messages, admin=admin)
        return user

    def set_locale(self, user: User, locale: str) -> None:
        self.fake.set_locale(user, locale)

    def set_preferred_locale(self, guild: Guild, locale: str) -> None:
        self.fake.set_preferred_locale(guild, locale)

    def join(self, user: User, guild: Guild, *, manage_messages: bool = False) -> None:
        self.fake.add_member(guild, user, manage_messages=manage_messages)

    def set_bot_webhooks(self, channel: Channel, allowed: bool) -> None:
        """A moderator grants (or denies) the bot Manage Webhooks in ``channel``: an overwrite
        for the bot's member, as the channel's settings make one (CHANNEL_UPDATE)."""
        bits = {"allow": MANAGE_WEBHOOKS} if allowed else {"deny": MANAGE_WEBHOOKS}
        self.fake.set_overwrite(channel, self.fake.bot_user.id, 1, **bits)

    def webhooks(self, channel: Channel) -> list[Webhook]:
        """The channel's webhooks (a thread's live on its parent)."""
        parent = self.fake.channels[channel.parent_id] if channel.parent_id else channel
        return self.fake.channel_webhooks(parent)

    def delete_webhooks(self, channel: Channel) -> int:
        """A member deletes every webhook of ``channel`` in its Integrations settings; how
        many there were."""
        found = self.webhooks(channel)
        for webhook in found:
            self.fake.delete_webhook(webhook)
        return len(found)

    # -- the bot's connection -----------------------------------------------------------------

    async def wait_bot_ready(self, *, after: int = 0, within: float = GUARD_TIMEOUT) -> None:
        """Wait until more than ``after`` IDENTIFYs happened and a session has had its READY
        and GUILD_CREATEs queued (what Discord sends before any interaction)."""
        gateway = self.fake.gateway
        await self.fake.wait_for(
            lambda: gateway.identify_count > after and gateway.live_sessions(),
            within,
            "the bot to connect to the gateway",
        )

    # -- slash commands and autocomplete --------------------------------------------------------

    def command(
        self, channel: Channel, name: str, locale: str = DEFAULT_LOCALE
    ) -> dict[str, Any]:
        """The synced chat-input command ``name`` as a user in ``channel`` would see it; a user
        whose client is set to ``locale`` may also type the command's name in that language."""
        command = self.fake.synced_command(channel.guild_id, name)
        if command is None:
            scopes = [self.fake.guild_commands.get(channel.guild_id, {}), self.fake.global_commands]
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
                {n for (_, n) in self.fake.global_commands}
                | {n for (_, n) in self.fake.guild_commands.get(channel.guild_id, {})}
            )
            raise DriverError(f"/{name} was not synced by the bot; synced: {known}")
        return command

    def _command_data(
        self,
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
        command = self.command(channel, parts[0], user.locale)
        self._check_command_permission(user, channel, command)
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options, nesting = _walk_subcommands(command, parts, user.locale)
        # options may be named as the user's client shows them; the payload uses the defaults
        given = {_default_name(leaf_options, k, user.locale): v for k, v in options.items()}
        if focused is not None:
            focused = _default_name(leaf_options, focused, user.locale)
        built, focused_type = self._build_options(
            command_line, leaf_options, given, focused, resolved, channel, validate
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

    def _check_command_permission(
        self, user: User, channel: Channel, command: dict[str, Any]
    ) -> None:
        contexts = command.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise DriverError(f"/{command['name']} is not offered in servers (contexts {contexts})")
        needed = command.get("default_member_permissions")
        if needed is None:
            return
        have = self.fake.guilds[channel.guild_id].permissions_of(user.id)
        # "0" hides the command from everyone but administrators (Discord docs)
        allowed = bool(have & ADMINISTRATOR) or (int(needed) != 0 and not int(needed) & ~have)
        if not allowed:
            raise DriverError(
                f"Discord does not offer /{command['name']} to {user.username}: "
                f"it needs permissions {needed}"
            )

    def _build_options(
        self,
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
            value = self._option_value(
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
        self,
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
        guild = self.fake.guilds[channel.guild_id]
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
            member = guild.members.get(value.id)
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if member is not None:
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
                "permissions": str(guild.permissions_of(self.fake.bot_user.id)),
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

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        validate: bool = True,
        wait: bool = True,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """Run ``/command`` ("game start") with ``options`` as ``user`` in ``channel``.
        ``validate=False`` sends values outside the declared choices, min/max value and length,
        as a modified client could (Discord still checks types and its own limits)."""
        data, _ = self._command_data(user, channel, command, options or {}, None, validate)
        record = self._interact(INTERACTION_APPLICATION_COMMAND, user, channel, data)
        return await self._finish(record, wait=wait, within=within)

    async def autocomplete_result(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        validate: bool = True,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        data, focused_type = self._command_data(
            user, channel, command, options or {}, focused, validate
        )
        record = self._interact(
            INTERACTION_AUTOCOMPLETE, user, channel, data, focused_type=focused_type
        )
        return await self._finish(record, wait=True, within=within)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        validate: bool = True,
        within: float = GUARD_TIMEOUT,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types into option ``focused`` (any text:
        Discord passes whatever the user typed)."""
        result = await self.autocomplete_result(
            user, channel, command, options, focused=focused, validate=validate, within=within
        )
        return result.choices

    # -- components ---------------------------------------------------------------------------

    def _message(self, ref: MessageRef) -> StoredMessage:
        message_id = ref if isinstance(ref, int) else ref.id
        message = self.fake.messages.get(message_id)
        if message is None:
            raise DriverError(f"no message {message_id}")
        return message

    def _visible_message(self, user: User, ref: MessageRef) -> StoredMessage:
        message = self._message(ref)
        if message.deleted:
            raise DriverError(f"message {message.id} was deleted")
        if not message.visible_to(user.id):
            raise DriverError(f"{user.username} cannot see message {message.id} (ephemeral)")
        return message

    def _find_component(
        self,
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
            for entry in reversed([e for e in self.fake.log if e.message_id == message.id]):
                for component in _iter_components(entry.components):
                    if match(component):
                        return component
        available = [
            c.get("label") or c.get("placeholder") or c.get("custom_id")
            for c in message.interactive_components()
        ]
        raise DriverError(
            f"no component {label_or_custom_id!r} on message {message.id}; it has {available}"
        )

    async def click(
        self,
        user: User,
        message: MessageRef,
        label_or_custom_id: str,
        *,
        wait: bool = True,
        allow_stale: bool = False,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """Press the button labelled (or with custom id) ``label_or_custom_id``."""
        record = self._click_record(user, message, label_or_custom_id, allow_stale=allow_stale)
        return await self._finish(record, wait=wait, within=within)

    def _click_record(
        self, user: User, ref: MessageRef, label_or_custom_id: str, *, allow_stale: bool
    ) -> InteractionRecord:
        message = self._visible_message(user, ref)
        button = self._find_component(
            message, label_or_custom_id, allow_stale=allow_stale, types=(COMPONENT_BUTTON,)
        )
        if button.get("disabled"):
            raise DriverError(f"button {label_or_custom_id!r} is disabled")
        if button.get("style") in (5, 6):
            raise DriverError(f"button {label_or_custom_id!r} is a link/premium button")
        data: dict[str, Any] = {
            "custom_id": button["custom_id"],
            "component_type": COMPONENT_BUTTON,
        }
        if "id" in button:
            data["id"] = button["id"]
        channel = self.fake.channels[message.channel_id]
        return self._interact(INTERACTION_MESSAGE_COMPONENT, user, channel, data, message=message)

    async def forge_click(
        self,
        user: User,
        message: MessageRef,
        custom_id: str,
        values: Sequence[str] | None = None,
        component_type: int = COMPONENT_BUTTON,
        *,
        validated_by_discord: bool = True,
        wait: bool = True,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """What a modified client can send: any ``custom_id``, ``values`` and
        ``component_type`` "from" ``message``. Discord fills in the guild, channel, member and
        locale, and checks the component against the message as it stands (``forgery.py``):
        what it refuses raises ``InteractionRejected`` and never reaches the bot. With
        ``validated_by_discord=False`` the interaction is delivered anyway (only the form is
        checked): beyond what Discord delivers today, for defence in depth."""
        stored = self._message(message)
        if not stored.visible_to(user.id):
            raise InteractionRejected(404, 10008, "Unknown Message")
        chosen = list(values) if values is not None else None
        check_form(custom_id, component_type, chosen)
        assert stored.guild_id is not None
        guild = self.fake.guilds[stored.guild_id]
        component = None
        if validated_by_discord:
            component = check_component(stored, guild, custom_id, component_type, chosen)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component is not None and "id" in component:
            data["id"] = component["id"]
        if chosen is not None:
            data["values"] = chosen
            if component_type != COMPONENT_STRING_SELECT:
                resolved = resolved_for(guild, chosen)
                if resolved:
                    data["resolved"] = resolved
        channel = self.fake.channels[stored.channel_id]
        record = self._interact(INTERACTION_MESSAGE_COMPONENT, user, channel, data, message=stored)
        return await self._finish(record, wait=wait, within=within)

    async def double_click(
        self,
        user: User,
        message: MessageRef,
        label_or_custom_id: str,
        *,
        within: float = GUARD_TIMEOUT,
    ) -> tuple[InteractionResult, InteractionResult]:
        """Two presses of one button sent back to back, before the bot answered either."""
        first = self._click_record(user, message, label_or_custom_id, allow_stale=False)
        second = self._click_record(user, message, label_or_custom_id, allow_stale=False)
        results = await asyncio.gather(
            self._finish(first, wait=True, within=within),
            self._finish(second, wait=True, within=within),
        )
        return results[0], results[1]

    async def select(
        self,
        user: User,
        message: MessageRef,
        values: Sequence[str | User | Role | Channel],
        custom_id: str | None = None,
        *,
        wait: bool = True,
        allow_stale: bool = False,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """Choose ``values`` in the select ``custom_id`` (or placeholder; or the only select)."""
        stored = self._visible_message(user, message)
        types = (
            COMPONENT_STRING_SELECT,
            COMPONENT_USER_SELECT,
            COMPONENT_ROLE_SELECT,
            COMPONENT_MENTIONABLE_SELECT,
            COMPONENT_CHANNEL_SELECT,
        )
        if custom_id is None:
            selects = stored.selects()
            if len(selects) != 1:
                raise DriverError(
                    f"message {stored.id} has {len(selects)} selects; pass custom_id= one of "
                    f"{[s.get('custom_id') for s in selects]}"
                )
            select = selects[0]
        else:
            select = self._find_component(stored, custom_id, allow_stale=allow_stale, types=types)
        if select.get("disabled"):
            raise DriverError(f"select {select.get('custom_id')!r} is disabled")
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"select {select['custom_id']!r} takes {low}..{high} values")
        data: dict[str, Any] = {
            "custom_id": select["custom_id"],
            "component_type": select["type"],
            "values": self._select_values(select, values, stored),
        }
        if "id" in select:
            data["id"] = select["id"]
        resolved = self._select_resolved(select, values, stored)
        if resolved:
            data["resolved"] = resolved
        channel = self.fake.channels[stored.channel_id]
        record = self._interact(INTERACTION_MESSAGE_COMPONENT, user, channel, data, message=stored)
        return await self._finish(record, wait=wait, within=within)

    def _select_values(
        self, select: dict[str, Any], values: Sequence[Any], message: StoredMessage
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

    def _select_resolved(
        self, select: dict[str, Any], values: Sequence[Any], message: StoredMessage
    ) -> dict[str, Any]:
        if select["type"] == COMPONENT_STRING_SELECT:
            return {}
        guild = self.fake.guilds[message.guild_id] if message.guild_id else None
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

    async def submit_modal(
        self,
        user: User,
        result: InteractionResult,
        values: Mapping[str, str],
        *,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``result``."""
        modal = result.modal
        if modal is None:
            raise DriverError(f"{result.record.describe()} did not open a modal")
        rows = []
        inputs = [c for c in _iter_all(modal.get("components") or []) if c.get("type") == 4]
        for text_input in inputs:
            value = values.get(text_input["custom_id"], text_input.get("value", ""))
            if text_input.get("required", True) and not value:
                raise DriverError(f"modal field {text_input['custom_id']!r} is required")
            rows.append(
                {
                    "type": 1,
                    "components": [
                        {"type": 4, "custom_id": text_input["custom_id"], "value": value}
                    ],
                }
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        channel = self.fake.channels[result.record.channel_id]
        message = None
        if result.record.component_message_id is not None:
            message = self.fake.messages[result.record.component_message_id]
        record = self._interact(
            INTERACTION_MODAL_SUBMIT, user, channel, data, message=message,
            opened_by=result.record,
        )
        return await self._finish(record, wait=True, within=within)

    def _interact(
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
        guild = self.fake.guilds[channel.guild_id]
        if user.id not in guild.members:
            raise DriverError(f"{user.username} is not a member of {guild.name}")
        return self.fake.create_interaction(
            kind, user, channel, data, message=message, focused_type=focused_type,
            opened_by=opened_by,
        )

    # -- plain messages -----------------------------------------------------------------------

    def say(self, user: User, channel: Channel, content: str) -> StoredMessage:
        """``user`` types a message in ``channel``."""
        if user.id not in self.fake.guilds[channel.guild_id].members:
            raise DriverError(f"{user.username} cannot post in #{channel.name}")
        return self.fake.user_says(user, channel, content)

    # -- waiting for the answer ---------------------------------------------------------------

    async def _finish(
        self,
        record: InteractionRecord,
        *,
        wait: bool,
        within: float,
    ) -> InteractionResult:
        result = InteractionResult(record, self.fake)
        if not wait:
            return result
        try:
            async with asyncio.timeout(within):
                await record.acknowledged
        except TimeoutError:
            raise InteractionFailed(f"{record.describe()}: no answer within {within:g}s") from None
        if record.failed:
            raise InteractionFailed(f"{record.describe()} failed: {record.failure}")
        if record.callback_type == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            # "thinking…" until the bot edits @original or sends its first follow-up
            original = self.fake.messages[record.original_id] if record.original_id else None
            await self.fake.wait_for(
                lambda: original is None or not original.loading,
                within,
                f"the deferred answer to {record.describe()}",
            )
        return result

    async def wait_for(
        self,
        predicate: Callable[[], T],
        within: float = GUARD_TIMEOUT,
        what: str = "condition",
    ) -> T:
        return await self.fake.wait_for(predicate, within, what)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[StoredMessage], bool],
        *,
        user: User | None = None,
        within: float = GUARD_TIMEOUT,
    ) -> StoredMessage:
        """The newest message in ``channel`` (visible to ``user``, or public) matching
        ``predicate``, waiting for it to appear or be edited into shape."""

        def find() -> StoredMessage | None:
            pool = self.visible_to(user, channel) if user else self.channel_messages(channel)
            for message in reversed(pool):
                if predicate(message):
                    return message
            return None

        return await self.fake.wait_for(find, within, f"a matching message in #{channel.name}")

    # -- what users see -----------------------------------------------------------------------

    def channel_messages(self, channel: Channel) -> list[StoredMessage]:
        """Public messages in ``channel``, oldest first, as they stand now."""
        return self.fake.channel_messages(channel.id)

    def visible_to(self, user: User, channel: Channel) -> list[StoredMessage]:
        """What ``user`` sees in ``channel``: public messages and their own ephemerals."""
        return [m for m in self.fake.channel_history(channel.id) if m.visible_to(user.id)]

    def ephemerals(self, user: User, channel: Channel | None = None) -> list[StoredMessage]:
        pool = (
            self.fake.channel_history(channel.id)
            if channel is not None
            else sorted(self.fake.messages.values(), key=lambda m: m.id)
        )
        return [m for m in pool if m.ephemeral_for == user.id and not m.deleted]

    def latest(self, channel: Channel, user: User | None = None) -> StoredMessage | None:
        pool = self.visible_to(user, channel) if user else self.channel_messages(channel)
        return pool[-1] if pool else None

    def pings(self, user: User | None = None, channel: Channel | None = None) -> list[Ping]:
        return [
            p
            for p in self.fake.pings
            if (user is None or p.user_id == user.id)
            and (channel is None or p.channel_id == channel.id)
        ]

    @property
    def log(self) -> list[LogEntry]:
        """Every version of every message ever sent, edited or deleted, with its audience."""
        return list(self.fake.log)

    def log_visible_to(self, user: User, channel: Channel | None = None) -> list[LogEntry]:
        return [
            e
            for e in self.fake.log
            if e.visible_to(user.id) and (channel is None or e.channel_id == channel.id)
        ]

    def interactions(self) -> list[InteractionRecord]:
        return list(self.fake.interactions.values())

    # -- end-of-test checks -------------------------------------------------------------------

    def allow_failed_interactions(self) -> None:
        self._allow_failed = True

    def allow_rest_errors(self) -> None:
        self._allow_rest_errors = True

    def allow_rate_limits(self) -> None:
        """This test means to exceed Discord's rate limits (429s from injected faults never
        count as problems)."""
        self._allow_rate_limits = True

    def allow_contract_breaches(self) -> None:
        """This test means to send what Discord's API description rejects (the fake's own
        tests of what it does with such requests)."""
        self._allow_contract_breaches = True

    def allow_unknown_emojis(self) -> None:
        """This test means to send ``<:name:id>`` for emojis the app does not have."""
        self._allow_unknown_emojis = True

    def problems(self) -> list[str]:
        """What a finished test must not leave behind."""
        found: list[str] = []
        if not self._allow_failed:
            for record in self.fake.interactions.values():
                if record.failed:
                    found.append(f"{record.describe()}: This interaction failed ({record.failure})")
                elif not record.answered:
                    found.append(f"{record.describe()} was still unanswered when the test ended")
        for call in self.fake.rest_calls:
            if call.unmodelled:
                found.append(
                    f"the bot called {call.method} {call.path}, which the fake does not model"
                )
            elif not self._allow_rest_errors and not call.injected and call.status in (400, 401):
                found.append(f"{call.method} {call.path} was rejected: {call.status} {call.error}")
        found.extend(
            f"{breach.method} {breach.path} breaks Discord's API description: {breach.problem}"
            for breach in self.fake.contract_breaches
            # a test that means to send what Discord rejects may, where the fake rejected it too
            if not self._allow_contract_breaches
            and not (self._allow_rest_errors and breach.status == 400)
        )
        if not self._allow_rate_limits:
            found.extend(
                f"{hit.describe()}; Discord would have refused it too "
                "(driver.allow_rate_limits() if the test means it)"
                for hit in self.fake.rate_limited
                if not hit.injected
            )
        if not self._allow_unknown_emojis:
            found.extend(
                f"message {miss.message_id} (version {miss.version}) writes <:{miss.name}:"
                f"{miss.emoji_id}>, which is no emoji of the application: readers see "
                f":{miss.name}:"
                for miss in self.fake.unknown_emojis
            )
        return found


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


def _iter_all(components: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in components:
        yield component
        yield from _iter_all(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _iter_all([component[key]])


def _iter_components(components: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in _iter_all(components):
        if component.get("type") != 1:
            yield component
