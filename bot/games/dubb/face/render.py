"""Dubb on Discord: the public table, the private hand panel, and events in plain words, in a
given language.

The public table reads only ``DubbPublicView`` (D14) and events in their public form
(``public_form``), so no hand card can reach it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any

import discord

from bot import cards
from bot.discord.common import FINISHED_COLOUR, PLAYING_COLOUR, button, countdown, label, name_of
from bot.discord.emojis import card_emoji
from bot.discord.layout import seat_blocks
from bot.discord.routing import Route, RoutedSelect
from bot.discord.rows import Rows
from bot.discord.showing import TableRender
from bot.games.dubb import (
    DrawPlay,
    DrawPlayed,
    Drew,
    DubbOptions,
    DubbPrivateView,
    DubbPublicView,
    Pass,
    Passed,
    PileTurned,
    Play,
    Played,
    PlayerLeft,
    PlayerOut,
    PlayView,
)
from bot.games.dubb.moves import Draw
from bot.i18n import join, ordinal, tr, trn
from bot.i18n.cards import card_count, rank_plural

GAME = "dubb"
TITLE = "Dubb"
SELECT_LIMIT = 25
MAX_PLAY_SELECTS = 3  # rows left for plays beside the buttons row and the rank filter
CAP_WARNING = 200
"""The move counter shows once a game is this close to the D13 cap: before that it is noise."""


def options_line(options: DubbOptions, lang: str, players: int | None = None) -> str:
    """The table's options in a few words: "1 pack, no jokers, 7 cards each"."""
    parts = [trn(lang, "{n} pack", "{n} packs", options.decks),
             tr(lang, "jokers") if options.jokers else tr(lang, "no jokers")]
    if options.hand_limit:
        parts.append(tr(lang, "hand limit {limit}", limit=7))
    if options.last_player_draw_play:
        parts.append(tr(lang, "last player may draw and play"))
    each = options.cards_each
    if each is None and players is not None:
        # with too few players seated yet there is no deal size to show (D2)
        with contextlib.suppress(ValueError):
            each = options.effective_cards_each(players)
    if each is not None:
        parts.append(trn(lang, "{n} card each", "{n} cards each", each))
    return ", ".join(parts)


def _play_text(play: PlayView, names: Mapping[int, str], lang: str) -> str:
    return tr(lang, "{cards} ({name})", cards=cards.display_many(play.cards),
              name=name_of(names, play.player, lang))


def pile_text(view: DubbPublicView, names: Mapping[int, str], lang: str) -> str:
    if view.top is None:
        if view.result is not None:
            return tr(lang, "empty")
        return tr(lang, "Empty: any rank may be played, but no jokers.")
    streak = " ← ".join(_play_text(p, names, lang) for p in reversed(view.streak))
    below = view.pile_size - sum(len(p.cards) for p in view.streak)
    lines = [f"**{streak}**"]
    if below > 0:
        lines.append(trn(lang, "…on {n} more card", "…on {n} more cards", below))
    if view.result is None:
        rank = cards.rank_name(view.top_rank)
        lines.append(tr(lang, "Next play: **{rank}** or higher. Another {rank} dubs the streak.",
                        rank=rank))
    return "\n".join(lines)


def _player_line(view: DubbPublicView, index: int, deadline: float | None, lang: str) -> str:
    p = view.players[index]
    name = label(p.player_id, p.name)
    count = card_count(lang, p.hand_size)
    result = view.result
    if result is not None and p.player_id == result.loser:
        if p.status == "left":
            return tr(lang, "💀 **{name}** loses: left the game", name=name)
        return tr(lang, "💀 **{name}** loses, with {cards}", name=name, cards=count)
    if p.status == "to_move":
        timer = countdown(deadline) if p.player_id > 0 else None
        if timer:
            return tr(lang, "▶ **{name}**: {cards}, to move; time runs out {when}", name=name,
                      cards=count, when=timer)
        return tr(lang, "▶ **{name}**: {cards}, to move", name=name, cards=count)
    if p.status == "pending":
        return tr(lang, "⏳ {name}: no cards, pending (can still be dubbed)", name=name)
    if p.status == "out":
        return tr(lang, "✅ {name}: out, {place} place", name=name,
                  place=ordinal(lang, p.place or 0))
    if p.status == "left":
        return tr(lang, "🚪 {name}: left the game", name=name)
    return tr(lang, "• {name}: {cards}", name=name, cards=count)


