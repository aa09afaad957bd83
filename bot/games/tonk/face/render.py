"""Tonk on Discord: the public table, the private hand panel, and events in plain words, in a
given language.

The public table reads only ``TonkEngine.public_view()`` and events in their public form
(``public_form``), so no card of a hand in play can reach it; hands are shown only once
the hand is over, from the result the public view reveals (replays draw past states the same
way). The panel shows one player's own cards (``private_view``) and exactly the moves the engine
allows them now. Every word goes through ``bot.i18n``; cards keep their figures (``Q♦``) in
every language, since that is what players type back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord

from bot import cards
from bot.discord.common import (
    FIELD_LIMIT,
    FINISHED_COLOUR,
    PLAYING_COLOUR,
    as_typed,
    button,
    countdown,
    cut,
    label,
    name_of,
)
from bot.discord.emojis import card_emoji
from bot.discord.face import Panel
from bot.discord.layout import seat_blocks
from bot.discord.routing import Route, RoutedSelect
from bot.discord.rows import Rows
from bot.discord.showing import TableRender
from bot.discord.translator import slash
from bot.games.tonk import (
    MIN_PLAYERS,
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
from bot.games.tonk.face.labels import hand_label
from bot.games.tonk.spreads import hand_total, is_run
from bot.i18n import N_, join, number, signed, tr, trn
from bot.i18n.cards import card_count

GAME = "tonk"
TITLE = "Tonk"
SELECT_LIMIT = 25
SELECT_ROWS = 4  # the fifth row holds the panel's buttons
HAND_OVER_COLOUR = discord.Colour.gold()
LINE_LIMIT = 250
"""The longest one line of "Latest" may be (a cut for deal with many ties and long names)."""
RULES_FILES = {lang: f"docs/rules/tonk.{lang}.md" for lang in ("sv", "da", "fi", "nb")}
RULES_FILE = "docs/rules/tonk.md"


def chips(lang: str, n: int) -> str:
    return trn(lang, "{n} chip", "{n} chips", n)


def card_text(card: int) -> str:
    return cards.display(card)


def cards_text(hand: Iterable[int], show: Callable[[int], str] = cards.display) -> str:
    """Cards in Tonk order (ace low), as shown to players: ``A♠ 3♥ 3♦ K♣`` (or their emojis;
    ``show=cards.letters`` where no emoji can show, as in labels)."""
    return " ".join(show(c) for c in sort_cards(hand))


def spread_text(spread: Sequence[int], show: Callable[[int], str] = cards.display) -> str:
    """A spread as players name it: a run as ``♣5-6-7``, a book as ``7♠ 7♥ 7♦``; in emojis,
    each card's own."""
    ordered = sort_cards(spread)
    if len(ordered) >= 3 and is_run(ordered) and show(ordered[0]) == cards.letters(ordered[0]):
        suit = cards.SUIT_SYMBOLS[cards.suit(ordered[0])]
        return suit + "-".join(cards.RANK_NAMES[cards.rank(c)] for c in ordered)
    return cards_text(ordered, show)


def move_text(move: Move, view: TonkPublicView, private: TonkPrivateView,
              names: Mapping[int, str], lang: str) -> str:
    """A move in a few words, as the hand panel names it (issue 34: hints)."""
    if isinstance(move, Drop):
        return tr(lang, "Drop ({total})", total=private.total)
    if isinstance(move, DrawStock):
        return tr(lang, "Draw from stock")
    if isinstance(move, DrawDiscard) and view.discard_top is not None:
        return tr(lang, "Take {card}", card=card_text(view.discard_top))
    if isinstance(move, EndHand):
        return tr(lang, "End the hand")
    if isinstance(move, Spread):
        return tr(lang, "Lay {spread}", spread=spread_text(move.cards))
    if isinstance(move, Hit):
        spread = next((s for s in view.spreads if s.id == move.spread_id), None)
        if spread is not None:
            return tr(lang, "Hit {spread} with {cards}", cards=cards_text(move.cards),
                      spread=spread_label(spread.id, spread.cards, spread.owner, names, lang))
    if isinstance(move, Discard):
        return tr(lang, "Discard {card}", card=card_text(move.card))
    return tr(lang, "Deal next hand")


def spread_label(spread_id: int, spread: Sequence[int], owner: int,
                 names: Mapping[int, str], lang: str,
                 show: Callable[[int], str] = cards.display) -> str:
    """``S1 ♣5-6-7 (Anna)``: the short label a spread is hit by."""
    return f"S{spread_id} {spread_text(spread, show)} ({name_of(names, owner, lang)})"


