"""The Tonk ledger of one server as embeds: standings, and one player's recent entries; all
time for one table, else one season of the server's ledger.

Both are paged; the page buttons carry the page and what is shown (``s`` for standings,
``p<player id>`` for a player's entries, then ``.<season>`` when a season is chosen) and, when
the ledger is limited to one table, that table's id (0 otherwise). Nothing in a button says
which server: the handler always reads the ledger of the server the click comes from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.discord.common import button, shown_name
from bot.discord.rows import Rows
from bot.games.tonk.face.render import GAME, reason_text
from bot.games.tonk.rules import HANDS_PLAYED, HANDS_WON, TONKS
from bot.i18n import signed, tr, trn
from bot.storage.models import Balance, LedgerEntry, StatsRow

PAGE_SIZE = 10
ENTRY_LIMIT = 100
"""A player's entries go back this far (``/tonk ledger player:``)."""
LEDGER_COLOUR = discord.Colour.gold()
STANDINGS = "s"


@dataclass(frozen=True)
class LedgerQuery:
    """What a ledger message shows: standings, or one player's entries; one table (all its
    payments) or one season of the server's ledger."""

    player_id: int | None = None
    table_id: int | None = None
    season: int | None = None

    @property
    def arg(self) -> str:
        what = STANDINGS if self.player_id is None else f"p{self.player_id}"
        return what if self.season is None else f"{what}.{self.season}"

    @classmethod
    def parse(cls, arg: str | None, table_id: int) -> LedgerQuery:
        """The inverse of ``arg`` plus the route's table id; raises ``ValueError``."""
        table = table_id or None
        what, dot, season_text = (arg or "").partition(".")
        season = int(season_text) if dot else None
        if what == STANDINGS:
            return cls(None, table, season)
        if what.startswith("p"):
            return cls(int(what[1:]), table, season)
        raise ValueError(f"not a ledger query: {arg!r}")


@dataclass(frozen=True)
class Standing:
    """A player's line in a server's Tonk standings: net chips from the ledger, and hands from
    the stats when they count the same span (``None`` otherwise)."""

    player_id: int
    name: str | None
    is_computer: bool
    net: int
    hands_played: int | None
    hands_won: int | None
    tonks: int | None


def standings(balances: Sequence[Balance], stats: Sequence[StatsRow] | None) -> list[Standing]:
    """Everyone with chips or hands in the server (or at one table), best net first, then most
    hands won. ``stats`` is ``None`` when they cover another span than the nets (a season)."""
    by_player = {s.player_id: s for s in stats or ()}
    players = {b.player_id: (b.name, b.is_computer) for b in balances}
    for row in stats or ():
        players.setdefault(row.player_id, (row.name, row.is_computer))
    nets = {b.player_id: b.net for b in balances}
    rows = []
    for player_id, (name, is_computer) in players.items():
        counted = by_player.get(player_id)

        def count(counter: str, counted: StatsRow | None = counted) -> int | None:
            if stats is None:
                return None
            return 0 if counted is None else counted.count(counter)

        rows.append(Standing(
            player_id=player_id, name=name, is_computer=is_computer,
            net=nets.get(player_id, 0), hands_played=count(HANDS_PLAYED),
            hands_won=count(HANDS_WON), tonks=count(TONKS),
        ))
    rows.sort(key=lambda r: (-r.net, -(r.hands_won or 0), r.name or "", r.player_id))
    return rows


def pages(count: int, page_size: int | None = None) -> int:
    return max(1, math.ceil(count / (page_size or PAGE_SIZE)))


def clamp_page(page: int, count: int, page_size: int | None = None) -> int:
    return min(max(page, 0), pages(count, page_size) - 1)


def _who(name: str | None, lang: str, is_computer: bool = False) -> str:
    who = shown_name(name) if name else tr(lang, "someone")
    return f"🤖 {who}" if is_computer else who


def scope_text(lang: str, *, table_id: int | None, season: int | None) -> str:
    """What a ledger covers, for its title: one table, the server, or one of its seasons."""
    if table_id is not None:
        return tr(lang, "table {table}", table=table_id)
    if season is not None:
        return tr(lang, "this server, season {season}", season=season)
    return tr(lang, "this server")


