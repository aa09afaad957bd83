"""Components V2 layouts (message flag ``IS_COMPONENTS_V2``): where each component may stand,
the content components' fields, component ids, and the message-wide budgets.

Discord's Component Reference: Sections hold one to three Text Displays and a Button or a
Thumbnail as accessory; a Container holds Action Rows, Text Displays, Sections, Media
Galleries, Separators and Files; a Thumbnail stands only as a Section's accessory; a Media
Gallery shows 1 to 10 items; alt text (``description``) is at most 1,024 characters; a File
only takes an ``attachment://`` reference; ``id`` is a 32-bit integer unique within the
message (0 counts as none); all Text Displays together hold at most 4,000 characters
(discord-api-docs pull request 8562). Interactive components (buttons, selects) and the total
of 40 are checked in ``validation.py``, which calls ``check_layout`` for V2 messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.fakediscord.errors import FormErrors, PathPart

Path = tuple[PathPart, ...]

ACTION_ROW = 1
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17

TEXT_TOTAL_MAX = 4000
GALLERY_ITEMS_MAX = 10
SECTION_TEXTS_MAX = 3
ALT_TEXT_MAX = 1024
ID_MAX = 2**31 - 1
SCHEME = "attachment://"

CONTAINER_CHILDREN = (ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE)
SECTION_CHILDREN = (TEXT_DISPLAY,)
SECTION_ACCESSORIES = (2, THUMBNAIL)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid_type(form: FormErrors, path: Path, allowed: tuple[int, ...]) -> None:
    form.add(
        (*path, "type"),
        "UNION_TYPE_CHOICES",
        f'Value of field "type" must be one of {allowed}.',
    )


class _LayoutCheck:
    def __init__(self, form: FormErrors) -> None:
        self.form = form
        self.ids: dict[int, Path] = {}
        self.text_total = 0

    def walk(self, path: Path, item: Any, allowed: tuple[int, ...]) -> None:
        if not isinstance(item, dict):
            return  # reported by the component check
        kind = item.get("type")
        if kind not in allowed:
            _invalid_type(self.form, path, allowed)
            return
        self.component_id(path, item.get("id"))
        if kind == ACTION_ROW:
            # what a row may hold is checked in validation.py, for legacy messages too
            for index, child in enumerate(_list(item.get("components"))):
                if isinstance(child, dict):
                    self.component_id((*path, "components", index), child.get("id"))
        elif kind == SECTION:
            self.children(path, item, SECTION_CHILDREN, low=1, high=SECTION_TEXTS_MAX)
            if isinstance(item.get("accessory"), dict):
                self.walk((*path, "accessory"), item["accessory"], SECTION_ACCESSORIES)
        elif kind == CONTAINER:
            self.children(path, item, CONTAINER_CHILDREN, low=1, high=None)
            accent = item.get("accent_color")
            if accent is not None and (not _is_int(accent) or not 0 <= accent <= 0xFFFFFF):
                self.form.add(
                    (*path, "accent_color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215."
                )
        elif kind == TEXT_DISPLAY:
            content = item.get("content")
            if isinstance(content, str):
                self.text_total += len(content)
        elif kind == THUMBNAIL:
            self.media((*path, "media"), item.get("media"), attachment_only=False)
            self.alt_text((*path, "description"), item.get("description"))
        elif kind == MEDIA_GALLERY:
            self.gallery(path, item)
        elif kind == FILE:
            self.media((*path, "file"), item.get("file"), attachment_only=True)
        elif kind == SEPARATOR:
            spacing = item.get("spacing")
            if spacing is not None and spacing not in (1, 2):
                self.form.add(
                    (*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}."
                )
            divider = item.get("divider")
            if divider is not None and not isinstance(divider, bool):
                self.form.add(
                    (*path, "divider"), "BASE_TYPE_BOOLEAN", "Must be either true or false."
                )

    def children(
        self,
        path: Path,
        item: dict[str, Any],
        allowed: tuple[int, ...],
        *,
        low: int,
        high: int | None,
    ) -> None:
        children = item.get("components")
        if not isinstance(children, list):
            self.form.required((*path, "components"))
            return
        if len(children) < low or (high is not None and len(children) > high):
            if high is None:
                self.form.add(
                    (*path, "components"),
                    "BASE_TYPE_MIN_LENGTH",
                    f"Must be {low} or more in length.",
                )
            else:
                self.form.bad_length((*path, "components"), low, high)
        for index, child in enumerate(children):
            self.walk((*path, "components", index), child, allowed)

    def component_id(self, path: Path, value: Any) -> None:
        if value is None or value == 0:
            return  # Discord numbers it
        if not _is_int(value) or not 0 < value <= ID_MAX:
            self.form.add((*path, "id"), "NUMBER_TYPE_MAX", f"int value should be <= {ID_MAX}.")
            return
        if value in self.ids:
            self.form.add(
                (*path, "id"),
                "COMPONENT_ID_DUPLICATED",
                "Component id must be unique within the message",
            )
        self.ids[value] = path

    def gallery(self, path: Path, item: dict[str, Any]) -> None:
        items = item.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= GALLERY_ITEMS_MAX:
            self.form.bad_length((*path, "items"), 1, GALLERY_ITEMS_MAX)
            return
        for index, entry in enumerate(items):
            here = (*path, "items", index)
            if not isinstance(entry, dict):
                self.form.add(
                    here, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
                )
                continue
            self.media((*here, "media"), entry.get("media"), attachment_only=False)
            self.alt_text((*here, "description"), entry.get("description"))

    def media(self, path: Path, media: Any, *, attachment_only: bool) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.form.required((*path, "url"))
        elif attachment_only and not url.startswith(SCHEME):
            self.form.add(
                (*path, "url"),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY",
                "A file component only supports attachment:// references",
            )
        elif not url.startswith((SCHEME, "https://", "http://")):
            self.form.add(
                (*path, "url"),
                "URL_TYPE_INVALID_SCHEME",
                "Scheme must be one of ('http', 'https').",
            )

    def alt_text(self, path: Path, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            self.form.add(path, "BASE_TYPE_STRING", f'Could not interpret "{value}" as string.')
        elif len(value) > ALT_TEXT_MAX:
            self.form.max_length(path, ALT_TEXT_MAX)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def check_layout(form: FormErrors, path: Path, components: list[Any], top: tuple[int, ...]) -> None:
    """The V2 rules for a message's ``components`` (``top``: the types allowed at its top)."""
    check = _LayoutCheck(form)
    for index, item in enumerate(components):
        check.walk((*path, index), item, top)
    if check.text_total > TEXT_TOTAL_MAX:
        form.add(
            path,
            "COMPONENT_TEXT_DISPLAY_TOTAL_LENGTH_EXCEEDED",
            f"The total length of text display content exceeds the maximum ({TEXT_TOTAL_MAX})",
        )


