"""The test driver: simulated users acting through the fake Discord, and what they see.

Every action builds the interaction payload Discord's client would send (from the commands the
bot *synced*, and from the message as it stands) and returns once the bot has answered, or
raises ``InteractionFailed`` with the reason. Waits are event-driven; the timeouts are only
guards against a hung bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from bot.fakediscord.activities import ActivityInstance, LaunchRefused
from bot.fakediscord.componentdata import (
    find_component,
    iter_all,
    select_resolved,
    select_values,
)
from bot.fakediscord.forgery import (
    InteractionRejected,
    check_component,
    check_form,
    resolved_for,
)
from bot.fakediscord.locales import DEFAULT_LOCALE
from bot.fakediscord.model import (
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
from bot.fakediscord.results import (
    GUARD_TIMEOUT,
    DriverError,
    InteractionFailed,
    InteractionResult,
    MessageRef,
)
from bot.fakediscord.server import FakeDiscord
from bot.fakediscord.slashdata import (
    INTEGER_OPTION_MAX,
    STRING_OPTION_MAX,
    command_data,
    synced_command,
    user_command_data,
)
from bot.fakediscord.validation import (
    COMPONENT_BUTTON,
    COMPONENT_CHANNEL_SELECT,
    COMPONENT_MENTIONABLE_SELECT,
    COMPONENT_ROLE_SELECT,
    COMPONENT_STRING_SELECT,
    COMPONENT_USER_SELECT,
)

__all__ = [  # what the driver raises and returns lives in results.py; imported from here too
    "GUARD_TIMEOUT",
    "INTEGER_OPTION_MAX",
    "STRING_OPTION_MAX",
    "Driver",
    "DriverError",
    "InteractionFailed",
    "InteractionResult",
    "MessageRef",
]

T = TypeVar("T")


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
        with_bot: bool = True,
    ) -> Guild:
        """A server with @everyone, a Moderator role (Manage Messages) and the bot's role;
        ``shard_of=(k, n)`` gives it an id whose events Discord routes to shard k of n;
        ``guild_id`` fixes its id; ``with_bot=False`` leaves the bot out (no role, no
        GUILD_CREATE): only people who installed the app reach it there."""
        options: dict[str, int] = {}
        if bot_permissions is not None:
            options["bot_permissions"] = bot_permissions
        if everyone_permissions is not None:
            options["everyone_permissions"] = everyone_permissions
        return self.fake.add_guild(
            name, shard_of=shard_of, preferred_locale=preferred_locale, guild_id=guild_id,
            with_bot=with_bot, **options,
        )

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        thread: bool = False,
        parent: Channel | None = None,
        voice: bool = False,
        channel_id: int | None = None,
    ) -> Channel:
        return self.fake.add_channel(
            guild, name, thread=thread, parent=parent, voice=voice, channel_id=channel_id
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

    def install_for(self, user: User) -> None:
        """``user`` adds the app to their own account (its user-install link)."""
        self.fake.install_for(user)

    def add_group_dm(self, owner: User, others: Iterable[User], *, name: str = "",
                     channel_id: int | None = None) -> Channel:
        """A group DM of ``owner`` and ``others``; the bot is not in it."""
        return self.fake.add_group_dm(owner, list(others), name=name, channel_id=channel_id)

    def bot_dm(self, user: User) -> Channel:
        """``user``'s DM with the app's bot user."""
        return self.fake.bot_dm(user)

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
        return synced_command(self.fake, channel, name, locale)


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
        data, _ = command_data(self.fake, user, channel, command, options or {}, None, validate)
        record = self._interact(INTERACTION_APPLICATION_COMMAND, user, channel, data)
        return await self._finish(record, wait=wait, within=within)

    async def user_command(
        self,
        user: User,
        channel: Channel,
        name: str,
        target: User,
        *,
        wait: bool = True,
        within: float = GUARD_TIMEOUT,
    ) -> InteractionResult:
        """``user`` right-clicks ``target`` in ``channel`` and picks the app's user command
        ``name`` (Apps → ``name``)."""
        data = user_command_data(self.fake, user, channel, name, target)
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
        data, focused_type = command_data(
            self.fake, user, channel, command, options or {}, focused, validate
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
        button = find_component(
            self.fake, message, label_or_custom_id, allow_stale=allow_stale,
            types=(COMPONENT_BUTTON,),
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
        guild = self.fake.guilds.get(stored.guild_id) if stored.guild_id is not None else None
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
            select = find_component(
                self.fake, stored, custom_id, allow_stale=allow_stale, types=types
            )
        if select.get("disabled"):
            raise DriverError(f"select {select.get('custom_id')!r} is disabled")
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"select {select['custom_id']!r} takes {low}..{high} values")
        data: dict[str, Any] = {
            "custom_id": select["custom_id"],
            "component_type": select["type"],
            "values": select_values(select, values, stored),
        }
        if "id" in select:
            data["id"] = select["id"]
        resolved = select_resolved(self.fake, select, values, stored)
        if resolved:
            data["resolved"] = resolved
        channel = self.fake.channels[stored.channel_id]
        record = self._interact(INTERACTION_MESSAGE_COMPONENT, user, channel, data, message=stored)
        return await self._finish(record, wait=wait, within=within)

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
        inputs = [c for c in iter_all(modal.get("components") or []) if c.get("type") == 4]
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
        self._interact_check(user, channel)
        return self.fake.create_interaction(
            kind, user, channel, data, message=message, focused_type=focused_type,
            opened_by=opened_by,
        )

    # -- Activities ---------------------------------------------------------------------------

    def enable_activities(self, root: str | None = None, *, entry_point: bool = True) -> None:
        """Activities switched on for the app (EMBEDDED flag, the default Entry Point command
        "launch" with handler 2); ``root``: the root URL mapping's target."""
        self.fake.enable_activities(root, entry_point=entry_point)

    async def launch_activity(
        self, user: User, channel: Channel, *, within: float = GUARD_TIMEOUT
    ) -> ActivityInstance:
        """``user`` picks the app in the App Launcher in ``channel``: its Entry Point command.
        With handler 2 Discord launches (or joins) the channel's instance itself, the bot
        hearing nothing; with handler 1 the bot gets the command's interaction and must
        answer LAUNCH_ACTIVITY (12), else ``DriverError``."""
        command = self.fake.entry_point()
        if command is None:
            raise DriverError("the app has no Entry Point command")
        self._interact_check(user, channel)
        if not self.fake.world.may_use_activities(user, channel):
            raise DriverError(f"{user.username} lacks Use Activities in #{channel.name}")
        if command["handler"] == 2:
            try:
                return self.fake.activities.launch(user, channel)
            except LaunchRefused as exc:
                raise DriverError(str(exc)) from None
        data = {"id": command["id"], "name": command["name"], "type": command["type"]}
        record = self._interact(INTERACTION_APPLICATION_COMMAND, user, channel, data)
        result = await self._finish(record, wait=True, within=within)
        if result.activity_instance is None:
            raise DriverError(f"the bot answered the Entry Point command with callback "
                              f"{result.type}, not LAUNCH_ACTIVITY (12)")
        return result.activity_instance

    def activity_in(self, channel: Channel) -> ActivityInstance | None:
        """The app's instance running in ``channel``, if any."""
        return self.fake.activities.in_channel(channel)

    def join_activity(self, user: User, instance: ActivityInstance) -> None:
        """``user`` joins a running instance (clicks "Join Activity" in the channel)."""
        self._interact_check(user, instance.channel)
        if not self.fake.world.may_use_activities(user, instance.channel):
            raise DriverError(f"{user.username} lacks Use Activities in #{instance.channel.name}")
        try:
            self.fake.activities.join(user, instance)
        except LaunchRefused as exc:
            raise DriverError(str(exc)) from None

    def leave_activity(self, user: User, instance: ActivityInstance) -> None:
        """``user`` closes the Activity; the last one out ends the instance."""
        self.fake.activities.leave(user, instance)

    def authorize(
        self,
        user: User,
        scopes: Iterable[str] = ("identify",),
        *,
        client_id: int | None = None,
        redirect_uri: str | None = None,
    ) -> str:
        """``user`` approves the consent dialog for ``scopes`` (the SDK's ``authorize``): the
        code it yields, for the app (or another client, ``client_id``)."""
        return self.fake.authorize(user, client_id or self.fake.application.id, scopes,
                                   redirect_uri)

    def _interact_check(self, user: User, channel: Channel) -> None:
        if channel.guild_id is None:
            if user not in channel.recipients:
                raise DriverError(f"{user.username} is not in the (group) DM {channel.id}")
        else:
            guild = self.fake.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise DriverError(f"{user.username} is not a member of {guild.name}")

    # -- plain messages -----------------------------------------------------------------------

    def say(self, user: User, channel: Channel, content: str) -> StoredMessage:
        """``user`` types a message in ``channel``."""
        if (user not in channel.recipients if channel.guild_id is None
                else user.id not in self.fake.guilds[channel.guild_id].members):
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

