"""Tonk on Discord: the public table, the private hand panel, and events in plain words.

The public table reads only ``TonkTable.public_view()`` and events in their public form
(``public_form``), so no card of a hand in play can reach it; hands are shown only once
the hand is over, from the result the public view reveals. The panel shows one player's own
cards (``private_view``) and exactly the moves the engine allows them now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot import cards
from bot.discord.common import (
    FINISHED_COLOUR,
    PLAYING_COLOUR,
    button,
    countdown,
    join_names,
    label,
    name_of,
)
from bot.discord.publisher import TableRender
from bot.discord.routing import Route, RoutedSelect
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Joined,
    Left,
    Move,
    Phase,
    Spread,
    TonkOptions,
    TonkPrivateView,
    TonkPublicView,
    sort_cards,
)
from bot.games.tonk.events import (
    Dealt,
    Discarded,
    DrewFromDiscard,
    DrewFromStock,
    Dropped,
    EndedHand,
    HandEnded,
    SpreadHit,
    SpreadLaid,
)
from bot.games.tonk.spreads import hand_total, is_run

GAME = "tonk"
TITLE = "Tonk"
SELECT_LIMIT = 25
SELECT_ROWS = 4  # the fifth row holds the panel's buttons
HAND_OVER_COLOUR = discord.Colour.gold()


def chips(n: int) -> str:
    return f"{n} chip{'s' if n != 1 else ''}"


def signed(n: int) -> str:
    return f"{n:+d}"


def card_text(card: int) -> str:
    return cards.display(card)


def cards_text(hand: Iterable[int]) -> str:
    """Cards in Tonk order (ace low), as shown to players: ``A♠ 3♥ 3♦ K♣``."""
    return " ".join(card_text(c) for c in sort_cards(hand))


def spread_text(spread: Sequence[int]) -> str:
    """A spread as players name it: a run as ``♣5-6-7``, a book as ``7♠ 7♥ 7♦``."""
    ordered = sort_cards(spread)
    if len(ordered) >= 3 and is_run(ordered):
        suit = cards.SUIT_SYMBOLS[cards.suit(ordered[0])]
        return suit + "-".join(cards.RANK_NAMES[cards.rank(c)] for c in ordered)
    return cards_text(ordered)


def spread_label(spread_id: int, spread: Sequence[int], owner: int,
                 names: Mapping[int, str]) -> str:
    """``S1 ♣5-6-7 (Anna)``: the short label a spread is hit by."""
    return f"S{spread_id} {spread_text(spread)} ({name_of(names, owner)})"


def options_line(options: TonkOptions, players: int | None = None) -> str:
    parts = [f"stake {chips(options.stake)}"]
    parts.append("upcard" if options.upcard else "no upcard")
    if options.must_spread:
        parts.append("must spread")
    if options.double_needs_spread:
        parts.append("double only for a new spread")
    if options.hit_lock:
        parts.append("hit lock")
    return ", ".join(parts)


# -- select values: the cards themselves, so a choice means the same on any later click ---------


def cards_value(chosen: Iterable[int]) -> str:
    return ".".join(str(c) for c in chosen)


def hit_value(spread_id: int, chosen: Iterable[int]) -> str:
    return f"{spread_id}:{cards_value(chosen)}"


def parse_cards_value(value: str) -> tuple[int, ...]:
    """The inverse of ``cards_value``; raises ``ValueError`` on anything else."""
    if not value:
        raise ValueError("no cards")
    return tuple(int(part) for part in value.split("."))


def parse_hit_value(value: str) -> tuple[int, tuple[int, ...]]:
    spread_id, _, chosen = value.partition(":")
    return int(spread_id), parse_cards_value(chosen)


# -- events in plain words ----------------------------------------------------------------------

HOW_PAID = {
    "tonk_on_deal": "tonk on the deal",
    "tonk_out": "tonk out",
    "out_by_discard": "out by discard",
    "drop_won": "won drop",
    "caught": "caught dropping",
    "lowest_after_drop": "lowest after the drop",
    "stock_out": "lowest at stock out",
    "forfeit": "forfeit",
}


def _public(event: Mapping[str, Any]) -> dict[str, Any]:
    # stored move-log events keep the private cards beside the public part; never read them
    return {k: v for k, v in event.items() if k != "private"}


def describe(events: Iterable[Mapping[str, Any]], names: Mapping[int, str]) -> list[str]:
    """One line per thing that happened, from events in their public form."""
    lines: list[str] = []
    for event in events:
        line = _describe(_public(event), names)
        if line is not None:
            lines.append(line)
    return lines


def _describe(e: dict[str, Any], names: Mapping[int, str]) -> str | None:
    who = name_of(names, e["player"]) if "player" in e else ""
    match e["type"]:
        case "cut_for_deal":
            return cut_text(e, names)
        case "dealt":
            up = f"{card_text(e['upcard'])} turned up" if e["upcard"] is not None else "no upcard"
            return (f"Hand {e['hand_number']}: {name_of(names, e['dealer'])} dealt 5 cards each, "
                    f"{up}")
        case "drew_from_stock":
            return f"{who} drew from the stock"
        case "drew_from_discard":
            return f"{who} took {card_text(e['card'])} from the discard pile"
        case "spread_laid":
            return f"{who} laid S{e['spread_id']} {spread_text(e['cards'])}"
        case "hit":
            return f"{who} hit S{e['spread_id']} with {cards_text(e['cards'])}"
        case "discarded":
            return f"{who} discarded {card_text(e['card'])}"
        case "ended_hand":
            return f"{who} ended the hand: the stock is empty (T8)"
        case "hand_drawn":
            return (f"{join_names(name_of(names, p) for p in e['players'])} were dealt 49–50: "
                    "the hand is a draw (T4)")
        case "hand_ended":
            return result_line(e, names)
        case "joined":
            return (f"{label(e['player'], e['name'])} joined the table (deals last in the "
                    "round)")
        case "left":
            return f"{who} left mid-hand — forfeit (T11)" if e["forfeit"] else f"{who} left"
        case "timed_out":
            return f"⏱ {who}'s time ran out ({e['in_a_row']} of 3) — automatic move (T11)"
        case "table_dealt":
            return f"⏱ Nobody dealt in time, so the table deals hand {e['hand_number']}"
        case "table_closed":
            return "The table closed: fewer than two players are left"
    return None


def cut_text(e: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """T3: only ranks decide the cut (K high, ace low), so only ranks are shown."""
    rounds = []
    for cut in e["rounds"]:
        rounds.append(" · ".join(f"{name_of(names, p)} {_cut_rank(c)}" for p, c in cut))
    again = " — tie, they cut again: ".join(rounds)
    return f"Cut for deal: {again} → **{name_of(names, e['dealer'])}** deals"


def _cut_rank(card: int) -> str:
    return cards.RANK_NAMES[cards.rank(card)]


def _totals(result: Mapping[str, Any]) -> dict[int, int]:
    return {row["player"]: row["total"] for row in result["players"]}


def how_text(result: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """How a hand ended, in words (the issue's list: tonk on the deal … forfeit)."""
    how = result["how"]
    totals = _totals(result)
    if how == "tonk_on_deal":
        w = result["winner"]
        return f"{name_of(names, w)} was dealt {totals[w]} — tonk on the deal (T4)"
    if how == "draw_on_deal":
        return "Several players were dealt 49–50 — a draw, no payments (T4)"
    if how == "tonk_out":
        return f"{name_of(names, result['winner'])} tonked out"
    if how == "out_by_discard":
        return f"{name_of(names, result['winner'])} went out by discarding"
    if how == "drop_won":
        d = result["dropper"]
        return f"{name_of(names, d)} dropped with {totals[d]} and won"
    if how == "drop_caught":
        d = result["dropper"]
        catchers = [p for p in totals if p != d and totals[p] <= totals[d]]
        caught_by = join_names(f"{name_of(names, p)} ({totals[p]})" for p in catchers)
        return f"{name_of(names, d)} dropped with {totals[d]} — caught by {caught_by}"
    if how == "stock_out":
        low = min(totals.values())
        lowest = join_names(name_of(names, p) for p, t in totals.items() if t == low)
        why = "The turn cap was reached (T8)" if result.get("capped") else "The stock ran out"
        return f"{why} — lowest: {lowest} ({low})"
    return f"{name_of(names, result['leaver'])} left mid-hand and forfeits (T11)"


def nets(result: Mapping[str, Any]) -> dict[int, int]:
    out = {row["player"]: 0 for row in result["players"]}
    for p in result["payments"]:
        out[p["payer"]] -= p["amount"]
        out[p["payee"]] += p["amount"]
    return out


def result_line(result: Mapping[str, Any], names: Mapping[int, str]) -> str:
    net = nets(result)
    paid = " · ".join(f"{name_of(names, p)} {signed(n)}" for p, n in net.items() if n)
    return f"Hand {result['hand_number']} over: {how_text(result, names)}" + (
        f" — {paid}" if paid else ""
    )


def payment_lines(result: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    return [
        f"{name_of(names, p['payer'])} pays {name_of(names, p['payee'])} {p['amount']} "
        f"({HOW_PAID.get(p['reason'], p['reason'])})"
        for p in result["payments"]
    ]


# -- the public table ---------------------------------------------------------------------------


def table_render(
    view: TonkPublicView, recent: Sequence[str], *, table_id: int, counter: int,
    names: Mapping[int, str], deadline: float | None = None,
) -> TableRender:
    """``deadline``: when the turn timer of the player to move runs out (issue 8)."""
    if view.in_hand:
        return _in_play(view, recent, table_id, counter, names, deadline)
    return _between_hands(view, recent, table_id, counter, names, deadline,
                          closed=view.phase is Phase.TABLE_CLOSED)


def _table_buttons(table_id: int, counter: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    # the counter on "Your hand" changes nothing when clicked; it dates the table message
    view.add_item(button(GAME, table_id, "hand", "Your hand", discord.ButtonStyle.primary,
                         counter=counter))
    return view


def _in_play(view: TonkPublicView, recent: Sequence[str], table_id: int, counter: int,
             names: Mapping[int, str], deadline: float | None) -> TableRender:
    to_move = view.to_move
    mover = name_of(names, to_move)
    human = to_move is not None and to_move > 0
    embed = discord.Embed(title=f"{TITLE} — hand {view.hand_number}", colour=PLAYING_COLOUR)
    doing = ("to drop or draw" if view.phase is Phase.START
             else "drew — lays spreads and hits, then discards")
    timer = countdown(deadline) if human else None
    embed.description = (f"Stake **{chips(view.stake)}** · dealer "
                         f"**{name_of(names, view.dealer)}**\n▶ **{mover}** {doing}"
                         + (f" · ⏱ time runs out {timer}" if timer else ""))
    embed.add_field(name="Discard pile", value=_discard_text(view), inline=True)
    embed.add_field(name="Stock", value=_stock_text(view), inline=True)
    embed.add_field(name="Spreads", value=_spreads_text(view, names), inline=False)
    embed.add_field(name="Players (in turn order)", value=_players_text(view, names),
                    inline=False)
    if recent:
        embed.add_field(name="Latest", value="\n".join(recent), inline=False)
    embed.set_footer(text=f"Options: {options_line(view.options)}")
    table_view = _table_buttons(table_id, counter)
    if view.phase is Phase.START:
        if view.stock_size:
            table_view.add_item(button(GAME, table_id, "draw_stock", "Draw from stock",
                                       counter=counter))
        if view.discard_top is not None:
            table_view.add_item(button(GAME, table_id, "draw_discard",
                                       f"Take {card_text(view.discard_top)}", counter=counter))
    table_view.add_item(button(GAME, table_id, "rules", "Rules"))
    return TableRender(
        embed=embed,
        view=table_view,
        to_move=to_move if human else None,
        content=f"<@{to_move}> to move." if human else f"{mover} to move.",
    )


def _discard_text(view: TonkPublicView) -> str:
    top = view.discard_top
    if top is None:
        return "empty"
    size = view.discard_size
    return f"**{card_text(top)}** ({size} card{'s' if size != 1 else ''})"


def _stock_text(view: TonkPublicView) -> str:
    n = view.stock_size
    if n:
        return f"{n} card{'s' if n != 1 else ''}"
    return "**empty** — take the discard, drop, or end the hand (T8)"


def _spreads_text(view: TonkPublicView, names: Mapping[int, str]) -> str:
    spreads = view.spreads
    if not spreads:
        return "none yet"
    return "\n".join(spread_label(s.id, s.cards, s.owner, names) for s in spreads)


def _players_text(view: TonkPublicView, names: Mapping[int, str]) -> str:
    lines = []
    for seat in view.seats:
        pid = seat.player_id
        tags = []
        if pid == view.dealer:
            tags.append("dealer")
        if seat.hit_locked:
            tags.append("🔒 hit — no drop this turn (T9)")
        size = seat.hand_size
        count = ("waits for the next deal" if size is None
                 else f"{size} card{'s' if size != 1 else ''}")
        extra = "".join(f" · {t}" for t in tags)
        name = label(pid, seat.name)
        if pid == view.to_move:
            lines.append(f"▶ **{name}** — {count} · to move{extra}")
        else:
            lines.append(f"• {name} — {count}{extra}")
    return "\n".join(lines)


def _between_hands(view: TonkPublicView, recent: Sequence[str], table_id: int, counter: int,
                   names: Mapping[int, str], deadline: float | None, *,
                   closed: bool) -> TableRender:
    result = _result(view)
    if closed:
        embed = discord.Embed(title=f"{TITLE} — table closed", colour=FINISHED_COLOUR)
    else:
        embed = discord.Embed(title=f"{TITLE} — hand {view.hand_number} over",
                              colour=HAND_OVER_COLOUR)
    lines = []
    if result is not None:
        lines.append(f"**{how_text(result, names)}.**")
    seated = [label(s.player_id, s.name) for s in view.seats]
    if closed:
        lines.append("The table closed: fewer than two players are left.")
    else:
        nxt = name_of(names, view.next_dealer)
        lines.append(f"Next: **{nxt}** deals hand {view.hand_number + 1}. Anyone at the table "
                     "can press **Deal next hand**; others may **Join** now, and players may "
                     "**Leave** without paying anything.")
        timer = countdown(deadline)
        if timer is not None:
            lines.append(f"⏱ If nobody deals, the table deals the next hand itself {timer}.")
        lines.append(f"At the table: {join_names(seated)}.")
    embed.description = "\n".join(lines)
    if result is not None:
        embed.add_field(name="Hands revealed", value=_revealed(result, names), inline=False)
        paid = payment_lines(result, names)
        embed.add_field(name="Payments", value="\n".join(paid) or "none", inline=False)
        net = nets(result)
        embed.add_field(
            name="This hand",
            value=" · ".join(f"{name_of(names, p)} {signed(n)}" for p, n in net.items()),
            inline=False,
        )
    if recent:
        embed.add_field(name="Latest", value="\n".join(recent), inline=False)
    embed.set_footer(text=f"Options: {options_line(view.options)}")
    if closed:
        return TableRender(embed=embed, view=None)
    table_view = discord.ui.View(timeout=None)
    table_view.add_item(button(GAME, table_id, "deal", "Deal next hand",
                               discord.ButtonStyle.success, counter=counter))
    table_view.add_item(button(GAME, table_id, "join", "Join", discord.ButtonStyle.primary))
    table_view.add_item(button(GAME, table_id, "leave", "Leave"))
    table_view.add_item(button(GAME, table_id, "rules", "Rules"))
    return TableRender(embed=embed, view=table_view,
                       content=f"Hand {view.hand_number} is over.")


def _result(view: TonkPublicView) -> dict[str, Any] | None:
    """The last hand's result in its event form (what the describing functions read)."""
    result = view.last_hand_result
    return None if result is None else result.to_dict()


def _revealed(result: Mapping[str, Any], names: Mapping[int, str]) -> str:
    winners = {p["payee"] for p in result["payments"]}
    lines = []
    for row in result["players"]:
        mark = "🏆 " if row["player"] in winners else ""
        held = cards_text(row["hand"]) if row["hand"] else "no cards"
        lines.append(f"{mark}{name_of(names, row['player'])} — **{row['total']}**: {held}")
    return "\n".join(lines)


# -- the private hand panel ---------------------------------------------------------------------


def hand_panel(
    view: TonkPublicView,
    private: TonkPrivateView,
    *,
    table_id: int,
    counter: int,
    names: Mapping[int, str],
    notice: str | None = None,
    deadline: float | None = None,
) -> tuple[str, discord.ui.View]:
    """The ephemeral panel: the player's cards and total, and exactly their legal moves."""
    player = private.player_id
    hand = private.hand
    legal: list[Move] = list(private.legal_moves)
    phase = view.phase
    lines = []
    if notice:
        lines.append(notice)
    top = view.discard_top
    lines.append(f"**{TITLE} — hand {view.hand_number}** · stake {chips(view.stake)} · "
                 f"stock {view.stock_size} · discard "
                 f"{card_text(top) if top is not None else '—'}")
    in_hand = view.in_hand and player in _hand_players(view)
    if in_hand:
        lines.append(f"**Your hand ({len(hand)}):** {cards_text(hand) or 'no cards'} — total "
                     f"**{private.total}**")
        if view.spreads:
            lines.append("**Spreads:** " + " · ".join(
                spread_label(s.id, s.cards, s.owner, names) for s in view.spreads))
    lines.append(_panel_status(view, private, legal, names))
    timer = countdown(deadline)
    if timer is not None and view.to_move == player:
        lines.append(f"⏱ Your time runs out {timer} — then the automatic move of T11 is made "
                     "for you; three in a row and you leave the table.")
    panel = discord.ui.View(timeout=None)
    if phase is Phase.AFTER_DRAW and view.to_move == player:
        _add_selects(panel, view, legal, table_id, counter, names, lines)
    row = 4
    for move in legal:
        item = _move_button(move, view, private, table_id, counter, row)
        if item is not None:
            panel.add_item(item)
    panel.add_item(button(GAME, table_id, "hand", "Refresh", row=row))
    return "\n".join(lines), panel


def _hand_players(view: TonkPublicView) -> set[int]:
    return {s.player_id for s in view.seats if s.hand_size is not None}


def _panel_status(view: TonkPublicView, private: TonkPrivateView, legal: list[Move],
                  names: Mapping[int, str]) -> str:
    phase = view.phase
    player = private.player_id
    if phase is Phase.TABLE_CLOSED:
        return "The table has closed."
    if all(s.player_id != player for s in view.seats):
        return "You are no longer at this table."
    if phase is Phase.HAND_OVER:
        result = _result(view)
        text = f"Hand {view.hand_number} is over"
        if result is not None:
            text += f": {how_text(result, names)}"
            mine = nets(result).get(player)
            if mine is not None:
                text += f". Your result: **{signed(mine)}**"
        return text + (". Press **Deal next hand** when everyone is ready (computer players "
                       "never deal).")
    if player not in _hand_players(view):
        return "You'll be dealt in at the next hand."
    to_move = view.to_move
    if to_move != player:
        return f"Waiting for **{name_of(names, to_move)}**."
    if phase is Phase.START:
        parts = ["**Your turn.**"]
        if Drop() not in legal:
            parts.append("A spread of yours was hit: no drop this turn (T9).")
        if view.stock_size:
            parts.append("Drop, draw from the stock, or take the discard.")
        else:
            parts.append("The stock is empty: take the discard, drop, or end the hand (T8).")
        return " ".join(parts)
    parts = ["**Your turn:** lay spreads and hit in any order, then discard."]
    taken = private.taken_discard
    if taken is not None and len(private.hand) > 1:
        parts.append(f"You took {card_text(taken)}: you can't discard it this turn (T5).")
    if not any(isinstance(m, Discard) for m in legal):
        parts.append("Must spread: lay your complete spreads before you discard (T6).")
    return " ".join(parts)


def _move_button(move: Move, view: TonkPublicView, private: TonkPrivateView,
                 table_id: int, counter: int, row: int) -> discord.ui.Item[Any] | None:
    if isinstance(move, Drop):
        return button(GAME, table_id, "drop", f"Drop ({private.total})",
                      discord.ButtonStyle.danger, counter=counter, row=row)
    if isinstance(move, DrawStock):
        return button(GAME, table_id, "draw_stock", "Draw from stock",
                      discord.ButtonStyle.primary, counter=counter, row=row)
    if isinstance(move, DrawDiscard) and view.discard_top is not None:
        return button(GAME, table_id, "draw_discard", f"Take {card_text(view.discard_top)}",
                      discord.ButtonStyle.primary, counter=counter, row=row)
    if isinstance(move, EndHand):
        return button(GAME, table_id, "end_hand", "End the hand", discord.ButtonStyle.danger,
                      counter=counter, row=row)
    if isinstance(move, DealNextHand):
        return button(GAME, table_id, "deal", "Deal next hand", discord.ButtonStyle.success,
                      counter=counter, row=row)
    return None


def _add_selects(panel: discord.ui.View, view: TonkPublicView, legal: list[Move],
                 table_id: int, counter: int, names: Mapping[int, str], lines: list[str]) -> None:
    spreads = [m for m in legal if isinstance(m, Spread)]
    hits = [m for m in legal if isinstance(m, Hit)]
    discards = [m for m in legal if isinstance(m, Discard)]
    row = 0
    if spreads:
        options = [discord.SelectOption(label=f"Lay {spread_text(m.cards)}",
                                        description=f"{hand_total(m.cards)} points off your hand",
                                        value=cards_value(m.cards))
                   for m in spreads[:SELECT_LIMIT]]
        panel.add_item(RoutedSelect(Route(GAME, table_id, "spread", counter), options,
                                    "Lay a spread…", row=row))
        row += 1
    hit_rows = SELECT_ROWS - row - (1 if discards else 0)
    labels = {s.id: spread_label(s.id, s.cards, s.owner, names) for s in view.spreads}
    shown = hits[: hit_rows * SELECT_LIMIT]
    chunks = [shown[i:i + SELECT_LIMIT] for i in range(0, len(shown), SELECT_LIMIT)]
    for n, chunk in enumerate(chunks):
        options = [discord.SelectOption(label=f"Hit {labels[m.spread_id]} with "
                                              f"{cards_text(m.cards)}"[:100],
                                        value=hit_value(m.spread_id, m.cards))
                   for m in chunk]
        placeholder = "Hit a spread…" if len(chunks) == 1 else f"Hit a spread… ({n + 1})"
        panel.add_item(RoutedSelect(Route(GAME, table_id, "hit", counter, str(n)), options,
                                    placeholder, row=row))
        row += 1
    if len(hits) > len(shown):
        lines.append("More hits than fit here: use `/tonk hit` for the rest.")
    if discards:
        options = [discord.SelectOption(label=f"Discard {card_text(m.card)}", value=str(m.card))
                   for m in discards]
        panel.add_item(RoutedSelect(Route(GAME, table_id, "discard", counter), options,
                                    "Discard a card (ends your turn)…", row=row))


# -- what only the mover learns -----------------------------------------------------------------


def move_notice(events: Sequence[Any], player_id: int) -> str | None:
    notes: list[str] = []
    for e in events:
        if isinstance(e, DrewFromStock) and e.player == player_id:
            notes.append(f"You drew **{card_text(e.private_card)}** from the stock.")
        elif isinstance(e, DrewFromDiscard) and e.player == player_id:
            notes.append(f"You took {card_text(e.card)} from the discard pile.")
        elif isinstance(e, SpreadLaid) and e.player == player_id:
            notes.append(f"You laid S{e.spread_id} {spread_text(e.cards)}.")
        elif isinstance(e, SpreadHit) and e.player == player_id:
            notes.append(f"You hit S{e.spread_id} with {cards_text(e.cards)}.")
        elif isinstance(e, Discarded) and e.player == player_id:
            notes.append(f"You discarded {card_text(e.card)}.")
        elif isinstance(e, Dropped) and e.player == player_id:
            notes.append("You dropped.")
        elif isinstance(e, EndedHand) and e.player == player_id:
            notes.append("You ended the hand.")
        elif isinstance(e, Dealt):
            notes.append(f"Hand {e.hand_number} is dealt.")
        elif isinstance(e, Joined) and e.player == player_id:
            notes.append("You joined the table.")
        elif isinstance(e, Left) and e.player == player_id:
            notes.append("You left the table.")
        elif isinstance(e, HandEnded):
            mine = nets(e.result.to_dict()).get(player_id)
            if mine is not None:
                notes.append(f"The hand is over — your result: **{signed(mine)}**.")
    return " ".join(notes) or None


def rules_text(options: TonkOptions | None) -> str:
    """The rules in a nutshell, with the rulings that matter in play."""
    lines = [
        "**Tonk in a nutshell** — get rid of your cards, or hold the lowest count when the hand "
        "ends. Ace = 1, J Q K = 10, others face value (T2).",
        "• Five cards each. Dealt 49 or 50? That's a tonk: you win 2× the stake from everyone "
        "at once (T4).",
        "• Your turn: **drop** (show your hand, claiming the lowest total), or **draw** from the "
        "stock or take the top discard. Then lay **spreads** (3–4 of a rank, or 3+ in a row of "
        "one suit, ace low) and **hit** any spread on the table, then **discard** (T5, T6). You "
        "can't throw back the card you just took from the discard pile (T5).",
        "• **Tonk out** — lay your last cards without discarding: 2× the stake from each "
        "player. Out by discarding your last card: 1× (T7).",
        "• **Drop** and you're lowest: 1× from each. Someone equal or lower: you're **caught** "
        "— you pay 2× to each of them, and the lowest of the others collect 1× from everyone "
        "else (T10).",
        "• Stock empty: take the discard, drop, or **end the hand** — lowest total collects 1× "
        "from each (T8).",
        "• Leaving mid-hand forfeits it: you pay 1× to each other player (T11). Between hands "
        "anyone may join or leave freely (T1).",
        "Commands: `/tonk hand`, `/tonk draw`, `/tonk spread`, `/tonk hit`, `/tonk discard`, "
        "`/tonk knock`, `/tonk end`, `/tonk deal`, `/tonk ledger`.",
    ]
    if options is not None:
        if options.must_spread:
            lines.append("• Must spread: you can't discard while holding a complete spread "
                         "(three aces excepted) (T6).")
        if options.double_needs_spread:
            lines.append("• Double only for a new spread: going out by hits alone pays 1× "
                         "(T6).")
        if options.hit_lock:
            lines.append("• Hit lock: when someone hits your spread you can't drop on your next "
                         "turn (T9).")
        lines.append(f"This table: {options_line(options)}.")
    return "\n".join(lines)
