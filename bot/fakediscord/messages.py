"""Channel messages: creating, editing and deleting them as Discord does (validation, files,
mentions and pings, replies, nonces, the log), and finding them again.

Everything that writes a message (a channel route, an interaction's callback, a follow-up, a
channel webhook, a user typing) goes through one ``MessageStore``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.fakediscord import errors
from bot.fakediscord.attachments import (
    MAX_ATTACHMENTS,
    Attachment,
    NewAttachment,
    Upload,
    attachments_after,
    check_uploads,
    resolve_references,
    spoiler_from,
)
from bot.fakediscord.attachments import too_many as too_many_attachments
from bot.fakediscord.changes import Changes
from bot.fakediscord.emojis import ApplicationEmojis, content_emoji_ids
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.intents import INTENT_GUILD_MESSAGES
from bot.fakediscord.jsonvalue import copy_json
from bot.fakediscord.layouts import check_references, layout_text
from bot.fakediscord.model import (
    MESSAGE_DEFAULT,
    MESSAGE_REPLY,
    Channel,
    Guild,
    StoredMessage,
    User,
    Webhook,
    resolve_mentions,
)
from bot.fakediscord.records import (
    INTERACTION_APPLICATION_COMMAND,
    InteractionRecord,
    LogEntry,
    Ping,
    UnknownEmoji,
    command_path,
)
from bot.fakediscord.snowflake import iso_now
from bot.fakediscord.validation import (
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    validate_conversion,
    validate_message_body,
)
from bot.fakediscord.world import World

NONCE_WINDOW = 300.0
"""Seconds an enforced nonce deduplicates message creates ("the past few minutes")."""
# Interactions and webhooks parse only user mentions unless told otherwise (Discord docs,
# "Allowed mentions"); plain channel messages parse everything.
WEBHOOK_DEFAULT_MENTIONS: dict[str, Any] = {"parse": ["users"]}
_CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2


class MessageStore:
    """Every message and attachment, per channel too, with the log and pings tests read.

    ``clock`` (Unix seconds) dates enforced nonces; ``base_url`` is where attachments are
    served (the fake's address, known once it listens)."""

    def __init__(
        self,
        world: World,
        changes: Changes,
        emojis: ApplicationEmojis,
        *,
        clock: Callable[[], float],
        base_url: Callable[[], str],
    ) -> None:
        self.world = world
        self.changes = changes
        self.emojis = emojis
        self.clock = clock
        self.base_url = base_url
        self.messages: dict[int, StoredMessage] = {}
        self._by_channel: dict[int, list[StoredMessage]] = {}
        # (author, nonce) -> (message id, when): enforce_nonce deduplicates recent creates
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.log: list[LogEntry] = []
        self.pings: list[Ping] = []
        self.unknown_emojis: list[UnknownEmoji] = []
        self._seq = 0

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # -- finding messages ---------------------------------------------------------------------

    def public_message(self, channel_id: int, message_id: int) -> StoredMessage:
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel_id
            or message.ephemeral_for is not None
        ):
            raise errors.unknown_message()
        return message

    def channel_messages(self, channel_id: int) -> list[StoredMessage]:
        """The channel's public messages that exist, oldest first."""
        return [
            m
            for m in self.channel_history(channel_id)
            if not m.deleted and m.ephemeral_for is None
        ]

    def channel_history(self, channel_id: int) -> list[StoredMessage]:
        """Every message ever made in the channel (ephemeral and deleted too), oldest first;
        kept per channel so no request scans the whole server."""
        return self._by_channel.get(channel_id, [])

    # -- what Discord makes of a message body ---------------------------------------------------

    def _normalise_components(self, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Discord numbers components that carry no ``id`` (1, 2, ... across the message,
        passing over the ids given; 0 counts as none) and returns emoji ids as snowflake
        strings; a Unicode emoji comes back without an ``id`` (its description's
        ComponentEmojiResponse has no null id)."""
        result: list[dict[str, Any]] = copy_json(components)
        taken = _given_ids(result)
        counter = [0]

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if not item.get("id"):
                    counter[0] += 1
                    while counter[0] in taken:
                        counter[0] += 1
                    item["id"] = counter[0]
                for holder in [item, *(item.get("options") or [])]:
                    emoji = holder.get("emoji")
                    if isinstance(emoji, dict) and emoji.get("id") is not None:
                        emoji["id"] = str(emoji["id"])
                    elif isinstance(emoji, dict):
                        emoji.pop("id", None)
                walk(item.get("components") or [])
                for key in ("accessory", "component"):
                    if isinstance(item.get(key), dict):
                        walk([item[key]])

        walk(result)
        return result

    @staticmethod
    def _normalise_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = copy_json(embeds)
        for embed in result:
            embed.setdefault("type", "rich")
            embed["content_scan_version"] = 0
        return result

    def _attachment_factory(self, channel_id: int, *, ephemeral: bool) -> NewAttachment:
        def new(upload: Upload, meta: dict[str, Any]) -> Attachment:
            attachment_id = self.world.ids.next()
            name = meta.get("filename") or upload.filename
            return Attachment(
                id=attachment_id,
                filename=name,
                content_type=upload.content_type,
                data=upload.data,
                url=f"{self.base_url()}/attachments/{channel_id}/{attachment_id}/{name}",
                description=meta.get("description"),
                title=meta.get("title"),
                spoiler=spoiler_from(upload, meta),
                ephemeral=ephemeral,
            )

        return new

    def _files_after(
        self,
        form: FormErrors,
        path: tuple[str | int, ...],
        body: dict[str, Any],
        uploads: list[Upload],
        existing: list[Attachment],
        *,
        channel_id: int,
        ephemeral: bool,
        editing: bool,
    ) -> list[Attachment]:
        check_uploads(uploads)
        result = attachments_after(
            form,
            path,
            body,
            uploads,
            existing,
            self._attachment_factory(channel_id, ephemeral=ephemeral),
            editing=editing,
        )
        if len(result) > MAX_ATTACHMENTS:
            raise too_many_attachments()
        return result

    def _store_files(self, attachments: list[Attachment]) -> None:
        for attachment in attachments:
            self.attachments[attachment.id] = attachment

    # -- writing ------------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        *,
        files: list[Upload] | None = None,
        path: tuple[str | int, ...] = (),
        ephemeral_for: int | None = None,
        extra_flags: int = 0,
        webhook: bool = False,
        message_type: int = MESSAGE_DEFAULT,
        interaction: InteractionRecord | None = None,
        allow_empty: bool = False,
        channel_webhook: Webhook | None = None,
    ) -> StoredMessage:
        """``webhook``: sent through the application's interaction webhook;
        ``channel_webhook``: executed by a channel's webhook (its author)."""
        world = self.world
        webhook = webhook or channel_webhook is not None
        form = FormErrors()
        validate_message_body(form, path, body, known_emoji=self.emojis.known)
        attachments = self._files_after(
            form,
            path,
            body,
            files or [],
            [],
            channel_id=channel.id,
            ephemeral=ephemeral_for is not None,
            editing=False,
        )
        if _is_int(body.get("flags")) and body["flags"] & FLAG_IS_COMPONENTS_V2:
            _check_shown_files(form, path, body.get("components"), attachments)
        form.raise_if_any()
        nonce = body.get("nonce")
        if body.get("enforce_nonce") and nonce is not None and not webhook:
            # Discord: with enforce_nonce, a message the same author created with the same
            # nonce in the past few minutes is returned instead of a new one
            seen = self._nonces.get((author.id, str(nonce)))
            if seen is not None and self.clock() - seen[1] < NONCE_WINDOW:
                earlier = self.messages.get(seen[0])
                if earlier is not None and not earlier.deleted:
                    return earlier
        flags = (body.get("flags") or 0) & _CREATE_FLAGS | extra_flags
        if ephemeral_for is not None:
            flags |= FLAG_EPHEMERAL
        content = body.get("content") or ""
        embeds, components = resolve_references(
            body.get("embeds") or [], body.get("components") or [], attachments
        )
        if not (allow_empty or content or embeds or components or attachments):
            raise errors.empty_message()
        guild = world.guilds.get(channel.guild_id)
        allowed = body.get("allowed_mentions")
        said = layout_text(components) if flags & FLAG_IS_COMPONENTS_V2 else content
        users, roles, everyone = resolve_mentions(
            said, allowed, WEBHOOK_DEFAULT_MENTIONS if webhook else None
        )
        if everyone and not webhook and guild is not None:
            everyone = bool(guild.permissions_of(author.id) & (1 << 17))
        referenced = self._referenced(channel, body.get("message_reference"), path)
        if referenced is not None:
            message_type = MESSAGE_REPLY
            # a reply pings its target unless allowed_mentions leaves replied_user out
            pings_target = allowed is None or bool(allowed.get("replied_user"))
            target = referenced.author.id
            if pings_target and target != author.id and target not in users:
                users.append(target)
        message = StoredMessage(
            id=world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=self._normalise_embeds(embeds),
            components=self._normalise_components(components),
            flags=flags,
            type=message_type,
            tts=bool(body.get("tts")),
            ephemeral_for=ephemeral_for,
            mentions=[world.users[u] for u in users if u in world.users],
            mention_role_ids=roles,
            mention_everyone=everyone,
            nonce=body.get("nonce"),
            author_member=guild.members.get(author.id) if guild is not None else None,
            referenced=referenced,
        )
        message.attachments = attachments
        self._store_files(attachments)
        if channel_webhook is not None:
            message.webhook_id = channel_webhook.id
            message.application_id = channel_webhook.application_id
            message.author_member = None
        elif webhook:
            message.webhook_id = world.application.id
            message.application_id = world.application.id
            message.author_member = None
        if interaction is not None:
            _attach_interaction(message, interaction)
        self.messages[message.id] = message
        if body.get("enforce_nonce") and nonce is not None and not webhook:
            self._nonces[(author.id, str(nonce))] = (message.id, self.clock())
        # ids grow, so appending keeps each channel's list in order
        self._by_channel.setdefault(channel.id, []).append(message)
        if ephemeral_for is None:
            channel.last_message_id = message.id
            channel.message_count += 1
        self.log.append(LogEntry.of(self.next_seq(), "create", message))
        self._note_unknown_emojis(message)
        if ephemeral_for is None and not flags & FLAG_SUPPRESS_NOTIFICATIONS:
            self._record_pings(message, guild)
        if ephemeral_for is None:
            world.events.dispatch_message("MESSAGE_CREATE", message)
        self.changes.changed()
        return message

    def _note_unknown_emojis(self, message: StoredMessage) -> None:
        """Discord accepts any ``<:name:id>`` in content, but one that is no emoji the app can
        use shows as plain ``:name:``; tests see those in ``unknown_emojis``."""
        said = message.content
        if message.flags & FLAG_IS_COMPONENTS_V2:
            said = layout_text(message.components)
        for name, emoji_id in content_emoji_ids(said):
            if not self.emojis.known(emoji_id):
                miss = UnknownEmoji(message.id, message.version, name, emoji_id)
                self.unknown_emojis.append(miss)

    def _referenced(
        self, channel: Channel, reference: Any, path: tuple[str | int, ...]
    ) -> StoredMessage | None:
        if not isinstance(reference, dict) or reference.get("message_id") is None:
            return None
        found = self.messages.get(int(reference["message_id"]))
        if found is None or found.deleted or found.channel_id != channel.id or found.ephemeral:
            if reference.get("fail_if_not_exists", True) is False:
                return None
            form = FormErrors()
            form.add(
                (*path, "message_reference"), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
            )
            form.raise_if_any()
        return found

    def _record_pings(self, message: StoredMessage, guild: Guild | None) -> None:
        targets = [u.id for u in message.mentions]
        # only @everyone/@here and role mentions reach beyond the named users
        if guild is not None and (message.mention_everyone or message.mention_role_ids):
            for member in guild.members.values():
                hit = message.mention_everyone or any(
                    r in member.role_ids for r in message.mention_role_ids
                )
                if hit and member.user.id not in targets and not member.user.bot:
                    targets.append(member.user.id)
        for user_id in targets:
            if user_id != message.author.id:
                self.pings.append(Ping(self.next_seq(), user_id, message.id, message.channel_id))

    def edit_message(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        *,
        files: list[Upload] | None = None,
        path: tuple[str | int, ...] = (),
    ) -> StoredMessage:
        world = self.world
        form = FormErrors()
        validate_message_body(
            form, path, body, existing_flags=message.flags, known_emoji=self.emojis.known
        )
        attachments = self._files_after(
            form,
            path,
            body,
            files or [],
            message.attachments,
            channel_id=message.channel_id,
            ephemeral=message.ephemeral_for is not None,
            editing=True,
        )
        sets_v2 = _is_int(body.get("flags")) and body["flags"] & FLAG_IS_COMPONENTS_V2
        if sets_v2 and not message.flags & FLAG_IS_COMPONENTS_V2:
            validate_conversion(form, path, body, message.content, message.embeds)
        if sets_v2 or message.flags & FLAG_IS_COMPONENTS_V2:
            _check_shown_files(form, path, body.get("components"), attachments)
        form.raise_if_any()
        new_flags = message.flags & ~FLAG_LOADING
        if "flags" in body and body["flags"] is not None:
            # only SUPPRESS_EMBEDS can be toggled on an existing message
            new_flags = (new_flags & ~FLAG_SUPPRESS_EMBEDS) | (body["flags"] & FLAG_SUPPRESS_EMBEDS)
            if body["flags"] & FLAG_IS_COMPONENTS_V2:
                new_flags |= FLAG_IS_COMPONENTS_V2
        content = body["content"] or "" if "content" in body else message.content
        embeds = body["embeds"] or [] if "embeds" in body else message.embeds
        components = body["components"] or [] if "components" in body else message.components
        if not (content or embeds or components or attachments):
            raise errors.empty_message()
        message.content = content
        if "embeds" in body:
            message.embeds = self._normalise_embeds(embeds)
        if "components" in body:
            message.components = self._normalise_components(components)
        message.embeds, message.components = resolve_references(
            message.embeds, message.components, attachments
        )
        message.attachments = attachments
        self._store_files(attachments)
        v2 = bool(new_flags & FLAG_IS_COMPONENTS_V2)
        if ("components" if v2 else "content") in body:
            users, roles, everyone = resolve_mentions(
                layout_text(message.components) if v2 else content,
                body.get("allowed_mentions"),
                WEBHOOK_DEFAULT_MENTIONS if message.webhook_id else None,
            )
            message.mentions = [world.users[u] for u in users if u in world.users]
            message.mention_role_ids = roles
            message.mention_everyone = everyone
        completes_defer = message.loading
        message.flags = new_flags
        if not completes_defer:
            message.edited_timestamp = iso_now()
        message.version += 1
        self.log.append(LogEntry.of(self.next_seq(), "edit", message))
        self._note_unknown_emojis(message)
        if (
            completes_defer
            and message.ephemeral_for is None
            and not (message.flags & FLAG_SUPPRESS_NOTIFICATIONS)
        ):
            # filling in a "thinking…" message is its real sending, so its mentions notify
            self._record_pings(message, world.guilds.get(message.guild_id or 0))
        if message.ephemeral_for is None:
            world.events.dispatch_message("MESSAGE_UPDATE", message)
        self.changes.changed()
        return message

    def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        self.log.append(LogEntry.of(self.next_seq(), "delete", message))
        if message.ephemeral_for is None:
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                payload["guild_id"] = str(message.guild_id)
            self.world.events.dispatch(
                "MESSAGE_DELETE", payload, intent=INTENT_GUILD_MESSAGES, guild_id=message.guild_id
            )
        self.changes.changed()

    def user_says(self, user: User, channel: Channel, content: str) -> StoredMessage:
        """A user's own message, typed into ``channel``."""
        return self.create_message(channel, user, {"content": content})


def _given_ids(items: list[dict[str, Any]]) -> set[int]:
    found: set[int] = set()
    for item in items:
        if item.get("id"):
            found.add(item["id"])
        found |= _given_ids(item.get("components") or [])
        found |= _given_ids([item[k] for k in ("accessory", "component") if item.get(k)])
    return found


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shown_files(
    form: FormErrors, path: tuple[str | int, ...], components: Any, attachments: list[Attachment]
) -> None:
    """A V2 message shows its files through components: each ``attachment://`` must name one
    of the files the message carries once written."""
    if isinstance(components, list):
        names = {a.filename for a in attachments}
        check_references(form, (*path, "components"), components, names)


def _attach_interaction(message: StoredMessage, record: InteractionRecord) -> None:
    meta = _interaction_metadata(record, message.id)
    if record.opened_by is not None:
        # a modal submission's metadata carries the one that opened the modal (Discord's
        # "Message Interaction Metadata": triggering_interaction_metadata)
        meta["triggering_interaction_metadata"] = _interaction_metadata(record.opened_by, None)
    message.interaction_metadata = meta
    if record.type == INTERACTION_APPLICATION_COMMAND:
        message.legacy_interaction = {
            "id": str(record.id),
            "type": record.type,
            "name": command_path(record.data).lstrip("/"),
            "user": record.user.payload(),
        }


def _interaction_metadata(record: InteractionRecord, message_id: int | None) -> dict[str, Any]:
    """Discord's message interaction metadata object for ``record`` (on message ``message_id``;
    None for the interaction that opened a modal, named inside the submission's)."""
    data = record.data
    meta: dict[str, Any] = {
        "id": str(record.id),
        "type": record.type,
        "user": record.user.payload(),
        "authorizing_integration_owners": dict(
            record.payload.get("authorizing_integration_owners") or {}),
    }
    if record.type == INTERACTION_APPLICATION_COMMAND:
        meta["name"] = data.get("name")
        meta["command_type"] = data.get("type", 1)
        if data.get("type") == 2:
            # a user command's metadata names whom it was run on
            target = str(data.get("target_id"))
            meta["target_user"] = (data.get("resolved") or {}).get("users", {}).get(target)
    if record.component_message_id is not None and record.opened_by is None:
        meta["interacted_message_id"] = str(record.component_message_id)
    if record.original_id is not None and record.original_id != message_id:
        meta["original_response_message_id"] = str(record.original_id)
    return meta