def options_line(options: TonkOptions, lang: str) -> str:
    parts = [tr(lang, "stake {chips}", chips=chips(lang, options.stake))]
    parts.append(tr(lang, "upcard") if options.upcard else tr(lang, "no upcard"))
    if options.must_spread:
        parts.append(tr(lang, "must spread"))
    if options.double_needs_spread:
        parts.append(tr(lang, "double only for a new spread"))
    if options.hit_lock:
        parts.append(tr(lang, "hit lock"))
    return ", ".join(parts)


def latest(recent: Sequence[str]) -> str:
    """The newest lines that fit one embed field, whatever the names: a long line is cut, and
    the oldest lines go first."""
    kept: list[str] = []
    size = 0
    for line in reversed(recent):
        line = cut(line, LINE_LIMIT)
        if size + len(line) + 1 > FIELD_LIMIT:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))


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
    "tonk_on_deal": N_("tonk on the deal"),
    "tonk_out": N_("tonk out"),
    "out_by_discard": N_("out by discard"),
    "drop_won": N_("won drop"),
    "caught": N_("caught dropping"),
    "lowest_after_drop": N_("lowest after the drop"),
    "stock_out": N_("lowest at stock out"),
    "forfeit": N_("forfeit"),
}
"""Why a payment was made, as the table and the ledger say it."""


def reason_text(reason: str, lang: str) -> str:
    known = HOW_PAID.get(reason)
    return tr(lang, known) if known is not None else reason


def _public(event: Mapping[str, Any]) -> dict[str, Any]:
    # stored move-log events keep the private cards beside the public part; never read them
    return {k: v for k, v in event.items() if k != "private"}


def describe(events: Iterable[Mapping[str, Any]], names: Mapping[int, str],
             lang: str) -> list[str]:
    """One line per thing that happened, from events in their public form."""
    lines: list[str] = []
    for event in events:
        line = _describe(_public(event), names, lang)
        if line is not None:
            lines.append(line)
    return lines


def _describe(e: dict[str, Any], names: Mapping[int, str], lang: str) -> str | None:
    who = name_of(names, e.get("player"), lang)
    match e["type"]:
        case "cut_for_deal":
            return cut_text(e, names, lang)
        case "dealt":
            dealer = name_of(names, e["dealer"], lang)
            if e["upcard"] is None:
                return tr(lang, "Hand {hand}: {dealer} dealt 5 cards each, no upcard",
                          hand=e["hand_number"], dealer=dealer)
            return tr(lang, "Hand {hand}: {dealer} dealt 5 cards each and turned up {card}",
                      hand=e["hand_number"], dealer=dealer, card=card_text(e["upcard"]))
        case "drew_from_stock":
            return tr(lang, "{name} drew from the stock", name=who)
        case "drew_from_discard":
            return tr(lang, "{name} took {card} from the discard pile", name=who,
                      card=card_text(e["card"]))
        case "spread_laid":
            return tr(lang, "{name} laid S{spread} {cards}", name=who, spread=e["spread_id"],
                      cards=spread_text(e["cards"]))
        case "hit":
            return tr(lang, "{name} hit S{spread} with {cards}", name=who,
                      spread=e["spread_id"], cards=cards_text(e["cards"]))
        case "discarded":
            return tr(lang, "{name} discarded {card}", name=who, card=card_text(e["card"]))
        case "ended_hand":
            return tr(lang, "{name} ended the hand, as the stock is empty", name=who)
        case "hand_drawn":
            return tr(lang, "{names} were dealt 49 or 50, so the hand is a draw",
                      names=join(lang, (name_of(names, p, lang) for p in e["players"])))
        case "hand_ended":
            # the result itself is said once, on the table between hands
            return tr(lang, "Hand {hand} is over", hand=e["hand_number"])
        case "joined":
            return tr(lang, "{name} joined the table and deals last in the round",
                      name=label(e["player"], e["name"]))
        case "left":
            if e["forfeit"]:
                return tr(lang, "{name} left during the hand", name=who)
            return tr(lang, "{name} left the table", name=who)
        case "timed_out":
            return tr(lang, "⏱ {name} ran out of time ({count} of 3 in a row), so a move was "
                            "made for them", name=who, count=e["in_a_row"])
        case "table_dealt":
            # an event's table deals each next hand itself (tables before issue 36 dealt
            # when nobody did in time, and replay with the same words)
            return tr(lang, "The table deals hand {hand}", hand=e["hand_number"])
        case "table_closed":
            if e["players_left"] >= MIN_PLAYERS:
                return tr(lang, "⏱ Nobody dealt the next hand in time, so the table closed")
            return tr(lang, "The table closed: fewer than two players are left")
    return None


