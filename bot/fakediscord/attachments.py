"""Message attachments as Discord documents them (Reference, "Uploading Files"; Message,
"Attachment Object" and "Edit Message").

Files arrive as multipart ``files[n]``; the ``attachments`` array of the JSON body names them by
that ``n`` (new files) or by snowflake (files already on the message, when editing), and gives
``filename``, ``description`` (alt text) and ``is_spoiler``. Embeds and Components V2 media
refer to a file as ``attachment://filename``; such files are served but, as Discord does, left
out of the message's ``attachments`` array.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.fakediscord.errors import DiscordHTTPError, FormErrors, PathPart

# Discord's default upload limit per file, for bots too ("The default limit is 10 MiB for all
# users"); interactions report it as attachment_size_limit.
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
DESCRIPTION_MAX = 1024
FLAG_IS_SPOILER = 1 << 3
SCHEME = "attachment://"
# "Only .jpg, .jpeg, .png, .webp, and .gif may be used" for attachments within embeds
EMBED_IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif")


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass
class Attachment:
    """A file on a message, with its bytes (tests can read them here or download ``url``)."""

    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None
    title: str | None = None
    spoiler: bool = False
    ephemeral: bool = False
    # used by an embed or a component: Discord leaves it out of the message's attachments
    referenced: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.title is not None:
            data["title"] = self.title
        if self.description is not None:
            data["description"] = self.description
        if self.spoiler:
            data["flags"] = FLAG_IS_SPOILER
        if self.ephemeral:
            data["ephemeral"] = True
        return data


NewAttachment = Callable[[Upload, dict[str, Any]], Attachment]


def too_large() -> DiscordHTTPError:
    return DiscordHTTPError(413, 40005, "Request entity too large")


def too_many() -> DiscordHTTPError:
    return DiscordHTTPError(400, 30015, "Maximum number of attachments in a message reached (10)")


def check_uploads(uploads: list[Upload], limit: int = ATTACHMENT_SIZE_LIMIT) -> None:
    """Each file at most ``limit`` bytes (413 ``40005``), at most ten in one request."""
    if any(len(u.data) > limit for u in uploads):
        raise too_large()
    if len(uploads) > MAX_ATTACHMENTS:
        raise too_many()


def attachments_after(
    form: FormErrors,
    path: tuple[PathPart, ...],
    body: dict[str, Any],
    uploads: list[Upload],
    existing: list[Attachment],
    new: NewAttachment,
    *,
    editing: bool,
) -> list[Attachment]:
    """The message's attachments once ``body`` and ``uploads`` are applied.

    Without an ``attachments`` array: a create takes every upload; an edit keeps what the
    message has, or, when files come with it, has just the new files (API v10: "the attachments
    array must contain all attachments that should be present after edit"). With one: exactly
    the listed existing attachments (their description and spoiler flag may change) and the
    listed new files; a listed ``n`` with no ``files[n]`` is ``ATTACHMENT_NOT_FOUND``.
    """
    listed = body.get("attachments")
    by_index = {u.index: u for u in uploads}
    if listed is None:
        if editing and not uploads:
            return list(existing)
        return [new(u, {}) for u in sorted(uploads, key=lambda u: u.index)]
    if not isinstance(listed, list):
        form.add((*path, "attachments"), "BASE_TYPE_ARRAY", "Must be an array.")
        return list(existing)
    current = {a.id: a for a in existing}
    result: list[Attachment] = []
    for position, meta in enumerate(listed):
        here = (*path, "attachments", position)
        if not isinstance(meta, dict):
            form.add(here, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        _check_meta(form, here, meta)
        try:
            key = int(meta.get("id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            form.add((*here, "id"), "NUMBER_TYPE_COERCE", "Value is not snowflake.")
            continue
        if key in by_index:
            result.append(new(by_index[key], meta))
        elif key in current:
            kept = current[key]
            if "description" in meta:
                kept.description = meta["description"]
            if "is_spoiler" in meta:
                kept.spoiler = bool(meta["is_spoiler"])
            result.append(kept)
        else:
            form.add(here, "ATTACHMENT_NOT_FOUND", "Attachment data not found")
    return result


def _check_meta(form: FormErrors, path: tuple[PathPart, ...], meta: dict[str, Any]) -> None:
    description = meta.get("description")
    if description is not None:
        if not isinstance(description, str):
            form.add((*path, "description"), "BASE_TYPE_STRING", "Must be a string.")
        elif len(description) > DESCRIPTION_MAX:
            form.max_length((*path, "description"), DESCRIPTION_MAX)


def resolve_references(
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[Attachment],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``embeds`` and ``components`` with ``attachment://name`` replaced by the file's URL,
    marking the files so used. A name that matches no file stays as it was.

    Copy on write: what changes is new, everything else is shared with the arguments, which
    are never changed (a stored message's lists are replaced by an edit, not changed, so the
    message log shares them; ``records.py``). A full copy of every table's embed and
    components on each edit that carries its picture was a good part of the fake's work."""
    if not attachments:
        return embeds, components  # nothing to point at
    by_name = {a.filename: a for a in attachments}
    for attachment in attachments:
        attachment.referenced = False
    resolved = [_resolved_embed(e, by_name) for e in embeds]
    return resolved, _resolved_components(components, by_name)


def _resolved_embed(embed: dict[str, Any], by_name: dict[str, Attachment]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key in ("image", "thumbnail", "author", "footer"):
        part = embed.get(key)
        if not isinstance(part, dict):
            continue
        field = "icon_url" if key in ("author", "footer") else "url"
        resolved = _resolved(part, field, by_name, images_only=True)
        if resolved is not part:
            changes[key] = resolved
    return {**embed, **changes} if changes else embed


def _resolved(
    holder: dict[str, Any], field: str, by_name: dict[str, Attachment], *, images_only: bool
) -> dict[str, Any]:
    value = holder.get(field)
    if not isinstance(value, str) or not value.startswith(SCHEME):
        return holder
    attachment = by_name.get(value[len(SCHEME) :])
    if attachment is None:
        return holder
    if images_only and not attachment.filename.lower().endswith(EMBED_IMAGE_SUFFIXES):
        return holder
    attachment.referenced = True
    if not images_only:
        # a component's media (Unfurled Media Item) names its file: the message's attachments
        # leave it out, and an edit keeps it by this id
        return {**holder, field: attachment.url, "proxy_url": attachment.url,
                "attachment_id": str(attachment.id)}
    if field == "url":
        return {**holder, field: attachment.url, "proxy_url": attachment.url}
    return {**holder, field: attachment.url}


def _resolved_components(items: Any, by_name: dict[str, Attachment]) -> Any:
    changed: list[Any] | None = None
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        resolved = _resolved_component(item, by_name)
        if resolved is not item:
            if changed is None:
                changed = list(items)
            changed[position] = resolved
    return items if changed is None else changed


def _resolved_component(item: dict[str, Any], by_name: dict[str, Attachment]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key in ("media", "file"):  # thumbnail / gallery item media, file component
        value = item.get(key)
        if isinstance(value, dict):
            resolved = _resolved(value, "url", by_name, images_only=False)
            if resolved is not value:
                changes[key] = resolved
    for key in ("items", "components"):
        value = item.get(key) or []
        resolved = _resolved_components(value, by_name)
        if resolved is not value:
            changes[key] = resolved
    for key in ("accessory", "component"):
        value = item.get(key)
        if isinstance(value, dict):
            resolved = _resolved_component(value, by_name)
            if resolved is not value:
                changes[key] = resolved
    return {**item, **changes} if changes else item


def attachment_text(attachments: list[Attachment]) -> list[str]:
    """What a reader learns from the files: names and alt text (for leak scans)."""
    parts: list[str] = []
    for attachment in attachments:
        parts.append(attachment.filename)
        if attachment.title:
            parts.append(attachment.title)
        if attachment.description:
            parts.append(attachment.description)
    return parts


def media_type(filename: str, sent: str | None) -> str:
    """The attachment's ``content_type``: Discord names it from the file itself, so a part sent
    as application/octet-stream (discord.py's default) still becomes image/png; text types get
    their charset."""
    guessed, _ = mimetypes.guess_type(filename)
    kind = guessed or (sent if sent and sent != "application/octet-stream" else None)
    if kind is None:
        return "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") else kind


def spoiler_from(upload: Upload, meta: dict[str, Any]) -> bool:
    return bool(meta.get("is_spoiler")) or upload.filename.startswith("SPOILER_")