def table_render(
    view: DubbPublicView, recent: Sequence[str], names: Mapping[int, str], lang: str, *,
    table_id: int, counter: int, deadline: float | None = None,
) -> TableRender:
    """``names``: everyone as the table names them; ``deadline``: when the turn timer of the
    player to move runs out (issue 8)."""
    over = view.result is not None
    embed = discord.Embed(
        title=(tr(lang, "{game} — game over", game=TITLE) if over
               else tr(lang, "{game} — in play", game=TITLE)),
        colour=FINISHED_COLOUR if over else PLAYING_COLOUR,
    )
    if view.result is not None:
        embed.description = _result_text(view, names, lang)
    embed.add_field(name=tr(lang, "Play pile"), value=pile_text(view, names, lang), inline=False)
    embed.add_field(name=tr(lang, "Draw pile"), value=card_count(lang, view.draw_pile_size),
                    inline=True)
    if view.move_count >= view.move_cap - CAP_WARNING:
        embed.add_field(name=tr(lang, "Moves"),
                        value=tr(lang, "{count} of at most {cap}: then the most cards loses",
                                 count=view.move_count, cap=view.move_cap), inline=True)
    players = tr(lang, "Players (in turn order)")
    lines = [(p.player_id, _player_line(view, i, deadline, lang))
             for i, p in enumerate(view.players)]
    embed.add_field(name=players, value="\n".join(line for _, line in lines), inline=False)
    seats = seat_blocks(GAME, table_id, players, lines, lang)
    if recent:
        embed.add_field(name=tr(lang, "Latest"), value="\n".join(recent), inline=False)
    embed.set_footer(text=tr(lang, "Options: {options}", options=options_line(view.options,
                                                                            lang)))
    if over:
        return TableRender(embed=embed, view=None, seats=seats)
    table_view = Rows()
    table_view.add_item(
        button(GAME, table_id, "hand", tr(lang, "Your hand"), discord.ButtonStyle.primary)
    )
    table_view.add_item(button(GAME, table_id, "draw", tr(lang, "Draw"), counter=counter))
    table_view.add_item(button(GAME, table_id, "pass", tr(lang, "Pass"), counter=counter))
    table_view.add_item(button(GAME, table_id, "rules", tr(lang, "Rules")))
    turn = None
    if view.to_move is not None:
        who = (f"<@{view.to_move}>" if view.to_move > 0
               else name_of(names, view.to_move, lang))
        turn = tr(lang, "{name} to move.", name=who)
    return TableRender(embed=embed, view=table_view, content=turn, seats=seats)


def _result_text(view: DubbPublicView, names: Mapping[int, str], lang: str) -> str:
    result = view.result
    assert result is not None
    lines = []
    for place, player in enumerate(result.ranking, start=1):
        if player == result.loser:
            lines.append(tr(lang, "💀 **{name} loses**", name=name_of(names, player, lang)))
        else:
            lines.append(tr(lang, "{place} {name}", place=ordinal(lang, place),
                            name=name_of(names, player, lang)))
    loser = next((p for p in view.players if p.player_id == result.loser), None)
    if result.reason == "cap":
        lines.append(tr(lang, "The game reached {cap} moves, so the player holding the most "
                              "cards loses.", cap=view.move_cap))
    elif result.reason == "left":
        lines.append(tr(lang, "Leaving counts as a loss: the first to leave loses."))
    elif loser is not None and loser.hand_size == 0:
        lines.append(tr(lang, "{name} has no cards but still loses: their last cards were on "
                              "top when everyone else was out.",
                        name=name_of(names, loser.player_id, lang)))
    return "\n".join(lines)