def cut_text(e: Mapping[str, Any], names: Mapping[int, str], lang: str) -> str:
    """Only ranks decide the cut (K high, ace low), so only ranks are shown."""
    rounds = [" · ".join(f"{name_of(names, p, lang)} {_cut_rank(c)}" for p, c in cut_round)
              for cut_round in e["rounds"]]
    dealer = name_of(names, e["dealer"], lang)
    if len(rounds) == 1:
        return tr(lang, "Cut for deal: {cuts} → **{dealer}** deals", cuts=rounds[0],
                  dealer=dealer)
    return tr(lang, "Cut for deal: {cuts} (a tie is cut again) → **{dealer}** deals",
              cuts=" | ".join(rounds), dealer=dealer)


def _cut_rank(card: int) -> str:
    return cards.RANK_NAMES[cards.rank(card)]


def _totals(result: Mapping[str, Any]) -> dict[int, int]:
    return {row["player"]: row["total"] for row in result["players"]}


def how_text(result: Mapping[str, Any], names: Mapping[int, str], lang: str) -> str:
    """How a hand ended, as one sentence."""
    how = result["how"]
    totals = _totals(result)

    def who(key: str) -> str:
        return name_of(names, result[key], lang)

    if how == "tonk_on_deal":
        return tr(lang, "{name} was dealt {total}: a tonk on the deal.", name=who("winner"),
                  total=totals[result["winner"]])
    if how == "draw_on_deal":
        return tr(lang, "Several players were dealt 49 or 50: the hand is a draw and nobody "
                        "pays.")
    if how == "tonk_out":
        return tr(lang, "{name} tonked out.", name=who("winner"))
    if how == "out_by_discard":
        return tr(lang, "{name} went out by discarding.", name=who("winner"))
    if how == "drop_won":
        return tr(lang, "{name} dropped with {total} and won.", name=who("dropper"),
                  total=totals[result["dropper"]])
    if how == "drop_caught":
        d = result["dropper"]
        catchers = [p for p in totals if p != d and totals[p] <= totals[d]]
        return tr(lang, "{name} dropped with {total} and was caught by {catchers}.",
                  name=who("dropper"), total=totals[d],
                  catchers=join(lang, (f"{name_of(names, p, lang)} ({totals[p]})"
                                       for p in catchers)))
    if how == "stock_out":
        low = min(totals.values())
        lowest = join(lang, (name_of(names, p, lang) for p, t in totals.items() if t == low))
        if result.get("capped"):
            return tr(lang, "The hand reached its turn limit; the lowest total was {total} "
                            "({names}).", total=low, names=lowest)
        return tr(lang, "The stock ran out; the lowest total was {total} ({names}).",
                  total=low, names=lowest)
    return tr(lang, "{name} left during the hand and forfeited it.", name=who("leaver"))


def nets(result: Mapping[str, Any]) -> dict[int, int]:
    out = {row["player"]: 0 for row in result["players"]}
    for p in result["payments"]:
        out[p["payer"]] -= p["amount"]
        out[p["payee"]] += p["amount"]
    return out


def payment_lines(result: Mapping[str, Any], names: Mapping[int, str], lang: str) -> list[str]:
    """One line per payer and payee, with the reasons when a payment has several:
    "Anna pays Bo 3 (2 caught dropping + 1 lowest after the drop)"."""
    pairs: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for p in result["payments"]:
        pairs.setdefault((p["payer"], p["payee"]), []).append((p["amount"], p["reason"]))
    lines = []
    for (payer, payee), parts in pairs.items():
        if len(parts) == 1:
            why = reason_text(parts[0][1], lang)
        else:
            why = " + ".join(tr(lang, "{amount} {reason}", amount=number(lang, amount),
                                reason=reason_text(reason, lang)) for amount, reason in parts)
        lines.append(tr(lang, "{payer} pays {payee} {amount} ({why})",
                        payer=name_of(names, payer, lang), payee=name_of(names, payee, lang),
                        amount=number(lang, sum(amount for amount, _ in parts)), why=why))
    return lines


# -- the public table ---------------------------------------------------------------------------


def table_render(
    view: TonkPublicView, recent: Sequence[str], *, table_id: int, counter: int,
    names: Mapping[int, str], lang: str, deadline: float | None = None,
) -> TableRender:
    """``deadline``: when the turn timer of the player to move runs out."""
    if view.in_hand:
        return _in_play(view, recent, table_id, counter, names, lang, deadline)
    return _between_hands(view, recent, table_id, counter, names, lang, deadline,
                          closed=view.phase is Phase.TABLE_CLOSED)


