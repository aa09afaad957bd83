"""The Tonk ledger of one server (T12) as embeds: standings, and one player's recent entries.

Both are paged; the page buttons carry the page and what is shown (``s`` for standings,
``p<player id>`` for a player's entries) and, when the ledger is limited to one table, that
table's id (0 otherwise). Nothing in a button says which server: the handler always reads the
ledger of the server the click comes from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.discord.common import button, shown_name
from bot.games.tonk.face.render import GAME, HOW_PAID, signed
from bot.games.tonk.rules import HANDS_PLAYED, HANDS_WON, TONKS
from bot.storage.models import Balance, LedgerEntry, StatsRow

PAGE_SIZE = 10
ENTRY_LIMIT = 100
"""A player's entries go back this far (``/tonk ledger player:``)."""
LEDGER_COLOUR = discord.Colour.gold()
STANDINGS = "s"


@dataclass(frozen=True)
class LedgerQuery:
    """What a ledger message shows: standings, or one player's entries; one table or all."""

    player_id: int | None = None
    table_id: int | None = None

    @property
    def arg(self) -> str:
        return STANDINGS if self.player_id is None else f"p{self.player_id}"

    @classmethod
    def parse(cls, arg: str | None, table_id: int) -> LedgerQuery:
        """The inverse of ``arg`` plus the route's table id; raises ``ValueError``."""
        table = table_id or None
        if arg == STANDINGS:
            return cls(None, table)
        if arg and arg.startswith("p"):
            return cls(int(arg[1:]), table)
        raise ValueError(f"not a ledger query: {arg!r}")


@dataclass(frozen=True)
class Standing:
    """A player's line in a server's Tonk standings: net chips from the ledger, hands from
    the stats."""

    player_id: int
    name: str | None
    is_computer: bool
    net: int
    hands_played: int
    hands_won: int
    tonks: int


def standings(balances: Sequence[Balance], stats: Sequence[StatsRow]) -> list[Standing]:
    """Everyone with chips or hands in the server (or at one table), best net first, then most
    hands won."""
    by_player = {s.player_id: s for s in stats}
    players = {b.player_id: (b.name, b.is_computer) for b in balances}
    for row in stats:
        players.setdefault(row.player_id, (row.name, row.is_computer))
    nets = {b.player_id: b.net for b in balances}
    rows = []
    for player_id, (name, is_computer) in players.items():
        counted = by_player.get(player_id)
        rows.append(Standing(
            player_id=player_id, name=name, is_computer=is_computer,
            net=nets.get(player_id, 0),
            hands_played=0 if counted is None else counted.count(HANDS_PLAYED),
            hands_won=0 if counted is None else counted.count(HANDS_WON),
            tonks=0 if counted is None else counted.count(TONKS),
        ))
    rows.sort(key=lambda r: (-r.net, -r.hands_won, r.name or "", r.player_id))
    return rows


def pages(count: int, page_size: int | None = None) -> int:
    return max(1, math.ceil(count / (page_size or PAGE_SIZE)))


def clamp_page(page: int, count: int, page_size: int | None = None) -> int:
    return min(max(page, 0), pages(count, page_size) - 1)


def _who(name: str | None, is_computer: bool = False) -> str:
    who = shown_name(name or "someone")
    return f"🤖 {who}" if is_computer else who


def _scope(table_label: str | None) -> str:
    return "this server" if table_label is None else table_label


def standings_embed(rows: Sequence[Standing], *, page: int, table_label: str | None = None,
                    page_size: int | None = None) -> discord.Embed:
    """Net chips (signed), hands played, hands won and tonks, best net first."""
    embed = discord.Embed(title=f"Tonk ledger — {_scope(table_label)}", colour=LEDGER_COLOUR)
    if not rows:
        embed.description = "No Tonk hands have been paid here yet."
        return embed
    size = page_size or PAGE_SIZE
    page = clamp_page(page, len(rows), size)
    start = page * size
    lines = []
    for n, row in enumerate(rows[start:start + size], start=start + 1):
        tonks = f" · {row.tonks} tonk{'s' if row.tonks != 1 else ''}" if row.tonks else ""
        lines.append(
            f"{n}. **{_who(row.name, row.is_computer)}** {signed(row.net)} · "
            f"{row.hands_played} hand{'s' if row.hands_played != 1 else ''} played · "
            f"{row.hands_won} won{tonks}"
        )
    embed.description = "\n".join(lines)
    embed.set_footer(text=_footer(page, len(rows), size, "players"))
    return embed


def entries_embed(entries: Sequence[LedgerEntry], player_id: int, player_name: str, *,
                  page: int, table_label: str | None = None,
                  page_size: int | None = None) -> discord.Embed:
    """One player's recent entries, newest first: hand, counterpart, amount, reason."""
    player_name = shown_name(player_name)
    embed = discord.Embed(title=f"Tonk ledger — {player_name}, {_scope(table_label)}",
                          colour=LEDGER_COLOUR)
    if not entries:
        embed.description = f"{player_name} has no Tonk ledger entries here."
        return embed
    size = page_size or PAGE_SIZE
    page = clamp_page(page, len(entries), size)
    start = page * size
    lines = []
    for entry in entries[start:start + size]:
        receives = entry.payee_id == player_id
        other_id = entry.payer_id if receives else entry.payee_id
        # computer players have negative ids (bot.ui.computers)
        other = _who(entry.payer_name if receives else entry.payee_name, other_id < 0)
        amount = entry.amount if receives else -entry.amount
        direction = "from" if receives else "to"
        reason = HOW_PAID.get(entry.reason, entry.reason)
        lines.append(f"Table {entry.table_id} · hand {entry.hand_no} · **{signed(amount)}** "
                     f"{direction} {other} ({reason})")
    total = sum(e.amount if e.payee_id == player_id else -e.amount for e in entries)
    embed.description = "\n".join(lines)
    embed.add_field(name=f"Net of these {len(entries)} entries", value=signed(total))
    embed.set_footer(text=_footer(page, len(entries), size, "entries"))
    return embed


def _footer(page: int, count: int, page_size: int, what: str) -> str:
    return f"Page {page + 1} of {pages(count, page_size)} · {count} {what}"


def ledger_view(query: LedgerQuery, *, page: int, count: int,
                page_size: int | None = None) -> discord.ui.View | None:
    """Previous/Next buttons, or None when everything fits on one page."""
    last = pages(count, page_size) - 1
    if last == 0:
        return None
    page = clamp_page(page, count, page_size)
    table = query.table_id or 0
    view = discord.ui.View(timeout=None)
    # the two buttons always lead to different pages, so their custom ids differ
    previous, following = max(page - 1, 0), min(page + 1, last)
    view.add_item(button(GAME, table, "ledger", "◀ Previous", counter=previous, arg=query.arg,
                         disabled=page == 0))
    view.add_item(button(GAME, table, "ledger", "Next ▶", counter=following, arg=query.arg,
                         disabled=page == last))
    return view