def summary(view: DubbPublicView, names: Mapping[int, str], lang: str) -> str:
    """How a game went, in one line: who lost, and who went out first."""
    result = view.result
    if result is None:
        return tr(lang, "Stopped before anyone lost.")
    loser = name_of(names, result.loser, lang)
    if len(result.ranking) > 1 and result.ranking[0] != result.loser:
        return tr(lang, "💀 {loser} lost; {winner} went out first.", loser=loser,
                  winner=name_of(names, result.ranking[0], lang))
    return tr(lang, "💀 {loser} lost.", loser=loser)


# -- the private hand panel ---------------------------------------------------------------------


def play_label(play: Play, lang: str) -> str:
    """A play as a menu shows it: "2× K", "1× 7 + 1 joker", "2 jokers (as K)"."""
    rank = cards.rank_name(play.rank)
    if not play.naturals:
        return tr(lang, "{jokers} (as {rank})",
                  jokers=trn(lang, "{n} joker", "{n} jokers", play.jokers), rank=rank)
    if play.jokers:
        return tr(lang, "{count}× {rank} + {jokers}", count=play.naturals, rank=rank,
                  jokers=trn(lang, "{n} joker", "{n} jokers", play.jokers))
    return f"{play.naturals}× {rank}"


def move_text(move: Draw | Pass | Play | DrawPlay, lang: str) -> str:
    """A move in a few words, as the hand panel's buttons name it (issue 34: hints)."""
    if isinstance(move, Play):
        return tr(lang, "Play {play}", play=play_label(move, lang))
    if isinstance(move, DrawPlay):
        return tr(lang, "Draw and play")
    if isinstance(move, Pass):
        return tr(lang, "Pass")
    return tr(lang, "Draw")


def play_value(play: Play) -> str:
    return f"{play.rank}.{play.naturals}.{play.jokers}"


def parse_play_value(value: str) -> tuple[int, int, int]:
    rank, naturals, jokers = (int(x) for x in value.split("."))
    return rank, naturals, jokers


def play_text(play: Play, hand: Sequence[int]) -> str:
    """What a user could type for ``play`` (autocomplete values): ``7h 7s joker``."""
    naturals = [c for c in cards.sorted_hand(hand) if cards.rank(c) == play.rank]
    chosen = [cards.text(c) for c in naturals[: play.naturals]]
    chosen += ["joker"] * play.jokers
    return " ".join(chosen)


def _first_card(play: Play, ordered: Sequence[int]) -> int:
    """The card a play's menu option shows: its lowest natural card, else a joker
    (``ordered``: the hand as ``cards.sorted_hand`` orders it)."""
    return next((c for c in ordered
                 if cards.rank(c) == (play.rank if play.naturals else cards.JOKER_RANK)),
                cards.make_joker(0))


def hand_text(hand: Sequence[int], lang: str) -> str:
    if not hand:
        return tr(lang, "no cards")
    groups = [
        " ".join(cards.display(c) for c in group)
        for _, group in groupby(cards.sorted_hand(hand), key=cards.rank)
    ]
    return " · ".join(groups)