def _title(lang: str, hand: int) -> str:
    return tr(lang, "{game} — hand {hand}", game=TITLE, hand=hand)


def _in_play(view: TonkPublicView, recent: Sequence[str], table_id: int, counter: int,
             names: Mapping[int, str], lang: str, deadline: float | None) -> TableRender:
    to_move = view.to_move
    mover = name_of(names, to_move, lang)
    human = to_move is not None and to_move > 0
    embed = discord.Embed(title=_title(lang, view.hand_number), colour=PLAYING_COLOUR)
    lines = [tr(lang, "Stake: **{stake}** · Dealer: **{dealer}**", stake=chips(lang, view.stake),
                dealer=name_of(names, view.dealer, lang))]
    if view.phase is Phase.START:
        lines.append(tr(lang, "▶ **{name}** is to play: they drop, or draw a card.", name=mover))
    else:
        lines.append(tr(lang, "▶ **{name}** has drawn: they may lay spreads and hit, then "
                              "discard.", name=mover))
    timer = countdown(deadline) if human else None
    if timer is not None:
        lines.append(tr(lang, "⏱ Their time runs out {when}.", when=timer))
    embed.description = "\n".join(lines)
    embed.add_field(name=tr(lang, "Discard pile"), value=_discard_text(view, lang), inline=True)
    embed.add_field(name=tr(lang, "Stock"), value=_stock_text(view, lang), inline=True)
    embed.add_field(name=tr(lang, "Spreads"), value=_spreads_text(view, names, lang),
                    inline=False)
    players = tr(lang, "Players (in turn order)")
    lines = _player_lines(view, lang)
    embed.add_field(name=players, value="\n".join(line for _, line in lines), inline=False)
    if recent:
        embed.add_field(name=tr(lang, "Latest"), value=latest(recent), inline=False)
    embed.set_footer(text=tr(lang, "Options: {options}", options=options_line(view.options,
                                                                                lang)))
    table_view = Rows()
    # the counter on "Your hand" changes nothing when clicked; it dates the table message
    table_view.add_item(button(GAME, table_id, "hand", tr(lang, "Your hand"),
                               discord.ButtonStyle.primary, counter=counter))
    if view.phase is Phase.START:
        if view.stock_size:
            table_view.add_item(button(GAME, table_id, "draw_stock", tr(lang, "Draw from stock"),
                                       counter=counter))
        if view.discard_top is not None:
            table_view.add_item(button(GAME, table_id, "draw_discard",
                                       tr(lang, "Take {card}",
                                          card=cards.letters(view.discard_top)),
                                       counter=counter, emoji=card_emoji(view.discard_top)))
    table_view.add_item(button(GAME, table_id, "rules", tr(lang, "Rules")))
    return TableRender(
        embed=embed,
        view=table_view,
        content=tr(lang, "{name} to move.", name=f"<@{to_move}>" if human else mover),
        seats=seat_blocks(GAME, table_id, players, lines, lang),
    )


def _discard_text(view: TonkPublicView, lang: str) -> str:
    top = view.discard_top
    if top is None:
        return tr(lang, "empty")
    return f"**{card_text(top)}** ({card_count(lang, view.discard_size)})"


def _stock_text(view: TonkPublicView, lang: str) -> str:
    if view.stock_size:
        return card_count(lang, view.stock_size)
    return tr(lang, "**empty**: take the discard, drop, or end the hand")


def _spreads_text(view: TonkPublicView, names: Mapping[int, str], lang: str) -> str:
    if not view.spreads:
        return tr(lang, "none yet")
    return "\n".join(spread_label(s.id, s.cards, s.owner, names, lang) for s in view.spreads)


def _player_lines(view: TonkPublicView, lang: str) -> list[tuple[int, str]]:
    """Each seat's player and line, in turn order."""
    lines = []
    for seat in view.seats:
        pid = seat.player_id
        tags = []
        if pid == view.to_move:
            tags.append(tr(lang, "to move"))
        if pid == view.dealer:
            tags.append(tr(lang, "dealer"))
        if seat.hit_locked:
            tags.append(tr(lang, "🔒 was hit: no drop this turn"))
        size = seat.hand_size
        count = (tr(lang, "waits for the next deal") if size is None
                 else card_count(lang, size))
        extra = "".join(f" · {t}" for t in tags)
        name = label(pid, seat.name)
        if pid == view.to_move:
            lines.append((pid, f"▶ **{name}** — {count}{extra}"))
        else:
            lines.append((pid, f"• {name} — {count}{extra}"))
    return lines