def standings_embed(rows: Sequence[Standing], *, page: int, scope: str, lang: str,
                    page_size: int | None = None) -> discord.Embed:
    """Net chips (signed), and hands played, hands won and tonks when counted, best net
    first."""
    embed = discord.Embed(title=tr(lang, "Tonk ledger — {scope}", scope=scope),
                          colour=LEDGER_COLOUR)
    if not rows:
        embed.description = tr(lang, "No Tonk hands have been paid here yet.")
        return embed
    size = page_size or PAGE_SIZE
    page = clamp_page(page, len(rows), size)
    start = page * size
    lines = []
    for n, row in enumerate(rows[start:start + size], start=start + 1):
        line = f"{n}. **{_who(row.name, lang, row.is_computer)}** {signed(lang, row.net)}"
        if row.hands_played is not None:
            line += " · " + trn(lang, "{n} hand played", "{n} hands played", row.hands_played)
            line += " · " + trn(lang, "{n} won", "{n} won", row.hands_won or 0)
        if row.tonks:
            line += " · " + trn(lang, "{n} tonk", "{n} tonks", row.tonks)
        lines.append(line)
    embed.description = "\n".join(lines)
    embed.set_footer(text=trn(lang, "Page {page} of {pages} · {n} player",
                              "Page {page} of {pages} · {n} players", len(rows),
                              page=page + 1, pages=pages(len(rows), size)))
    return embed


def entries_embed(entries: Sequence[LedgerEntry], player_id: int, player_name: str, *,
                  page: int, scope: str, lang: str,
                  page_size: int | None = None) -> discord.Embed:
    """One player's recent entries, newest first: hand, counterpart, amount, reason."""
    player_name = shown_name(player_name)
    embed = discord.Embed(title=tr(lang, "Tonk ledger — {name}, {scope}", name=player_name,
                                   scope=scope), colour=LEDGER_COLOUR)
    if not entries:
        embed.description = tr(lang, "{name} has no Tonk ledger entries here.",
                               name=player_name)
        return embed
    size = page_size or PAGE_SIZE
    page = clamp_page(page, len(entries), size)
    start = page * size
    lines = []
    for entry in entries[start:start + size]:
        receives = entry.payee_id == player_id
        other_id = entry.payer_id if receives else entry.payee_id
        # computer players have negative ids (bot.table.computers)
        other = _who(entry.payer_name if receives else entry.payee_name, lang, other_id < 0)
        values = {"table": entry.table_id, "hand": entry.hand_no, "other": other,
                  "reason": reason_text(entry.reason, lang)}
        if receives:
            lines.append(tr(lang, "Table {table} · hand {hand} · **{amount}** from {other} "
                                  "({reason})", amount=signed(lang, entry.amount), **values))
        else:
            lines.append(tr(lang, "Table {table} · hand {hand} · **{amount}** to {other} "
                                  "({reason})", amount=signed(lang, -entry.amount), **values))
    total = sum(e.amount if e.payee_id == player_id else -e.amount for e in entries)
    embed.description = "\n".join(lines)
    embed.add_field(name=trn(lang, "Net of this {n} entry", "Net of these {n} entries",
                             len(entries)), value=signed(lang, total))
    embed.set_footer(text=trn(lang, "Page {page} of {pages} · {n} entry",
                              "Page {page} of {pages} · {n} entries", len(entries),
                              page=page + 1, pages=pages(len(entries), size)))
    return embed


def ledger_view(query: LedgerQuery, *, page: int, count: int, lang: str,
                page_size: int | None = None) -> Rows | None:
    """Previous/Next buttons, or None when everything fits on one page."""
    last = pages(count, page_size) - 1
    if last == 0:
        return None
    page = clamp_page(page, count, page_size)
    table = query.table_id or 0
    view = Rows()
    # the two buttons always lead to different pages, so their custom ids differ
    previous, following = max(page - 1, 0), min(page + 1, last)
    view.add_item(button(GAME, table, "ledger", tr(lang, "◀ Previous"), counter=previous,
                         arg=query.arg, disabled=page == 0))
    view.add_item(button(GAME, table, "ledger", tr(lang, "Next ▶"), counter=following,
                         arg=query.arg, disabled=page == last))
    return view