def hand_panel(
    public: DubbPublicView,
    private: DubbPrivateView,
    names: Mapping[int, str],
    lang: str,
    *,
    table_id: int,
    counter: int,
    rank_filter: int | None = None,
    notice: str | None = None,
    deadline: float | None = None,
) -> tuple[str, Rows]:
    """The private panel: the hand, the pile, and exactly the legal moves as components."""
    lines = []
    if notice:
        lines.append(notice)
    lines.append(tr(lang, "**Your hand ({count}):** {cards}", count=len(private.hand),
                    cards=hand_text(private.hand, lang)))
    lines.append(tr(lang, "**Play pile:** {pile}", pile=_pile_line(public, names, lang)))
    if public.result is not None:
        lines.append(tr(lang, "The game is over."))
    elif public.to_move == private.player_id:
        if public.first_move:
            lines.append(tr(lang, "You start: play all you like of your lowest rank."))
        else:
            lines.append(tr(lang, "**Your turn.** Choose a play, or draw or pass."))
        timer = countdown(deadline)
        if timer is not None:
            lines.append(tr(lang, "⏱ Your time runs out {when}: then a safe move is made for "
                                  "you, and after three in a row you are out of the game.",
                            when=timer))
    elif public.to_move is not None:
        lines.append(tr(lang, "Waiting for {name}.", name=name_of(names, public.to_move, lang)))
    view = Rows()
    plays = [m for m in private.legal_moves if isinstance(m, Play)]
    _add_play_selects(view, plays, private.hand, table_id, counter, rank_filter, lang)
    row = 4
    if any(isinstance(m, Draw) for m in private.legal_moves):
        view.add_item(button(GAME, table_id, "draw", tr(lang, "Draw"), counter=counter,
                             row=row))
    if any(isinstance(m, DrawPlay) for m in private.legal_moves):
        view.add_item(button(GAME, table_id, "draw_play", tr(lang, "Draw and play"),
                             counter=counter, row=row))
    if any(isinstance(m, Pass) for m in private.legal_moves):
        view.add_item(button(GAME, table_id, "pass", tr(lang, "Pass"), counter=counter, row=row))
    view.add_item(button(GAME, table_id, "hand", tr(lang, "Refresh"), row=row))
    return "\n".join(lines), view


def _pile_line(public: DubbPublicView, names: Mapping[int, str], lang: str) -> str:
    if public.top is None:
        return tr(lang, "empty")
    return tr(lang, "{play}: {rank} or higher", play=_play_text(public.top, names, lang),
              rank=cards.rank_name(public.top_rank))