def _between_hands(view: TonkPublicView, recent: Sequence[str], table_id: int, counter: int,
                   names: Mapping[int, str], lang: str, deadline: float | None, *,
                   closed: bool) -> TableRender:
    result = _result(view)
    if closed:
        embed = discord.Embed(title=tr(lang, "{game} — table closed", game=TITLE),
                              colour=FINISHED_COLOUR)
    else:
        embed = discord.Embed(title=tr(lang, "{game} — hand {hand} over", game=TITLE,
                                       hand=view.hand_number), colour=HAND_OVER_COLOUR)
    lines = []
    if result is not None:
        # the one place a hand's result is said
        lines.append(f"**{how_text(result, names, lang)}**")
    if closed:
        lines.append(_closed_text(view, lang))
    else:
        lines.append(tr(lang, "Next: **{dealer}** deals hand {hand}. Anyone at the table can "
                              "press **Deal next hand**; others may **Join** now, and players "
                              "may **Leave** without paying anything.",
                        dealer=name_of(names, view.next_dealer, lang),
                        hand=view.hand_number + 1))
        timer = countdown(deadline)
        if timer is not None:
            lines.append(tr(lang, "⏱ If nobody deals, the table closes {when}, and nobody "
                                  "pays.", when=timer))
        lines.append(tr(lang, "At the table: {names}.",
                        names=join(lang, (label(s.player_id, s.name) for s in view.seats))))
    embed.description = "\n".join(lines)
    if result is not None:
        embed.add_field(name=tr(lang, "Hands revealed"), value=_revealed(result, names, lang),
                        inline=False)
        paid = payment_lines(result, names, lang)
        embed.add_field(name=tr(lang, "Payments"), value="\n".join(paid) or tr(lang, "none"),
                        inline=False)
    if recent:
        embed.add_field(name=tr(lang, "Latest"), value=latest(recent), inline=False)
    embed.set_footer(text=tr(lang, "Options: {options}", options=options_line(view.options,
                                                                                lang)))
    if closed:
        return TableRender(embed=embed, view=None)
    table_view = Rows()
    table_view.add_item(button(GAME, table_id, "deal", tr(lang, "Deal next hand"),
                               discord.ButtonStyle.success, counter=counter))
    table_view.add_item(button(GAME, table_id, "join", tr(lang, "Join"),
                               discord.ButtonStyle.primary))
    table_view.add_item(button(GAME, table_id, "leave", tr(lang, "Leave")))
    table_view.add_item(button(GAME, table_id, "rules", tr(lang, "Rules")))
    return TableRender(embed=embed, view=table_view,
                       content=tr(lang, "Hand {hand} is over.", hand=view.hand_number))


def _closed_text(view: TonkPublicView, lang: str) -> str:
    """Why a table closed: everyone still seated means nobody dealt the next hand in time
    (``TableCloses``); else too many left."""
    if len(view.seats) >= MIN_PLAYERS:
        return tr(lang, "The table closed: nobody dealt the next hand in time. Nobody paid "
                        "for it, and nobody was dealt in.")
    return tr(lang, "The table closed: fewer than two players are left.")


def _result(view: TonkPublicView) -> dict[str, Any] | None:
    """The last hand's result in its event form (what the describing functions read)."""
    result = view.last_hand_result
    return None if result is None else result.to_dict()


def _revealed(result: Mapping[str, Any], names: Mapping[int, str], lang: str) -> str:
    """Each player's hand, total and result of the hand: "#2 🏆 Bo — **3**: A♠ 2♠ · +4"; the
    number is the one over that hand in the table's picture (``hand_label``)."""
    net = nets(result)
    lines = []
    for i, row in enumerate(result["players"]):
        player = row["player"]
        mark = "🏆 " if net.get(player, 0) > 0 else ""
        held = cards_text(row["hand"]) if row["hand"] else tr(lang, "no cards")
        lines.append(f"{hand_label(i)} {mark}{name_of(names, player, lang)} — "
                     f"**{row['total']}**: {held} · {signed(lang, net.get(player, 0))}")
    return "\n".join(lines)


# -- the private hand panel ---------------------------------------------------------------------