def layout_text(components: list[Any]) -> str:
    """The text of every Text Display, in order: what a V2 message says, where its mentions
    and emojis are read from (Edit Message: "based on the edited content in the
    ``components`` array")."""
    parts: list[str] = []
    _texts(components, parts)
    return "\n".join(parts)


def _texts(items: list[Any], parts: list[str]) -> None:
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("type") == TEXT_DISPLAY and isinstance(item.get("content"), str):
            parts.append(item["content"])
        _texts(_list(item.get("components")), parts)
        _texts([item.get("accessory")], parts)


def media_references(components: list[Any], path: Path) -> Iterator[tuple[Path, str]]:
    """Every ``attachment://name`` a V2 layout shows, with where it stands."""
    for index, item in enumerate(components):
        yield from _references((*path, index), item)


def _references(path: Path, item: Any) -> Iterator[tuple[Path, str]]:
    if not isinstance(item, dict):
        return
    holders: list[tuple[Path, Any]] = [
        ((*path, "media"), item.get("media")),
        ((*path, "file"), item.get("file")),
    ]
    holders += [
        ((*path, "items", index, "media"), entry.get("media"))
        for index, entry in enumerate(_list(item.get("items")))
        if isinstance(entry, dict)
    ]
    for where, media in holders:
        url = media.get("url") if isinstance(media, dict) else None
        if isinstance(url, str) and url.startswith(SCHEME):
            yield (*where, "url"), url[len(SCHEME) :]
    for index, child in enumerate(_list(item.get("components"))):
        yield from _references((*path, "components", index), child)
    yield from _references((*path, "accessory"), item.get("accessory"))


def check_references(
    form: FormErrors, path: Path, components: list[Any], filenames: set[str]
) -> None:
    """A V2 layout may only show files the message carries."""
    for where, name in media_references(components, path):
        if name not in filenames:
            form.add(
                where,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"Attachment {name!r} was not found in the message",
            )
