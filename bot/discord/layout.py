"""The public table as Discord draws messages today: a Components V2 layout (issue 44).

A game's face and the lobby describe a table as an embed (title, description, fields, footer,
colour) with its buttons and picture; this turns that into one Container whose accent colour
is the embed's (lobby, playing, over), a heading, a block of text per field, the picture in
a Media Gallery with its alt text, the footer in small print and the buttons in action rows.
The turn line that pings the person to move opens the container: with the layout flag a
message has no ``content``, and Discord reads its mentions from the Text Displays. The field
that lists the seats becomes one Section per seat (``SeatBlocks``): the seat's line and, beside
it, the seat's Profile button.

Discord's limits for a layout (Component Reference): 40 components counted through every
level and 4,000 characters across all Text Displays; ``fit_texts`` keeps a table within them
the way ``common.fit`` keeps an embed (the latest blocks stay, the oldest lines go first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.cardart import CardImage
from bot.discord.common import FINISHED_COLOUR, button, cut
from bot.discord.routing import RoutedButton
from bot.discord.rows import Rows, SentAsView
from bot.i18n import tr

COMPONENTS_MAX = 40
TEXT_MAX = 4000
SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, CONTAINER = (
    discord.ComponentType.section.value, discord.ComponentType.text_display.value,
    discord.ComponentType.media_gallery.value, discord.ComponentType.file.value,
    discord.ComponentType.container.value)
PROFILE = "profile"
"""The action of a seat's Profile button (``bot.discord.leaderboards``); its argument is the
seat's player."""


@dataclass(frozen=True)
class SeatBlocks:
    """The embed field named ``field`` lists the seats, one line each: on the layout, one
    Section per seat. A Section must have an accessory; a seat's is a small Profile button
    (its player's rating, privately), which works for people and computers alike in every
    channel, where a Thumbnail would need each person's avatar and a picture for computers,
    and make every seat as tall as the picture. Each costs three components (Section, Text
    Display, button): six seats 18 of the 40."""

    field: str
    lines: tuple[str, ...]
    buttons: tuple[RoutedButton, ...]
    players: tuple[int, ...]


def seat_blocks(game: str, table_id: int, field: str, seats: Iterable[tuple[int, str]],
                lang: str) -> SeatBlocks:
    """``seats``: each seat's player and line, in turn order."""
    listed = list(seats)
    return SeatBlocks(field, tuple(line for _, line in listed), tuple(
        button(game, table_id, PROFILE, tr(lang, "Profile"), counter=0, arg=str(player))
        for player, _ in listed), tuple(player for player, _ in listed))


def with_notes(embed: discord.Embed, seats: SeatBlocks,
               notes: Mapping[int, str]) -> SeatBlocks:
    """``seats`` with each noted seat's line followed by its note (at the end of a game, its
    rating change), in ``embed``'s field of the seats too, so the layout still finds them."""
    lines = tuple(f"{line} · {notes[player]}" if player in notes else line
                  for player, line in zip(seats.players, seats.lines, strict=True))
    value = "\n".join(seats.lines)
    for at, f in enumerate(embed.fields):
        if f.name == seats.field and f.value == value:
            embed.set_field_at(at, name=f.name, value="\n".join(lines), inline=f.inline)
    return replace(seats, lines=lines)


class Layout(SentAsView):
    """A Components V2 message's components as plain data: exactly what discord.py sends for a
    ``LayoutView`` of the same items, without building one (issue 44: a table's Container,
    Sections, Text Displays and rows as discord.py objects, walked again to count them, to
    serialise them and to empty them, were about a tenth of a move's CPU). It is given where a
    view is (``view=``), and discord.py asks it only for its components and its flag: it stores
    none of it, since every component is routed by its custom id (``bot.discord.routing``)."""

    def __init__(self, container: dict[str, Any]) -> None:
        self._components = [container]

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def has_components_v2(self) -> bool:
        return True


def table_layout(
    embed: discord.Embed,
    view: Rows | discord.ui.View | None,
    content: str | None,
    image: CardImage | None,
    seats: SeatBlocks | None = None,
) -> Layout:
    """``embed``'s table as a layout, ``seats`` in Sections; ``view``'s items move into it
    (``view`` is left empty)."""
    shown = (image.filename, image.alt) if image is not None else None
    return _layout(embed, view, content, shown, seats)


def answer_layout(
    embed: discord.Embed,
    view: Rows | discord.ui.View | None = None,
    *,
    content: str | None = None,
    picture: discord.File | None = None,
    seats: SeatBlocks | None = None,
    files: Sequence[discord.File] = (),
) -> Layout:
    """Any other answer drawn as an embed — a profile, the leaderboard, a ledger, a history
    page, a replay, a daily board, an export — in the table's look: one container, its accent
    the embed's colour, ``picture`` (sent with the answer) in a Media Gallery with its alt
    text, ``files`` (sent with it too: an export's CSV or JSON) each in a File component,
    since a layout shows only the attachments its components name."""
    shown = (picture.filename, picture.description) if picture is not None else None
    return _layout(embed, view, content, shown, seats, tuple(f.filename for f in files))