def hand_panel(
    view: TonkPublicView,
    private: TonkPrivateView,
    *,
    table_id: int,
    counter: int,
    names: Mapping[int, str],
    lang: str,
    notice: str | None = None,
    deadline: float | None = None,
) -> Panel:
    """The ephemeral panel: the player's cards and total, and exactly their legal moves."""
    player = private.player_id
    hand = private.hand
    legal: list[Move] = list(private.legal_moves)
    lines = []
    if notice:
        lines.append(notice)
    top = view.discard_top
    if view.in_hand:
        lines.append(tr(lang, "**{game} — hand {hand}** · stake {stake} · stock {stock} · "
                              "discard {card}", game=TITLE, hand=view.hand_number,
                        stake=chips(lang, view.stake), stock=view.stock_size,
                        card=card_text(top) if top is not None else "—"))
    else:
        lines.append(tr(lang, "**{game} — hand {hand}** · stake {stake}", game=TITLE,
                        hand=view.hand_number, stake=chips(lang, view.stake)))
    if view.in_hand and player in _hand_players(view):
        lines.append(tr(lang, "**Your hand ({count}):** {cards} · total **{total}**",
                        count=len(hand), cards=cards_text(hand) or tr(lang, "no cards"),
                        total=private.total))
        if view.spreads:
            lines.append(tr(lang, "**Spreads:** {spreads}", spreads=" · ".join(
                spread_label(s.id, s.cards, s.owner, names, lang) for s in view.spreads)))
    lines.append(_panel_status(view, private, legal, names, lang))
    timer = countdown(deadline)
    if timer is not None and view.to_move == player:
        lines.append(tr(lang, "⏱ Your time runs out {when}. Then a move is made for you; after "
                              "three in a row you leave the table.", when=timer))
    panel = Rows()
    if view.phase is Phase.AFTER_DRAW and view.to_move == player:
        _add_selects(panel, view, legal, table_id, counter, names, lang, lines)
    row = 4
    for move in legal:
        item = _move_button(move, view, private, table_id, counter, row, lang)
        if item is not None:
            panel.add_item(item)
    panel.add_item(button(GAME, table_id, "hand", tr(lang, "Refresh"), row=row))
    return Panel("\n".join(lines), panel)


def _hand_players(view: TonkPublicView) -> set[int]:
    return {s.player_id for s in view.seats if s.hand_size is not None}


def _panel_status(view: TonkPublicView, private: TonkPrivateView, legal: list[Move],
                  names: Mapping[int, str], lang: str) -> str:
    phase = view.phase
    player = private.player_id
    if phase is Phase.TABLE_CLOSED:
        return tr(lang, "The table has closed.")
    if all(s.player_id != player for s in view.seats):
        return tr(lang, "You are no longer at this table.")
    if phase is Phase.HAND_OVER:
        parts = [tr(lang, "Hand {hand} is over.", hand=view.hand_number)]
        result = _result(view)
        if result is not None:
            parts.append(how_text(result, names, lang))
            mine = nets(result).get(player)
            if mine is not None:
                parts.append(tr(lang, "Your result: **{result}**.", result=signed(lang, mine)))
        if any(s.player_id < 0 for s in view.seats):
            parts.append(tr(lang, "Press **Deal next hand** when everyone is ready (computer "
                                  "players never deal)."))
        else:
            parts.append(tr(lang, "Press **Deal next hand** when everyone is ready."))
        return " ".join(parts)
    if player not in _hand_players(view):
        return tr(lang, "You'll be dealt in at the next hand.")
    to_move = view.to_move
    if to_move != player:
        return tr(lang, "Waiting for **{name}**.", name=name_of(names, to_move, lang))
    if phase is Phase.START:
        parts = [tr(lang, "**Your turn.**")]
        if Drop() not in legal:
            parts.append(tr(lang, "A spread of yours was hit, so you may not drop this turn."))
        if view.stock_size:
            parts.append(tr(lang, "Drop, draw from the stock, or take the discard."))
        else:
            parts.append(tr(lang, "The stock is empty: take the discard, drop, or end the "
                                  "hand."))
        return " ".join(parts)
    parts = [tr(lang, "**Your turn:** lay spreads and hit in any order, then discard.")]
    taken = private.taken_discard
    if taken is not None and len(private.hand) > 1:
        parts.append(tr(lang, "You took {card} from the discard pile, so you may not discard "
                              "it this turn.", card=card_text(taken)))
    if not any(isinstance(m, Discard) for m in legal):
        parts.append(tr(lang, "This table plays must spread: lay your complete spreads before "
                              "you discard."))
    return " ".join(parts)


