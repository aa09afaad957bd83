"""Channel webhooks: made with the bot's token (Manage Webhooks), executed with their own
token, into their channel or a thread of it; WEBHOOKS_UPDATE when they come and go.

(The application's interaction webhook, which answers interactions, is in ``interactions.py``.)
"""

from __future__ import annotations

from typing import Any

from bot.fakediscord import errors
from bot.fakediscord.attachments import Upload
from bot.fakediscord.changes import Changes
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.intents import INTENT_GUILD_WEBHOOKS
from bot.fakediscord.messages import MessageStore
from bot.fakediscord.model import (
    CHANNEL_GUILD_TEXT,
    MANAGE_WEBHOOKS,
    VIEW_CHANNEL,
    Channel,
    StoredMessage,
    User,
    Webhook,
)
from bot.fakediscord.snowflake import new_token
from bot.fakediscord.world import World

MAX_WEBHOOKS_PER_CHANNEL = 15
"""Discord: "Maximum number of webhooks reached (15)" (30007)."""


class WebhookStore:
    def __init__(self, world: World, store: MessageStore, changes: Changes) -> None:
        self.world = world
        self.store = store
        self.changes = changes
        self.webhooks: dict[int, Webhook] = {}
        """Channel webhooks by id (the interaction webhooks are the application's, apart)."""

    def create_webhook(self, channel: Channel, body: Any, creator: User) -> Webhook:
        """Discord's Create Webhook: Manage Webhooks in the channel (403 50013), a channel
        that is no thread (400 50024: a webhook lives on the parent, and executes into its
        threads), a valid name (1-80 characters, without "clyde" or "discord" in any case),
        at most 15 a channel (400 30007). A bot's webhook is its application's. Fires
        WEBHOOKS_UPDATE."""
        world = self.world
        permissions = world.guilds[channel.guild_id].permissions_in(creator.id, channel)
        if not permissions & VIEW_CHANNEL:
            raise errors.missing_access()
        if not permissions & MANAGE_WEBHOOKS:
            raise errors.missing_permissions()
        if not isinstance(body, dict):
            raise errors.bad_json()
        problems = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.required(("name",))
        elif len(name) > 80:
            problems.bad_length(("name",), 1, 80)
        elif "clyde" in name.lower() or "discord" in name.lower():
            problems.add(("name",), "WEBHOOK_INVALID_NAME",
                         "Webhook names cannot contain \"clyde\" or \"discord\"")
        problems.raise_if_any()
        if channel.is_thread or channel.type != CHANNEL_GUILD_TEXT:
            raise errors.wrong_channel_type()
        if len(self.channel_webhooks(channel)) >= MAX_WEBHOOKS_PER_CHANNEL:
            raise errors.max_webhooks()
        application = world.application.id if creator.id == world.bot_user.id else None
        webhook = Webhook(world.ids.next(), channel.guild_id, channel.id, name, new_token(""),
                          creator, application)
        self.webhooks[webhook.id] = webhook
        self._webhooks_changed(webhook)
        return webhook

    def channel_webhooks(self, channel: Channel) -> list[Webhook]:
        return [w for w in self.webhooks.values() if w.channel_id == channel.id]

    def webhook_by_id(self, webhook_id: int) -> Webhook:
        """A webhook for the bot's own requests (Get and Delete Webhook): Manage Webhooks
        in its channel."""
        webhook = self.webhooks.get(webhook_id)
        if webhook is None:
            raise errors.unknown_webhook()
        channel = self.world.channel(webhook.channel_id)
        if not self.world.bot_permissions(channel.guild_id, channel) & MANAGE_WEBHOOKS:
            raise errors.missing_permissions()
        return webhook

    def webhook_by_token(self, webhook_id: int, token: str) -> Webhook:
        webhook = self.webhooks.get(webhook_id)
        if webhook is None:
            raise errors.unknown_webhook()
        if webhook.token != token:
            raise errors.invalid_webhook_token()
        return webhook

    def delete_webhook(self, webhook: Webhook) -> None:
        """The webhook is gone (the bot, or a member in the channel's Integrations settings);
        its messages stay, and nobody can edit them any more."""
        if self.webhooks.pop(webhook.id, None) is not None:
            self._webhooks_changed(webhook)

    def _webhooks_changed(self, webhook: Webhook) -> None:
        self.world.events.dispatch(
            "WEBHOOKS_UPDATE",
            {"guild_id": str(webhook.guild_id), "channel_id": str(webhook.channel_id)},
            intent=INTENT_GUILD_WEBHOOKS,
            guild_id=webhook.guild_id,
        )
        self.changes.changed()

    def webhook_target(self, webhook: Webhook, thread_id: int | None) -> Channel:
        """Where ``webhook`` writes: its channel, or (``thread_id``) a thread of it (400
        50035 otherwise, as for any other channel id)."""
        if thread_id is None:
            return self.world.channel(webhook.channel_id)
        thread = self.world.channels.get(thread_id)
        if thread is None or not thread.is_thread or thread.parent_id != webhook.channel_id:
            raise errors.invalid_form_body({"thread_id": {"_errors": [
                {"code": "GUILD_CHANNEL_INVALID_PARENT", "message": "Unknown channel"}]}})
        return thread

    def execute_webhook(self, webhook: Webhook, body: dict[str, Any], files: list[Upload],
                        thread_id: int | None) -> StoredMessage:
        """Post a message as ``webhook``. An application-owned webhook may send interactive
        components; any other's are refused here (Discord ignores them without
        ``with_components``, and never takes buttons from one)."""
        channel = self.webhook_target(webhook, thread_id)
        if webhook.application_id is None and isinstance(body, dict) and body.get("components"):
            raise errors.invalid_form_body({"components": {"_errors": [
                {"code": "COMPONENT_INVALID_FOR_WEBHOOK",
                 "message": "Interactive components need an application-owned webhook"}]}})
        return self.store.create_message(channel, webhook.author, body, files=files,
                                         channel_webhook=webhook)

    def channel_webhook_message(self, webhook: Webhook, message_ref: str,
                                thread_id: int | None) -> StoredMessage:
        """A message ``webhook`` posted, in its channel or (``thread_id``) that thread: a
        message in a thread is found only with its ``thread_id`` (10008 otherwise)."""
        channel = self.webhook_target(webhook, thread_id)
        try:
            message = self.store.messages.get(int(message_ref))
        except ValueError:
            raise errors.unknown_message() from None
        if (message is None or message.deleted or message.webhook_id != webhook.id
                or message.channel_id != channel.id):
            raise errors.unknown_message()
        return message
