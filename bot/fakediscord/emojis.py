"""Application emojis (Emoji resource, "Application-Owned Emoji"): up to 2000 per application,
usable only by it; server-side state, so they outlive a bot restart.

Validation as Discord answers it: a name of 2–32 characters from ``[A-Za-z0-9_]``, unique in the
application; an image as a data URI of PNG, JPEG, GIF, WebP or AVIF of at most 256 KiB (larger:
400 with a message and no JSON error code, as the docs say).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.fakediscord import errors
from bot.fakediscord.errors import DiscordHTTPError, FormErrors
from bot.fakediscord.model import User

MAX_APPLICATION_EMOJIS = 2000
IMAGE_SIZE_LIMIT = 256 * 1024
_NAME = re.compile(r"[A-Za-z0-9_]+")
_DATA_URI = re.compile(r"data:(image/[a-z]+);base64,(.*)", re.DOTALL)
# what each accepted type starts with, so an image that is not what it claims is refused
_SIGNATURES: dict[str, Callable[[bytes], bool]] = {
    "image/png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/jpeg": lambda b: b.startswith(b"\xff\xd8\xff"),
    "image/gif": lambda b: b.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda b: b[:4] == b"RIFF" and b[8:12] == b"WEBP",
    "image/avif": lambda b: b[4:12] in (b"ftypavif", b"ftypavis"),
}
# custom emoji in message content: <:name:id> and <a:name:id>
CONTENT_EMOJI = re.compile(r"<(a?):(\w{2,32}):(\d{15,21})>")


@dataclass
class ApplicationEmoji:
    id: int
    name: str
    animated: bool
    content_type: str
    image: bytes
    user: User

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


def unknown_emoji() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10014, "Unknown Emoji")


def too_many_emojis() -> DiscordHTTPError:
    return DiscordHTTPError(400, 30008, "Maximum number of emojis reached")


def image_too_large() -> DiscordHTTPError:
    # "will fail and return 400 Bad Request and an error message, but not a JSON status code"
    return DiscordHTTPError(400, 0, "Asset exceeds maximum size: 262144")


class ApplicationEmojis:
    """The application's emojis, by id."""

    def __init__(self, new_id: Callable[[], int], uploader: User) -> None:
        self._new_id = new_id
        self._uploader = uploader
        self.by_id: dict[int, ApplicationEmoji] = {}

    def known(self, emoji_id: int) -> bool:
        return emoji_id in self.by_id

    def get(self, emoji_id: int) -> ApplicationEmoji:
        emoji = self.by_id.get(emoji_id)
        if emoji is None:
            raise unknown_emoji()
        return emoji

    def create(self, body: Any) -> ApplicationEmoji:
        if not isinstance(body, dict):
            raise errors.invalid_form_body(
                {"_errors": [{"code": "MODEL_TYPE_CONVERT", "message": "Only dictionaries"}]}
            )
        form = FormErrors()
        self._check_name(form, body.get("name"), None)
        image = _decode_image(form, body.get("image"))
        form.raise_if_any()
        assert image is not None
        content_type, data = image
        if len(data) > IMAGE_SIZE_LIMIT:
            raise image_too_large()
        if len(self.by_id) >= MAX_APPLICATION_EMOJIS:
            raise too_many_emojis()
        emoji = ApplicationEmoji(
            id=self._new_id(),
            name=body["name"],
            animated=content_type == "image/gif",
            content_type=content_type,
            image=data,
            user=self._uploader,
        )
        self.by_id[emoji.id] = emoji
        return emoji

    def rename(self, emoji_id: int, body: Any) -> ApplicationEmoji:
        emoji = self.get(emoji_id)
        if isinstance(body, dict) and "name" in body:
            form = FormErrors()
            self._check_name(form, body["name"], emoji.id)
            form.raise_if_any()
            emoji.name = body["name"]
        return emoji

    def delete(self, emoji_id: int) -> None:
        del self.by_id[self.get(emoji_id).id]

    def _check_name(self, form: FormErrors, name: Any, own_id: int | None) -> None:
        if not isinstance(name, str):
            form.required(("name",))
        elif not 2 <= len(name) <= 32:
            form.bad_length(("name",), 2, 32)
        elif not _NAME.fullmatch(name):
            form.add(("name",), "STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif any(e.name == name and e.id != own_id for e in self.by_id.values()):
            form.add(
                ("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken"
            )


def _decode_image(form: FormErrors, value: Any) -> tuple[str, bytes] | None:
    if not isinstance(value, str):
        form.required(("image",))
        return None
    found = _DATA_URI.fullmatch(value)
    if found is None or found.group(1) not in _SIGNATURES:
        form.add(("image",), "IMAGE_INVALID", "Invalid image data")
        return None
    try:
        data = base64.b64decode(found.group(2), validate=True)
    except (binascii.Error, ValueError):
        form.add(("image",), "IMAGE_INVALID", "Invalid image data")
        return None
    if not _SIGNATURES[found.group(1)](data):
        form.add(("image",), "IMAGE_INVALID", "Invalid image data")
        return None
    return found.group(1), data


def content_emoji_ids(content: str) -> list[tuple[str, int]]:
    """The custom emojis written in ``content``: (name, id)."""
    return [(m.group(2), int(m.group(3))) for m in CONTENT_EMOJI.finditer(content)]
