"""A message as the page shows it: Discord's own JSON for embeds and components (the page draws
them as Discord's client does), with the author, the interaction line, the audience, and file
URLs pointing at the playground instead of the fake's loopback port.

Only what the viewing user may see reaches here (``Driver.visible_to``); the page never gets
another user's ephemeral message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.fakediscord.attachments import Attachment
from bot.fakediscord.model import StoredMessage, User
from bot.fakediscord.snowflake import iso_from_snowflake


def file_url(message_id: int, attachment: Attachment) -> str:
    return f"/files/{message_id}/{attachment.id}/{attachment.filename}"


def _rewrite(value: Any, urls: Mapping[str, str]) -> Any:
    """``value`` with every attachment URL of the fake replaced by the playground's."""
    if isinstance(value, str):
        return urls.get(value, value)
    if isinstance(value, list):
        return [_rewrite(v, urls) for v in value]
    if isinstance(value, dict):
        return {k: _rewrite(v, urls) for k, v in value.items()}
    return value


def _interaction(message: StoredMessage) -> dict[str, Any] | None:
    """Who used which command, for the line Discord shows above a command's answer."""
    legacy = message.legacy_interaction
    if legacy is not None:
        return {"user": _name(legacy["user"]), "command": legacy.get("name")}
    meta = message.interaction_metadata
    if meta is not None:
        return {"user": _name(meta["user"]), "command": None}
    return None


def _name(user: Mapping[str, Any]) -> str:
    return str(user.get("global_name") or user.get("username") or "")


def author_of(user: User) -> dict[str, Any]:
    return {"id": str(user.id), "name": user.display_name, "bot": user.bot}


def message_view(message: StoredMessage) -> dict[str, Any]:
    urls = {a.url: file_url(message.id, a) for a in message.attachments}
    return {
        "id": str(message.id),
        "channel": str(message.channel_id),
        "version": message.version,
        "author": author_of(message.author),
        "timestamp": iso_from_snowflake(message.id),
        "edited": message.edited_timestamp is not None,
        "content": message.content,
        "embeds": _rewrite(message.embeds, urls),
        "components": _rewrite(message.components, urls),
        "attachments": [
            {
                "url": file_url(message.id, a),
                "filename": a.filename,
                "content_type": a.content_type,
                "description": a.description,
                "spoiler": a.spoiler,
            }
            for a in message.attachments
            if not a.referenced
        ],
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "mentions": [str(u.id) for u in message.mentions],
        "interaction": _interaction(message),
    }
