"""What every game's Discord face shares: names made safe to show, the lobby, countdowns,
routed buttons, and Discord's size limits applied to anything the bot builds."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import discord

from bot import cards
from bot.discord.routing import Route, RoutedButton, RoutedSelect
from bot.discord.rows import Rows
from bot.i18n import N_, tr, trn

if TYPE_CHECKING:
    from bot.table.service import TableSnapshot

LOBBY_COLOUR = discord.Colour.blurple()
PLAYING_COLOUR = discord.Colour.green()
FINISHED_COLOUR = discord.Colour.dark_grey()
MAX_EVENT_LINES = 6

NAME_LIMIT = 32
"""Discord's longest display name; anything longer is cut, so every line keeps its size."""
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_LIMIT = 1024
FOOTER_LIMIT = 2048
FIELDS_MAX = 25
EMBED_TOTAL = 6000
CONTENT_LIMIT = 2000
LABEL_LIMIT = 80
OPTION_LIMIT = 100
"""Discord's limits on what a message carries (embeds, content, labels, select options)."""


@dataclass(frozen=True)
class LobbySeat:
    player_id: int
    name: str
    is_computer: bool = False


def shown_name(name: str) -> str:
    """A name as it may appear in any message: at most ``NAME_LIMIT`` characters, with markdown
    and mentions escaped so a name like ``[nitro](https://…)`` or ``@everyone`` shows as typed.
    The one place names are made safe to show."""
    if len(name) > NAME_LIMIT:
        name = _cut_name(name)
    return _escaped(name)


@lru_cache(maxsize=4096)
def _escaped(name: str) -> str:
    # kept: every table names every player, and the escapes are regular expressions (issue 16)
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    # what discord.py leaves: a channel, command, emoji or time written as Discord's markup
    # (``<#id>``, ``</name:id>``, ``<:name:id>``, ``<t:…>``; a zero-width space after "<", as
    # discord.py breaks a mention after "@"), and a name that starts as a numbered list does
    # (``1. x``: a latest line may start with the mover's name)
    return _NUMBERED.sub(r"\1\\.", _MARKUP.sub("<\u200b", escaped))


def as_typed(shown: str) -> str:
    """A name escaped by ``shown_name`` (or a line naming players so) as it was typed, for
    where Discord shows text as it is: a menu's option, an autocomplete choice, an alt text."""
    return _BROKEN.sub("", _ESCAPE.sub(r"\1", shown))


_ESCAPE = re.compile(r"\\([\\*_~|`>#\[\]().-])")
_BROKEN = re.compile("(?<=[@<])\u200b")
_MARKUP = re.compile(r"<(?=[#/:]|a:|t:|id:)")
_NUMBERED = re.compile(r"^(\d+)\.(?=\s)")
_JOINING = frozenset({0x200D, 0x20E3})
"""The zero-width joiner and the keycap's enclosing mark: what joins the character before."""


def _cut_name(name: str) -> str:
    """``name`` cut to ``NAME_LIMIT`` characters with "…", never inside what a reader sees as
    one character: an emoji sequence (joined, toned, a flag's two letters, a keycap) or a letter
    with its accents."""
    end = NAME_LIMIT - 1
    while end > 0 and _continues(name, end):
        end -= 1
    return name[:end] + "…"


def _continues(name: str, at: int) -> bool:
    """Whether ``name[at]`` belongs to the character that ``name[at - 1]`` starts or continues."""
    char, before = ord(name[at]), ord(name[at - 1])
    if (char in _JOINING or before == 0x200D or unicodedata.category(name[at]) in ("Mn", "Mc", "Me")
            or 0x1F3FB <= char <= 0x1F3FF or 0xE0020 <= char <= 0xE007F):
        return True  # a joiner, a mark, a variation selector, a skin tone, a flag's tag
    if 0x1F1E6 <= char <= 0x1F1FF:
        # a regional indicator: the second of a flag's pair when an odd number stand before it
        letters = 0
        while at - letters - 1 >= 0 and 0x1F1E6 <= ord(name[at - letters - 1]) <= 0x1F1FF:
            letters += 1
        return letters % 2 == 1
    return False


def label(player_id: int, name: str) -> str:
    """How a player is named at the table, escaped: computer players (negative ids) as
    "🤖 Astrid"."""
    return f"🤖 {shown_name(name)}" if player_id < 0 else shown_name(name)


def labelled(names: Iterable[tuple[int, str]]) -> dict[int, str]:
    return {player_id: label(player_id, name) for player_id, name in names}


def seated_names(snapshot: TableSnapshot) -> dict[int, str]:
    """Everyone who sat at a table as it names them, computer players as "🤖 Astrid"; players
    who left a game are still named (the engine keeps them)."""
    if snapshot.engine is None:
        return labelled((s.player_id, s.name) for s in snapshot.seats)
    return labelled(snapshot.engine.names.items())


def name_of(names: Mapping[int, str], player_id: int | None, lang: str) -> str:
    if player_id is not None and player_id in names:
        return names[player_id]
    return tr(lang, "someone")


