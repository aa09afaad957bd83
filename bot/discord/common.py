"""Rendering every game shares: the lobby, names, places, colours, routed buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import discord

from bot.discord.routing import Route, RoutedButton

LOBBY_COLOUR = discord.Colour.blurple()
PLAYING_COLOUR = discord.Colour.green()
FINISHED_COLOUR = discord.Colour.dark_grey()
MAX_EVENT_LINES = 6


@dataclass(frozen=True)
class LobbySeat:
    player_id: int
    name: str
    is_computer: bool = False


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def mention(player_id: int) -> str:
    """A mention for humans (shown as a name, notifies only in new messages), a name for
    computer players (negative ids)."""
    return f"<@{player_id}>" if player_id > 0 else "a computer player"


def name_of(names: Mapping[int, str], player_id: int) -> str:
    return names.get(player_id, "someone")


NAME_LIMIT = 32
"""Discord's longest display name; anything longer is cut, so every line keeps its size."""


def shown_name(name: str) -> str:
    """A name as it may appear in any message: at most ``NAME_LIMIT`` characters, with markdown
    and mentions escaped so a name like ``[nitro](https://…)`` or ``@everyone`` shows as typed.
    The one place names are made safe to show."""
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def label(player_id: int, name: str) -> str:
    """How a player is named at the table, escaped: computer players (negative ids) as
    "🤖 Astrid"."""
    return f"🤖 {shown_name(name)}" if player_id < 0 else shown_name(name)


def labelled(names: Iterable[tuple[int, str]]) -> dict[int, str]:
    return {player_id: label(player_id, name) for player_id, name in names}


def turn_time_text(seconds: int) -> str:
    if seconds <= 0:
        return "no turn timer"
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''} per turn"
    return f"{seconds} s per turn"


def countdown(deadline: float | None) -> str | None:
    """A live countdown (Discord shows "in 1 minute", "2 minutes ago"), or None without one."""
    return None if deadline is None else f"<t:{int(deadline)}:R>"


def join_names(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def lobby_embed(
    *,
    title: str,
    options_line: str,
    seats: Iterable[LobbySeat],
    host_id: int,
    min_players: int,
    max_players: int,
    expires_at: float | None,
    turn_seconds: int = 0,
) -> discord.Embed:
    seated = list(seats)
    lines = []
    for seat in seated:
        tag = " (host)" if seat.player_id == host_id else ""
        lines.append(f"• {label(seat.player_id, seat.name)}{tag}")
    embed = discord.Embed(title=f"{title} — waiting for players", colour=LOBBY_COLOUR)
    embed.add_field(name="Options", value=f"{options_line} · {turn_time_text(turn_seconds)}",
                    inline=False)
    embed.add_field(
        name=f"Players ({len(seated)}/{max_players})",
        value="\n".join(lines) or "nobody yet",
        inline=False,
    )
    needed = max(0, min_players - len(seated))
    footer = (
        f"Press Join to sit down. {needed} more needed to start."
        if needed
        else "The host can press Start."
    )
    embed.set_footer(text=footer)
    if expires_at is not None:
        embed.description = f"This lobby closes <t:{int(expires_at)}:R> if it hasn't started."
    return embed


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
) -> RoutedButton:
    return RoutedButton(
        Route(game, table_id, action, counter, arg), label, style, disabled=disabled, row=row
    )


def lobby_view(game: str, table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(game, table_id, "join", "Join", discord.ButtonStyle.primary))
    view.add_item(button(game, table_id, "leave", "Leave"))
    view.add_item(button(game, table_id, "start", "Start", discord.ButtonStyle.success))
    view.add_item(button(game, table_id, "cancel", "Cancel", discord.ButtonStyle.danger))
    # issue 8: the host seats computer players (anyone else is told only the host can)
    view.add_item(button(game, table_id, "add_computer", "Add computer player"))
    return view


def closed_embed(title: str, text: str) -> discord.Embed:
    return discord.Embed(title=title, description=text, colour=FINISHED_COLOUR)
