"""Interactions: INTERACTION_CREATE as Discord sends it, the 3-second deadline, the callback,
and the application's webhook that answers with follow-ups and edits ``@original``."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from typing import Any

from bot.fakediscord import errors
from bot.fakediscord.activities import Activities, LaunchRefused
from bot.fakediscord.attachments import ATTACHMENT_SIZE_LIMIT, Upload
from bot.fakediscord.changes import Changes
from bot.fakediscord.errors import DiscordHTTPError, FormErrors
from bot.fakediscord.messages import MessageStore
from bot.fakediscord.model import (
    ATTACH_FILES,
    CHANNEL_DM,
    EMBED_LINKS,
    MENTION_EVERYONE,
    MESSAGE_CHAT_INPUT_COMMAND,
    MESSAGE_CONTEXT_MENU_COMMAND,
    MESSAGE_DEFAULT,
    USE_EXTERNAL_EMOJIS,
    Channel,
    StoredMessage,
    User,
)
from bot.fakediscord.records import (
    ALLOWED_CALLBACKS,
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_LAUNCH_ACTIVITY,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    INTERACTION_APPLICATION_COMMAND,
    InteractionRecord,
)
from bot.fakediscord.snowflake import new_token
from bot.fakediscord.validation import (
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    validate_autocomplete_choices,
    validate_modal,
)
from bot.fakediscord.world import World

_log = logging.getLogger("fakediscord")

INTERACTION_DEADLINE = 3.0
WEBHOOK_TOKEN_LIFETIME = 15 * 60
USER_INSTALL_FOLLOWUPS = 5
"""Follow-ups an interaction may have when only the person's install authorised it (Discord
docs, "Receiving and Responding": "Apps are limited to 5 followup messages per interaction if
it was initiated from a user-installed app and isn't installed in the server")."""
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
_CALLBACKS_WITH_RESOURCE = frozenset({CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE})