def turn_time_text(seconds: int, lang: str) -> str:
    if seconds <= 0:
        return tr(lang, "no turn timer")
    if seconds % 60 == 0:
        return trn(lang, "{n} minute per turn", "{n} minutes per turn", seconds // 60)
    return trn(lang, "{n} second per turn", "{n} seconds per turn", seconds)


def countdown(deadline: float | None) -> str | None:
    """A live countdown (each reader's Discord shows "in 1 minute" in their own language), or
    None without one."""
    return None if deadline is None else f"<t:{int(deadline)}:R>"


def cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: whole lines while they fit, then an ellipsis.
    Cards shown as emojis are written as letters first, which may make it fit whole."""
    if len(text) <= limit:
        return text
    text = cards.plain(text)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for line in text.split("\n"):
        if size + len(line) + 1 > limit - 2:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:
        return text[: limit - 1] + "…"
    return "\n".join(kept) + "\n…"


def fit(embed: discord.Embed) -> discord.Embed:
    """``embed`` within every one of Discord's limits, whatever names and game it shows: fields
    and description cut line by line, at most 25 fields, and the whole under 6,000 characters
    (the latest fields are kept; the earliest description lines go first)."""
    if embed.title:
        embed.title = cut(embed.title, TITLE_LIMIT)
    if embed.description:
        embed.description = cut(embed.description, DESCRIPTION_LIMIT)
    fields = embed.fields[:FIELDS_MAX]
    embed.clear_fields()
    for f in fields:
        embed.add_field(name=cut(f.name or "\u200b", FIELD_NAME_LIMIT) or "\u200b",
                        value=cut(f.value or "\u200b", FIELD_LIMIT) or "\u200b", inline=f.inline)
    if embed.footer.text:
        embed.set_footer(text=cut(embed.footer.text, FOOTER_LIMIT))
    while len(embed) > EMBED_TOTAL:
        over = len(embed) - EMBED_TOTAL
        longest = max(range(len(embed.fields)), key=lambda i: len(embed.fields[i].value or ""),
                      default=None)
        if longest is not None and len(embed.fields[longest].value or "") > over + 2:
            field = embed.fields[longest]
            embed.set_field_at(longest, name=field.name, inline=field.inline,
                               value=cut(field.value or "", len(field.value or "") - over - 2))
        elif embed.description and len(embed.description) > over + 2:
            embed.description = cut(embed.description, len(embed.description) - over - 2)
        elif embed.fields:
            embed.remove_field(len(embed.fields) - 1)
        else:
            embed.description = None
    return embed


def lobby_embed(
    *,
    title: str,
    options_line: str,
    seats: Iterable[LobbySeat],
    host_id: int,
    min_players: int,
    max_players: int,
    expires_at: float | None,
    lang: str,
    turn_seconds: int = 0,
) -> discord.Embed:
    seated = list(seats)
    lines = []
    for seat in seated:
        host = tr(lang, " (host)") if seat.player_id == host_id else ""
        lines.append(f"• {label(seat.player_id, seat.name)}{host}")
    embed = discord.Embed(title=tr(lang, "{game} — waiting for players", game=title),
                          colour=LOBBY_COLOUR)
    embed.add_field(name=tr(lang, "Options"),
                    value=f"{options_line} · {turn_time_text(turn_seconds, lang)}", inline=False)
    embed.add_field(
        name=tr(lang, "Players ({seated}/{most})", seated=len(seated), most=max_players),
        value="\n".join(lines) or tr(lang, "nobody yet"),
        inline=False,
    )
    needed = max(0, min_players - len(seated))
    footer = (trn(lang, "Press Join to sit down. {n} more player is needed to start.",
                  "Press Join to sit down. {n} more players are needed to start.", needed)
              if needed else tr(lang, "The host can press Start."))
    embed.set_footer(text=footer)
    if expires_at is not None:
        embed.description = tr(lang, "This lobby closes {when} if the game hasn't started.",
                               when=f"<t:{int(expires_at)}:R>")
    return fit(embed)


def button(
    game: str,
    table_id: int,
    action: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    counter: int | None = None,
    arg: str | None = None,
    disabled: bool = False,
    row: int | None = None,
    emoji: discord.PartialEmoji | None = None,
) -> RoutedButton:
    return RoutedButton(
        Route(game, table_id, action, counter, arg), label[:LABEL_LIMIT], style,
        disabled=disabled, row=row, emoji=emoji,
    )


LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert")}
"""Computer levels (``bot.table.computers.LEVELS``) as players read them."""


def level_text(level: str, lang: str) -> str:
    return tr(lang, LEVEL_NAMES[level])


def lobby_view(game: str, table_id: int, lang: str, levels: Sequence[str] = ()
               ) -> Rows:
    view = Rows()
    view.add_item(button(game, table_id, "join", tr(lang, "Join"), discord.ButtonStyle.primary))
    view.add_item(button(game, table_id, "leave", tr(lang, "Leave")))
    view.add_item(button(game, table_id, "start", tr(lang, "Start"),
                         discord.ButtonStyle.success))
    view.add_item(button(game, table_id, "cancel", tr(lang, "Cancel"),
                         discord.ButtonStyle.danger))
    # issue 8: the host seats computer players (anyone else is told only the host can)
    view.add_item(button(game, table_id, "add_computer", tr(lang, "Add computer player")))
    if len(levels) > 1:
        # issue 34: a computer of the level the host picks (the button seats the default one)
        view.add_item(RoutedSelect(
            Route(game, table_id, "add_computer"),
            [discord.SelectOption(label=level_text(level, lang), value=level)
             for level in levels],
            tr(lang, "Add a computer player of level…"), row=1))
    return view


def closed_embed(title: str, text: str) -> discord.Embed:
    return fit(discord.Embed(title=title, description=text, colour=FINISHED_COLOUR))