def _move_button(move: Move, view: TonkPublicView, private: TonkPrivateView,
                 table_id: int, counter: int, row: int, lang: str) -> discord.ui.Item[Any] | None:
    if isinstance(move, Drop):
        return button(GAME, table_id, "drop", tr(lang, "Drop ({total})", total=private.total),
                      discord.ButtonStyle.danger, counter=counter, row=row)
    if isinstance(move, DrawStock):
        return button(GAME, table_id, "draw_stock", tr(lang, "Draw from stock"),
                      discord.ButtonStyle.primary, counter=counter, row=row)
    if isinstance(move, DrawDiscard) and view.discard_top is not None:
        return button(GAME, table_id, "draw_discard",
                      tr(lang, "Take {card}", card=cards.letters(view.discard_top)),
                      discord.ButtonStyle.primary, counter=counter, row=row,
                      emoji=card_emoji(view.discard_top))
    if isinstance(move, EndHand):
        return button(GAME, table_id, "end_hand", tr(lang, "End the hand"),
                      discord.ButtonStyle.danger, counter=counter, row=row)
    if isinstance(move, DealNextHand):
        return button(GAME, table_id, "deal", tr(lang, "Deal next hand"),
                      discord.ButtonStyle.success, counter=counter, row=row)
    return None


def _add_selects(panel: Rows, view: TonkPublicView, legal: list[Move],
                 table_id: int, counter: int, names: Mapping[int, str], lang: str,
                 lines: list[str]) -> None:
    spreads = [m for m in legal if isinstance(m, Spread)]
    hits = [m for m in legal if isinstance(m, Hit)]
    discards = [m for m in legal if isinstance(m, Discard)]
    row = 0
    if spreads:
        options = [discord.SelectOption(
            label=tr(lang, "Lay {spread}", spread=spread_text(m.cards, cards.letters)),
            description=trn(lang, "{n} point off your hand", "{n} points off your hand",
                            hand_total(m.cards)),
            value=cards_value(m.cards), emoji=card_emoji(sort_cards(m.cards)[0]))
            for m in spreads[:SELECT_LIMIT]]
        panel.add_item(RoutedSelect(Route(GAME, table_id, "spread", counter), options,
                                    tr(lang, "Lay a spread…"), row=row))
        row += 1
    hit_rows = SELECT_ROWS - row - (1 if discards else 0)
    # a menu shows text as it is: the owners' names as typed
    typed = {player_id: as_typed(name) for player_id, name in names.items()}
    labels = {s.id: spread_label(s.id, s.cards, s.owner, typed, lang, cards.letters)
              for s in view.spreads}
    shown = hits[: hit_rows * SELECT_LIMIT]
    chunks = [shown[i:i + SELECT_LIMIT] for i in range(0, len(shown), SELECT_LIMIT)]
    for n, chunk in enumerate(chunks):
        options = [discord.SelectOption(
            label=cut(tr(lang, "Hit {spread} with {cards}", spread=labels[m.spread_id],
                         cards=cards_text(m.cards, cards.letters)), 100),
            value=hit_value(m.spread_id, m.cards), emoji=card_emoji(sort_cards(m.cards)[0]))
            for m in chunk]
        placeholder = (tr(lang, "Hit a spread…") if len(chunks) == 1
                       else tr(lang, "Hit a spread… ({n})", n=n + 1))
        panel.add_item(RoutedSelect(Route(GAME, table_id, "hit", counter, str(n)), options,
                                    placeholder, row=row))
        row += 1
    if len(hits) > len(shown):
        lines.append(tr(lang, "More hits than fit here: use `{command}` for the rest.",
                        command=slash(lang, "tonk", "hit")))
    if discards:
        options = [discord.SelectOption(label=tr(lang, "Discard {card}",
                                                 card=cards.letters(m.card)),
                                        value=str(m.card), emoji=card_emoji(m.card))
                   for m in discards]
        panel.add_item(RoutedSelect(Route(GAME, table_id, "discard", counter), options,
                                    tr(lang, "Discard a card (ends your turn)…"), row=row))


# -- what only the mover learns -----------------------------------------------------------------