def files_layout(text: str, files: Sequence[discord.File]) -> Layout:
    """An export's answer — a ledger's CSV, tables' or a daily's public record as JSON — in
    the look of the other answers: its words, then each file (sent with it) shown below."""
    embed = discord.Embed(description=text, colour=FINISHED_COLOUR)
    return answer_layout(embed, files=files)


def _layout(
    embed: discord.Embed,
    view: Rows | discord.ui.View | None,
    content: str | None,
    image: tuple[str, str | None] | None,
    seats: SeatBlocks | None,
    files: tuple[str, ...] = (),
) -> Layout:
    """``image``: the attached file's name and alt text; ``files``: other attached files'
    names."""
    rows = _action_rows(view)
    head = [content] if content else []
    body = [_heading(embed), *(_field(f.name, f.value) for f in embed.fields)]
    foot = [f"-# {embed.footer.text}"] if embed.footer.text else []
    texts = fit_texts(head, body, foot)
    fixed = (1 + (1 if image is not None else 0) + len(files)
             + sum(1 + len(r["components"]) for r in rows))
    if fixed + len(texts) > COMPONENTS_MAX:
        # a table with more blocks than a layout holds reads as one text
        texts = ["\n\n".join(texts)]
    listed = _seats_at(texts, embed, seats)
    if listed is not None and fixed + len(texts) + 3 * len(listed.lines) > COMPONENTS_MAX:
        listed = None  # the seats stay one block of text
    blocks: list[dict[str, Any]] = []
    for text in texts:
        if listed is not None and text == _field(listed.field, "\n".join(listed.lines)):
            blocks.append(_text(f"**{listed.field}**"))
            blocks.extend({"type": SECTION, "components": [_text(line)],
                           "accessory": profile.to_component_dict()}
                          for line, profile in zip(listed.lines, listed.buttons, strict=True))
            continue
        blocks.append(_text(text))
    if image is not None:
        blocks.append(_gallery(*image))
    blocks.extend({"type": FILE, "file": {"url": f"attachment://{filename}"}, "spoiler": False}
                  for filename in files)
    blocks.extend(rows)
    colour = embed.colour.value if embed.colour else None
    return Layout({"type": CONTAINER, "accent_color": colour, "spoiler": False,
                   "components": blocks})


def panel_layout(text: str, view: Rows | discord.ui.View | None,
                 image: CardImage | None) -> Layout:
    """A private hand panel as a layout: its text (the hand as card emojis in order, the total,
    the notice or turn line) opens a Container, the hand's picture follows in a Media Gallery
    with its alt text, then ``view``'s moves in their rows (``view`` is left empty). Five rows
    of five and three blocks stay within the 40 components; the text is cut to 4,000
    characters."""
    blocks = [_text(cut(text, TEXT_MAX))]
    if image is not None:
        blocks.append(_gallery(image.filename, image.alt))
    blocks.extend(_action_rows(view))
    return Layout({"type": CONTAINER, "accent_color": None, "spoiler": False,
                   "components": blocks})


def _text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def _gallery(filename: str, alt: str | None) -> dict[str, Any]:
    item: dict[str, Any] = {"media": {"url": f"attachment://{filename}"}, "spoiler": False}
    if alt:
        item["description"] = alt
    return {"type": MEDIA_GALLERY, "items": [item]}


def _seats_at(texts: list[str], embed: discord.Embed,
              seats: SeatBlocks | None) -> SeatBlocks | None:
    """``seats`` when their field is among ``texts`` as the face wrote it (not shortened to
    fit, and listing exactly these seats)."""
    if seats is None:
        return None
    value = "\n".join(seats.lines)
    written = any(f.name == seats.field and f.value == value for f in embed.fields)
    return seats if written and _field(seats.field, value) in texts else None


def _heading(embed: discord.Embed) -> str:
    title = f"## {embed.title}" if embed.title else ""
    return "\n".join(p for p in (title, embed.description or "") if p)


def _field(name: str | None, value: str | None) -> str:
    shown = (name or "").strip("\u200b")
    return "\n".join(p for p in (f"**{shown}**" if shown else "", value or "") if p)


def fit_texts(head: list[str], body: list[str], foot: list[str]) -> list[str]:
    """The blocks within 4,000 characters together: ``head`` and ``foot`` are kept whole (a
    turn line and the options); of ``body``, the oldest lines go first, each block's first
    line (its heading) last."""
    head, kept, foot = [t for t in head if t], [t for t in body if t], [t for t in foot if t]

    def over() -> int:
        return sum(len(t) for t in (*head, *kept, *foot)) - TEXT_MAX

    while over() > 0 and kept:
        lines = kept[0].split("\n")
        if len(lines) > 1:
            kept[0] = "\n".join([lines[0], *lines[2:]])
        else:
            kept.pop(0)
    fitted = [*head, *kept, *foot]
    if over() > 0:
        fitted[-1] = cut(fitted[-1], max(len(fitted[-1]) - over(), 1))
    return fitted


def _action_rows(view: Rows | discord.ui.View | None) -> list[dict[str, Any]]:
    """``view``'s items in the rows discord.py would send them in; ``view`` is emptied, so
    its items no longer point at it (``bot.discord.cycles``)."""
    if view is None:
        return []
    rows = view.to_components()
    view.clear_items()
    return rows