def _add_play_selects(
    view: Rows,
    plays: list[Play],
    hand: Sequence[int],
    table_id: int,
    counter: int,
    rank_filter: int | None,
    lang: str,
) -> None:
    if not plays:
        return
    if len(plays) <= SELECT_LIMIT * MAX_PLAY_SELECTS and rank_filter is None:
        chunks = [plays[i : i + SELECT_LIMIT] for i in range(0, len(plays), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks):
            view.add_item(_play_select(chunk, hand, table_id, counter, n, len(chunks), lang))
        return
    # too many plays for the menus (two packs, a big hand): choose a rank first
    ranks = sorted({p.rank for p in plays})
    rank_options = [
        discord.SelectOption(label=tr(lang, "Play {ranks}", ranks=rank_plural(lang, r)),
                             value=str(r), default=r == rank_filter)
        for r in ranks[:SELECT_LIMIT]
    ]
    view.add_item(
        RoutedSelect(Route(GAME, table_id, "rank", counter), rank_options,
                     tr(lang, "Choose a rank to play"), row=0)
    )
    if rank_filter is not None:
        chosen = [p for p in plays if p.rank == rank_filter]
        chunks = [chosen[i : i + SELECT_LIMIT] for i in range(0, len(chosen), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks[: MAX_PLAY_SELECTS]):
            view.add_item(_play_select(chunk, hand, table_id, counter, n + 1, len(chunks),
                                       lang, row=n + 1))


def _play_select(
    plays: Iterable[Play], hand: Sequence[int], table_id: int, counter: int, n: int,
    total: int, lang: str, row: int | None = None,
) -> RoutedSelect:
    # sorted once for the menu, not once per option
    ordered = cards.sorted_hand(hand)
    options = [discord.SelectOption(label=play_label(p, lang), value=play_value(p),
                                    emoji=card_emoji(_first_card(p, ordered)))
               for p in plays]
    placeholder = (tr(lang, "Play cards…") if total == 1
                   else tr(lang, "Play cards… ({part} of {parts})", part=n + 1, parts=total))
    return RoutedSelect(Route(GAME, table_id, "play", counter, str(n)), options, placeholder,
                        row=n if row is None else row)


# -- events in plain words ----------------------------------------------------------------------


def describe(events: Iterable[Mapping[str, Any]], names: Mapping[int, str],
             lang: str) -> list[str]:
    """One line per thing that happened, from events in their public form."""
    lines: list[str] = []
    for event in events:
        line = _describe(event, names, lang)
        if line is None:
            continue
        if event["type"] == "dubbed" and lines:
            lines[-1] = tr(lang, "{play}: {dub}", play=lines[-1], dub=line)
        else:
            lines.append(line)
    return lines


def _describe(e: Mapping[str, Any], names: Mapping[int, str], lang: str) -> str | None:
    who = name_of(names, e["player"], lang) if "player" in e else ""
    auto = bool(e.get("auto"))
    match e["type"]:
        case "played":
            shown = cards.display_many(e["cards"])
            return (tr(lang, "{name} played {cards} (automatic)", name=who, cards=shown) if auto
                    else tr(lang, "{name} played {cards}", name=who, cards=shown))
        case "dubbed":
            return _dub_text(e, names, lang)
        case "drew":
            n = e["count"]
            if auto:
                return trn(lang, "{name} drew {n} card (automatic)",
                           "{name} drew {n} cards (automatic)", n, name=who)
            return trn(lang, "{name} drew {n} card", "{name} drew {n} cards", n, name=who)
        case "passed":
            return (tr(lang, "{name} passed (automatic)", name=who) if auto
                    else tr(lang, "{name} passed", name=who))
        case "pile_turned":
            match e["reason"]:
                case "D7":
                    return tr(lang, "{name} turned the pile: aces", name=who)
                case "D10":
                    return tr(lang, "{name} turned the pile: their last cards were on top",
                              name=who)
            return tr(lang, "{name} turned the pile: their own cards were on top", name=who)
        case "pending":
            return tr(lang, "{name} has no cards left: pending while their cards can be dubbed",
                      name=who)
        case "out":
            return tr(lang, "{name} is out: {place} place", name=who,
                      place=ordinal(lang, e["place"]))
        case "rejoined":
            return tr(lang, "{name} was dubbed back into the game", name=who)
        case "draw_play":
            card = cards.display(e["card"])
            if e["played"]:
                return tr(lang, "{name} turned up {card} from the draw pile and played it",
                          name=who, card=card)
            return tr(lang, "{name} turned up {card} from the draw pile and took it",
                      name=who, card=card)
        case "left":
            if e.get("auto"):
                return tr(lang, "{name} was removed after three timeouts (counts as a loss)",
                          name=who)
            return tr(lang, "{name} left the game (counts as a loss)", name=who)
        case "timeout":
            return tr(lang, "⏱ {name}'s time ran out ({strike} of 3)", name=who,
                      strike=e["strike"])
        case "game_over":
            return tr(lang, "Game over: **{name} loses**", name=name_of(names, e["loser"], lang))
    return None


def _dub_text(e: Mapping[str, Any], names: Mapping[int, str], lang: str) -> str:
    victims = e["victims"]
    counts = {v["picked_up"] for v in victims}
    who = [name_of(names, v["player"], lang) for v in victims]
    if len(counts) == 1 and not any(v["forgiven"] for v in victims):
        n = counts.pop()
        if len(who) == 1:
            return trn(lang, "{names} is dubbed and picks up {n} card",
                       "{names} is dubbed and picks up {n} cards", n, names=who[0])
        return trn(lang, "{names} are dubbed and pick up {n} card each",
                   "{names} are dubbed and pick up {n} cards each", n, names=join(lang, who))
    parts = []
    for v in victims:
        name = name_of(names, v["player"], lang)
        if v["forgiven"]:
            parts.append(tr(lang, "{name} picks up {count} ({forgiven} forgiven)", name=name,
                            count=v["picked_up"], forgiven=v["forgiven"]))
        else:
            parts.append(tr(lang, "{name} picks up {count}", name=name, count=v["picked_up"]))
    return tr(lang, "dubbed: {who}", who=join(lang, parts))


# -- what only the mover learns -----------------------------------------------------------------


def move_notice(events: Sequence[Any], player_id: int, lang: str) -> str | None:
    for event in events:
        if isinstance(event, Drew) and event.player == player_id and event.private_cards:
            return tr(lang, "You drew {cards}.", cards=cards.display_many(event.private_cards))
        if isinstance(event, Played) and event.player == player_id:
            played = tr(lang, "You played {cards}.", cards=cards.display_many(event.cards))
            if _again(events, player_id):
                return played + "\n" + tr(lang, "🔔 Aces turn the pile: your turn again.")
            return played
        if isinstance(event, DrawPlayed) and event.player == player_id:
            card = cards.display(event.card)
            if event.played:
                return tr(lang, "You turned up {card} and played it.", card=card)
            return tr(lang, "You turned up {card} and took it.", card=card)
        if isinstance(event, Passed) and event.player == player_id:
            return tr(lang, "You passed.")
        if isinstance(event, PlayerLeft) and event.player == player_id:
            return tr(lang, "You left the game.")
    return None


def _again(events: Sequence[Any], player_id: int) -> bool:
    """D7: the player's aces turned the pile and they take another turn (unless those were
    their last cards: then they are out)."""
    return (any(isinstance(e, PileTurned) and e.player == player_id and e.reason == "D7"
                for e in events)
            and not any(isinstance(e, PlayerOut) and e.player == player_id for e in events))


RULES_PATH = "docs/rules/dubb{suffix}.md"


def rules_text(options: DubbOptions | None, lang: str) -> str:
    """The rules in a nutshell, in words (the full rules, with their numbers, are in
    ``docs/rules``)."""
    lines = [
        tr(lang, "**Dubb in a nutshell**: get rid of your cards; the last player holding cards "
                 "loses."),
        tr(lang, "• The player with the lowest hand starts, and must play their lowest rank."),
        tr(lang, "• On your turn: **play** one or more cards of one rank, equal to or higher "
                 "than the top card (any rank on an empty pile); or **draw** one card; or "
                 "**pass**, only when you can't draw."),
        tr(lang, "• **Dubbing**: play the same rank as the top card, and everyone else in that "
                 "unbroken streak picks up as many cards as you played. You can't dub "
                 "yourself."),
        tr(lang, "• If your own cards are on top when your turn comes, the pile is turned: "
                 "shuffled into the draw pile, and you start afresh. **Aces** turn the pile at "
                 "once and you go again."),
        tr(lang, "• Out of cards? You are **pending** until your last cards are covered, turned "
                 "or beaten, and can still be dubbed back in. The last player left loses."),
    ]
    if options is not None:
        if options.jokers:
            lines.append(tr(lang, "• Jokers take the rank of the card under them and never go "
                                  "on an empty pile; jokers alone dub the streak."))
        if options.hand_limit:
            lines.append(tr(lang, "• Hand limit 7: you can't draw with 7 cards, and dubbing "
                                  "stops at 7."))
        if options.last_player_draw_play:
            lines.append(tr(lang, "• The last player holding cards may turn up the top draw "
                                  "card and play it if it fits, or take it."))
        lines.append(tr(lang, "This table: {options}.", options=options_line(options, lang)))
    suffix = "" if lang not in ("sv", "da", "fi", "nb") else f".{lang}"
    lines.append(tr(lang, "The full rules, with every case: `{path}` in kortbord's source.",
                    path=RULES_PATH.format(suffix=suffix)))
    return "\n".join(lines)