def move_notice(events: Sequence[Any], player_id: int, lang: str) -> str | None:
    notes: list[str] = []
    for e in events:
        mine = getattr(e, "player", None) == player_id
        if isinstance(e, DrewFromStock) and mine:
            notes.append(tr(lang, "You drew **{card}** from the stock.",
                            card=card_text(e.private_card)))
        elif isinstance(e, DrewFromDiscard) and mine:
            notes.append(tr(lang, "You took {card} from the discard pile.",
                            card=card_text(e.card)))
        elif isinstance(e, SpreadLaid) and mine:
            notes.append(tr(lang, "You laid S{spread} {cards}.", spread=e.spread_id,
                            cards=spread_text(e.cards)))
        elif isinstance(e, SpreadHit) and mine:
            notes.append(tr(lang, "You hit S{spread} with {cards}.", spread=e.spread_id,
                            cards=cards_text(e.cards)))
        elif isinstance(e, Discarded) and mine:
            notes.append(tr(lang, "You discarded {card}.", card=card_text(e.card)))
        elif isinstance(e, Dropped) and mine:
            notes.append(tr(lang, "You dropped."))
        elif isinstance(e, EndedHand) and mine:
            notes.append(tr(lang, "You ended the hand."))
        elif isinstance(e, Dealt):
            notes.append(tr(lang, "Hand {hand} is dealt.", hand=e.hand_number))
        elif isinstance(e, Joined) and mine:
            notes.append(tr(lang, "You joined the table."))
        elif isinstance(e, Left) and mine:
            notes.append(tr(lang, "You left the table."))
        elif isinstance(e, HandEnded):
            result = nets(e.result.to_dict()).get(player_id)
            if result is not None:
                notes.append(tr(lang, "The hand is over. Your result: **{result}**.",
                                result=signed(lang, result)))
    return " ".join(notes) or None


# -- how a table went, and the rules ------------------------------------------------------------


def summary(view: TonkPublicView, names: Mapping[int, str], money: Mapping[int, int] | None,
            lang: str) -> str:
    """Hands played and each player's net at this table, best first."""
    played = view.hand_number - (1 if view.in_hand else 0)
    hands = trn(lang, "{n} hand played.", "{n} hands played.", played)
    if money is None:
        return hands
    ranked = sorted(names, key=lambda p: (-money.get(p, 0), names[p]))
    return tr(lang, "{hands} Net at this table: {nets}.", hands=hands, nets=join(
        lang, (f"{names[p]} {signed(lang, money.get(p, 0))}" for p in ranked)))


def rules_text(options: TonkOptions | None, lang: str) -> str:
    """The rules in a nutshell, and where the full rules are."""
    commands = [slash(lang, "tonk", word) for word in (
        "hand", "draw", "drop", "spread", "hit", "discard", "end", "deal", "ledger",
        "history")]
    lines = [
        tr(lang, "**Tonk in a nutshell**: get rid of your cards, or hold the lowest total when "
                 "the hand ends. An ace counts 1, J Q K count 10, the other cards their face "
                 "value."),
        tr(lang, "• Everyone gets five cards. Dealt 49 or 50? That is a tonk: you win twice "
                 "the stake from every player at once."),
        tr(lang, "• Your turn begins with **dropping** (also called knocking: you show your "
                 "hand and claim the lowest total), or with a draw from the stock or the top "
                 "card of the discard pile. After a draw, lay **spreads** (three or four of a "
                 "rank, or three or more in a row of one suit, ace low), **hit** any spread on "
                 "the table, then **discard** one card. You may not throw back the card you "
                 "just took from the discard pile."),
        tr(lang, "• **Tonk out** by laying your last cards without discarding: twice the stake "
                 "from each player. Going out by discarding your last card pays the stake "
                 "once."),
        tr(lang, "• Drop with the lowest total and you collect the stake from each player. If "
                 "someone has the same total or lower, you are **caught**: you pay each of them "
                 "twice the stake, and the lowest of the others collect the stake from everyone "
                 "else."),
        tr(lang, "• When the stock is empty, take the discard, drop, or **end the hand**: the "
                 "lowest total collects the stake from each player."),
        tr(lang, "• Leaving during a hand forfeits it: you pay the stake to each other player. "
                 "Between hands anyone may join or leave freely."),
    ]
    if options is not None:
        if options.must_spread:
            lines.append(tr(lang, "• Must spread: you may not discard while you hold a "
                                  "complete spread (three aces excepted)."))
        if options.double_needs_spread:
            lines.append(tr(lang, "• Double only for a new spread: going out by hits alone "
                                  "pays the stake once."))
        if options.hit_lock:
            lines.append(tr(lang, "• Hit lock: when someone hits your spread, you may not "
                                  "drop on your next turn."))
        lines.append(tr(lang, "This table: {options}.", options=options_line(options, lang)))
    lines.append(tr(lang, "Commands: {commands}.", commands=", ".join(
        f"`{c}`" for c in commands)))
    lines.append(tr(lang, "The full rules: {path}", path=RULES_FILES.get(lang, RULES_FILE)))
    return "\n".join(lines)