class InteractionStore:
    """The interactions by id and by token. ``deadline`` is the seconds a bot has to answer;
    ``clock`` (Unix seconds) runs the 15-minute interaction tokens."""

    def __init__(
        self,
        world: World,
        store: MessageStore,
        changes: Changes,
        activities: Activities,
        *,
        clock: Callable[[], float],
        deadline: float = INTERACTION_DEADLINE,
    ) -> None:
        self.world = world
        self.store = store
        self.changes = changes
        self.activities = activities
        self.clock = clock
        self.deadline = deadline
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}

    def stop(self) -> None:
        """Cancel the deadline timers still running."""
        for record in self.interactions.values():
            if record.deadline_handle is not None:
                record.deadline_handle.cancel()

    def _message_type(self, record: InteractionRecord) -> int:
        if record.type == INTERACTION_APPLICATION_COMMAND:
            if record.data.get("type", 1) != 1:
                return MESSAGE_CONTEXT_MENU_COMMAND
            return MESSAGE_CHAT_INPUT_COMMAND
        return MESSAGE_DEFAULT

    # -- creating and timing out ----------------------------------------------------------------

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
        world = self.world
        interaction_id = world.ids.next()
        token = new_token("aW50ZXJhY3Rpb246")
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(world.application.id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            **self._context(user, channel),
        }
        if message is not None:
            payload["message"] = message.payload()
            origin = (message.interaction_metadata or {}).get("authorizing_integration_owners")
            if origin:
                # a component of an app's message runs as the install that made the message
                # did, whoever clicks it (Discord docs, "Interaction Object")
                payload["authorizing_integration_owners"] = dict(origin)
        loop = asyncio.get_running_loop()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            created_at=loop.time(),
            issued_at=self.clock(),
            acknowledged=loop.create_future(),
            focused_type=focused_type,
            component_message_id=message.id if message is not None else None,
            opened_by=opened_by,
        )
        record.deadline_handle = loop.call_later(self.deadline, self._deadline_passed, record)
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        # needs no intent; only the sessions whose shard owns the guild get it
        world.events.dispatch("INTERACTION_CREATE", payload, intent=None,
                              guild_id=channel.guild_id)
        _log.info("INTERACTION_CREATE %s", record.describe())
        self.changes.changed()
        return record

    def _context(self, user: User, channel: Channel) -> dict[str, Any]:
        """Where the interaction happened, as Discord tells the app (Discord docs,
        "Interaction Object"): in a server the guild, the member and their permissions, the
        context 0 and the installs that authorised it (the server's, where the bot is a member,
        and the person's, where they installed the app); in a DM (context 1, the bot's DM) or a
        group DM (2) the ``user`` and the person's install. ``app_permissions`` in (G)DMs with
        other people are only ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE, and in the bot's
        DM USE_EXTERNAL_EMOJIS as well."""
        world = self.world
        user_install = user.id in world.user_installs
        if channel.guild_id is None:
            if channel.type == CHANNEL_DM:
                context, app = 1, PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS
            else:
                context, app = 2, PRIVATE_APP_PERMISSIONS
            return {
                "channel": channel.private_payload(user.id),
                "user": user.payload(),
                "app_permissions": str(app),
                "authorizing_integration_owners": {"1": str(user.id)},
                "context": context,
            }
        guild = world.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        permissions = str(guild.permissions_in(user.id, channel))
        owners: dict[str, str] = {}
        if world.bot_user.id in guild.members:
            owners["0"] = str(guild.id)
        if user_install:
            owners["1"] = str(user.id)
        return {
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "guild_id": str(guild.id),
            "channel": {**channel.payload(), "permissions": permissions},
            "member": {**member.payload(), "permissions": permissions},
            "app_permissions": str(world.bot_permissions(guild.id, channel)),
            "guild_locale": guild.preferred_locale,
            "authorizing_integration_owners": owners,
            "context": 0,
        }

    def _deadline_passed(self, record: InteractionRecord) -> None:
        if record.answered or record.failed:
            return
        record.failed = True
        reason = f"no callback within {self.deadline:g} s"
        if record.rejected:
            last = record.rejected[-1]
            reason += f"; the bot's callback was rejected with {last.status} {last.body()}"
        if not self.world.events.live_sessions(record.guild_id):
            reason += "; no bot session owning this server's shard was connected to the gateway"
        record.failure = reason
        _log.warning("%s: This interaction failed (%s)", record.describe(), reason)
        if not record.acknowledged.done():
            record.acknowledged.set_result(None)
        self.changes.changed()

    def _acknowledge(self, record: InteractionRecord, callback_type: int) -> None:
        record.callback_type = callback_type
        record.callback_at = asyncio.get_running_loop().time()
        if record.deadline_handle is not None:
            record.deadline_handle.cancel()
        if not record.acknowledged.done():
            record.acknowledged.set_result(None)

    # -- the callback ---------------------------------------------------------------------------

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
        if record.failed or now - record.created_at > self.deadline:
            self._deadline_passed(record)
            raise errors.unknown_interaction()
        if record.answered:
            raise errors.already_acknowledged()
        try:
            message = self._apply_callback(record, body, files)
        except DiscordHTTPError as exc:
            if exc.status == 400:
                record.rejected.append(exc)
                self.changes.changed()
            raise
        self.changes.changed()
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
        if not self.activities.enabled:
            # "Only available for apps with Activities enabled"
            allowed = tuple(a for a in allowed if a != CALLBACK_LAUNCH_ACTIVITY)
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
        channel = self.world.channels[record.channel_id]
        bot = self.world.bot_user
        ephemeral = bool((data.get("flags") or 0) & FLAG_EPHEMERAL) or record.forced_ephemeral
        message_type = self._message_type(record)
        message: StoredMessage | None = None
        if callback_type == CALLBACK_CHANNEL_MESSAGE:
            message = self.store.create_message(
                channel,
                bot,
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
            if (data.get("flags") or 0) & FLAG_IS_COMPONENTS_V2:
                # Discord: only EPHEMERAL on a defer; a layout comes with the edit of the
                # original response ("Interaction Callback Data Structure")
                raise errors.invalid_form_body({"data": {"flags": {"_errors": [
                    {"code": "INTERACTION_DEFERRED_FLAGS_INVALID",
                     "message": "Only the EPHEMERAL flag may be set on a deferred response"}]}}})
            message = self.store.create_message(
                channel,
                bot,
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
            target = self.store.messages[record.component_message_id]
            if target.deleted:
                raise errors.unknown_message()
            message = self.store.edit_message(target, data, files=files, path=("data",))
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
        elif callback_type == CALLBACK_LAUNCH_ACTIVITY:
            try:
                instance = self.activities.launch(record.user, channel)
            except LaunchRefused as exc:
                # Discord's error for a place Activities cannot open is undocumented
                raise errors.invalid_form_body({"type": {"_errors": [
                    {"code": "INTERACTION_LAUNCH_ACTIVITY_UNAVAILABLE", "message": str(exc)}]}}
                ) from None
            record.activity_instance_id = instance.id
        self._acknowledge(record, callback_type)
        return message

    def callback_response(
        self, record: InteractionRecord, message: StoredMessage | None
    ) -> dict[str, Any]:
        """The documented InteractionCallbackResponse (``?with_response=true``)."""
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        if record.activity_instance_id is not None:
            interaction["activity_instance_id"] = record.activity_instance_id
        if record.original_id is not None:
            original = self.store.messages[record.original_id]
            interaction["response_message_id"] = str(original.id)
            interaction["response_message_loading"] = original.loading
            interaction["response_message_ephemeral"] = original.ephemeral
        response: dict[str, Any] = {"interaction": interaction}
        if record.activity_instance_id is not None:
            response["resource"] = {"type": CALLBACK_LAUNCH_ACTIVITY,
                                    "activity_instance": {"id": record.activity_instance_id}}
        # the resource is the message the callback created or updated; Discord's docs give it
        # "only if type is either CHANNEL_MESSAGE_WITH_SOURCE or UPDATE_MESSAGE", so a deferral
        # (5, 6) answers without one, its loading message known only by id above
        if message is not None and record.callback_type in _CALLBACKS_WITH_RESOURCE:
            response["resource"] = {"type": record.callback_type, "message": message.payload()}
        return response

    # -- the interaction webhook (follow-ups and @original) ---------------------------------------

    def webhook_record(self, application_id: int, token: str) -> InteractionRecord:
        if application_id != self.world.application.id:
            raise errors.unknown_webhook()
        record = self._by_token.get(token)
        if record is None:
            raise errors.invalid_webhook_token()
        # the token works for 15 minutes, on the fake's clock (Discord docs, "Followup Messages")
        if self.clock() - record.issued_at > WEBHOOK_TOKEN_LIFETIME:
            raise errors.invalid_webhook_token()
        return record

    def webhook_message(self, record: InteractionRecord, message_ref: str) -> StoredMessage:
        messages = self.store.messages
        if message_ref == "@original":
            if record.original_id is None:
                raise errors.unknown_message()
            message = messages[record.original_id]
        else:
            try:
                message_id = int(message_ref)
            except ValueError:
                raise errors.unknown_message() from None
            message = messages.get(message_id)  # type: ignore[assignment]
            owned = {record.original_id, record.component_message_id, *record.followup_ids}
            if message is None or (
                message_id not in owned
                and not (
                    message.webhook_id == self.world.application.id
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
            original = self.store.messages[record.original_id]
            edit = {k: v for k, v in body.items() if k != "flags"}
            if (body.get("flags") or 0) & FLAG_IS_COMPONENTS_V2:
                edit["flags"] = FLAG_IS_COMPONENTS_V2  # the layout it sends stays a layout
            message = self.store.edit_message(original, edit, files=files)
            self.changes.changed()
            return message
        if record.user_install_only and len(record.followup_ids) >= USER_INSTALL_FOLLOWUPS:
            raise errors.too_many_followups()
        ephemeral = bool((body.get("flags") or 0) & FLAG_EPHEMERAL) or record.forced_ephemeral
        channel = self.world.channels[record.channel_id]
        message = self.store.create_message(
            channel,
            self.world.bot_user,
            body,
            files=files,
            ephemeral_for=record.user.id if ephemeral else None,
            webhook=True,
            message_type=self._message_type(record),
            interaction=record,
        )
        record.followup_ids.append(message.id)
        self.changes.changed()
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
        return self.store.edit_message(message, body, files=files)
