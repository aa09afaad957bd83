"""Read a public table message — or any answer in the table's look (``answer_layout``: a
profile, a ledger, a history page, a replay, an event's standings) — a Components V2 layout
(``bot.discord.layout``), as its parts:
the turn line, the heading's title and text, each block by its name, the small print and the
picture, in the shape of the embed the table used to be, so a test asks the same questions
of it (the seats' Sections read as the lines of the players' block)."""

from __future__ import annotations

import re
from typing import Any

from bot.fakediscord.model import StoredMessage

V2 = 1 << 15
_NAMED = re.compile(r"^\*\*(.+)\*\*$")


_READ_AT_MOST = 4096
_read: dict[int, tuple[list[dict[str, Any]], int, dict[str, Any] | None]] = {}
"""``id(components)`` → the components, the flags and what ``_read_card`` made of them. The tests'
waits ask every table of every channel on each of Discord's changes (a fifth of a busy test's
time went on reading the same layouts again); an edit replaces a message's components with a
new list, and the list held here keeps its id from being reused."""


def card(message: StoredMessage) -> dict[str, Any] | None:
    """``{"content", "title", "description", "fields": [{"name", "value"}], "footer":
    {"text"}, "image": {"url", "description"}, "color"}`` of a table layout; ``None`` for
    any other message."""
    shown = _card(message)
    if shown is None:
        return None
    # the caller's own: the one read is shared by later reads
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in shown.items()}
    out["fields"] = [dict(f) for f in shown["fields"]]
    return out


def _card(message: StoredMessage) -> dict[str, Any] | None:
    """``card``, shared by every read of the same components: not to be changed."""
    held = _read.get(id(message.components))
    if held is not None and held[0] is message.components and held[1] == message.flags:
        return held[2]
    shown = _read_card(message)
    if len(_read) >= _READ_AT_MOST:
        _read.clear()
    _read[id(message.components)] = (message.components, message.flags, shown)
    return shown


def _read_card(message: StoredMessage) -> dict[str, Any] | None:
    if not message.flags & V2 or not message.components:
        return None
    box = message.components[0]
    if box.get("type") != 17:
        return None
    out: dict[str, Any] = {"content": "", "fields": [], "color": box.get("accent_color")}
    for part in box.get("components") or []:
        if part.get("type") == 12:
            item = part["items"][0]
            out["image"] = {"url": item["media"]["url"], "description": item.get("description")}
        if part.get("type") == 9 and out["fields"]:
            # a seat's Section: one line of the block above it (the players)
            seat = "\n".join(str(t["content"]) for t in part["components"])
            field = out["fields"][-1]
            field["value"] = f"{field['value']}\n{seat}" if field["value"] else seat
        if part.get("type") != 10:
            continue
        text = str(part["content"])
        first, _, rest = text.partition("\n")
        if first.startswith("## ") and "title" not in out:
            out["title"] = first[3:]
            if rest:
                out["description"] = rest
        elif first.startswith("-# "):
            out["footer"] = {"text": text[3:]}
        elif (named := _NAMED.match(first)) and "title" in out:
            out["fields"].append({"name": named.group(1), "value": rest})
        elif "title" not in out:
            out["content"] = text
        else:
            out["fields"].append({"name": "", "value": text})
    return out


def title(message: StoredMessage) -> str:
    shown = _card(message)
    return str(shown.get("title", "")) if shown else ""


def turn_line(message: StoredMessage) -> str:
    """The line above the table that names (and pings) whose turn it is."""
    shown = _card(message)
    return str(shown["content"]) if shown else ""


def field_value(message: StoredMessage, name: str) -> str | None:
    shown = _card(message)
    for f in (shown or {}).get("fields", []):
        if f["name"] == name:
            return str(f["value"])
    return None


def is_layout(components: list[dict[str, Any]]) -> bool:
    """Whether a message's components are a table layout (a container first)."""
    return bool(components) and components[0].get("type") == 17


def row_buttons(message: StoredMessage) -> list[dict[str, Any]]:
    """The buttons in the table's action rows: its moves and commands (each seat's Profile
    button sits beside the seat's line instead)."""
    box = message.components[0] if is_layout(message.components) else {}
    return [b for part in box.get("components") or [] if part.get("type") == 1
            for b in part["components"] if b.get("type") == 2]
