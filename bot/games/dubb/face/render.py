"""Dubb on Discord: the public table, the private hand panel, and events in plain words.

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
from bot.discord.common import (
    FINISHED_COLOUR,
    PLAYING_COLOUR,
    button,
    countdown,
    join_names,
    label,
    name_of,
    ordinal,
)
from bot.discord.publisher import TableRender
from bot.discord.routing import Route, RoutedSelect
from bot.games.dubb import (
    MOVE_CAP,
    DrawPlay,
    DrawPlayed,
    Drew,
    DubbOptions,
    DubbPrivateView,
    DubbPublicView,
    Pass,
    Passed,
    Play,
    Played,
    PlayerLeft,
    PlayView,
)
from bot.games.dubb.moves import Draw

GAME = "dubb"
TITLE = "Dubb"
SELECT_LIMIT = 25
MAX_PLAY_SELECTS = 3  # rows left for plays beside the buttons row and the rank filter


def options_line(options: DubbOptions, players: int | None = None) -> str:
    line = options.summary()
    if players is not None and options.cards_each is None:
        # with too few players seated yet there is no deal size to show (D2)
        with contextlib.suppress(ValueError):
            line += f", {options.effective_cards_each(players)} cards each"
    return line


def pile_text(view: DubbPublicView, names: Mapping[int, str]) -> str:
    if view.top is None:
        return "empty — any rank may be played (no jokers, D9)"
    streak = " ← ".join(_play_text(p, names) for p in reversed(view.streak))
    below = view.pile_size - sum(len(p.cards) for p in view.streak)
    text = f"**{streak}**"
    if below > 0:
        text += f"\n…on {below} more card{'s' if below != 1 else ''}"
    rank = cards.rank_name(view.top_rank)
    text += f"\nNext play: **{rank}** or higher — playing {rank} dubs the streak."
    return text


def _play_text(play: PlayView, names: Mapping[int, str]) -> str:
    return f"{cards.display_many(play.cards)} ({name_of(names, play.player)})"


def _player_line(view: DubbPublicView, index: int, deadline: float | None) -> str:
    p = view.players[index]
    name = label(p.player_id, p.name)
    count = f"{p.hand_size} card{'s' if p.hand_size != 1 else ''}"
    if p.status == "to_move":
        timer = countdown(deadline) if p.player_id > 0 else None
        return f"▶ **{name}** — {count} · to move" + (f" · ⏱ time runs out {timer}"
                                                      if timer else "")
    if p.status == "pending":
        return f"⏳ {name} — pending (no cards, can still be dubbed)"
    if p.status == "out":
        return f"✅ {name} — out, {ordinal(p.place or 0)} place"
    if p.status == "left":
        return f"🚪 {name} — left the game"
    return f"• {name} — {count}"


def table_render(
    view: DubbPublicView, recent: Sequence[str], names: Mapping[int, str], *, table_id: int,
    counter: int, deadline: float | None = None,
) -> TableRender:
    """``names``: everyone as the table names them; ``deadline``: when the turn timer of the
    player to move runs out (issue 8)."""
    over = view.result is not None
    embed = discord.Embed(
        title=f"{TITLE} — {'game over' if over else 'in play'}",
        colour=FINISHED_COLOUR if over else PLAYING_COLOUR,
    )
    if view.result is not None:
        embed.description = _ranking_text(view, names)
    embed.add_field(name="Play pile", value=pile_text(view, names), inline=False)
    embed.add_field(name="Draw pile", value=f"{view.draw_pile_size} cards", inline=True)
    embed.add_field(name="Move", value=f"{view.move_count} of at most {MOVE_CAP}", inline=True)
    embed.add_field(
        name="Players (in turn order)",
        value="\n".join(_player_line(view, i, deadline) for i in range(len(view.players))),
        inline=False,
    )
    if recent:
        embed.add_field(name="Latest", value="\n".join(recent), inline=False)
    embed.set_footer(text=f"Options: {options_line(view.options)}")
    if over:
        return TableRender(embed=embed, view=None)
    table_view = discord.ui.View(timeout=None)
    table_view.add_item(
        button(GAME, table_id, "hand", "Your hand", discord.ButtonStyle.primary)
    )
    table_view.add_item(button(GAME, table_id, "draw", "Draw", counter=counter))
    table_view.add_item(button(GAME, table_id, "pass", "Pass", counter=counter))
    table_view.add_item(button(GAME, table_id, "rules", "Rules"))
    turn = None
    if view.to_move is not None:
        turn = (f"<@{view.to_move}> to move." if view.to_move > 0
                else f"{name_of(names, view.to_move)} to move.")
    return TableRender(
        embed=embed,
        view=table_view,
        to_move=view.to_move if view.to_move is not None and view.to_move > 0 else None,
        content=turn,
    )


def _ranking_text(view: DubbPublicView, names: Mapping[int, str]) -> str:
    result = view.result
    assert result is not None
    lines = []
    for place, player in enumerate(result.ranking, start=1):
        if player == result.loser:
            lines.append(f"💀 **{name_of(names, player)} loses**")
        else:
            lines.append(f"{ordinal(place)}. {name_of(names, player)}")
    why = {
        "normal": "",
        "cap": f"\nThe game reached the {MOVE_CAP}-move cap (D13): most cards loses.",
        "left": "\nToo few players were left after someone left.",
    }[result.reason]
    return "\n".join(lines) + why


# -- the private hand panel ---------------------------------------------------------------------


def play_label(play: Play) -> str:
    rank = cards.rank_name(play.rank)
    parts = []
    if play.naturals:
        parts.append(f"{play.naturals}× {rank}")
    if play.jokers:
        parts.append(f"{play.jokers} joker{'s' if play.jokers != 1 else ''}")
    text = " + ".join(parts)
    if not play.naturals:
        text += f" (as {rank})"
    return text


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


def hand_text(hand: Sequence[int]) -> str:
    if not hand:
        return "no cards"
    groups = [
        " ".join(cards.display(c) for c in group)
        for _, group in groupby(cards.sorted_hand(hand), key=cards.rank)
    ]
    return " · ".join(groups)


def hand_panel(
    public: DubbPublicView,
    private: DubbPrivateView,
    names: Mapping[int, str],
    *,
    table_id: int,
    counter: int,
    rank_filter: int | None = None,
    notice: str | None = None,
    deadline: float | None = None,
) -> tuple[str, discord.ui.View]:
    """The ephemeral panel: the hand, the pile, and exactly the legal moves as components."""
    lines = []
    if notice:
        lines.append(notice)
    lines.append(f"**Your hand ({len(private.hand)}):** {hand_text(private.hand)}")
    lines.append(f"**Play pile:** {_pile_line(public, names)}")
    if public.result is not None:
        lines.append("The game is over.")
    elif public.to_move == private.player_id:
        if public.first_move:
            lines.append("You start: play your lowest rank (D4).")
        else:
            lines.append("**Your turn.** Choose a play, or draw/pass.")
        timer = countdown(deadline)
        if timer is not None:
            lines.append(f"⏱ Your time runs out {timer} — then a safe move is made for you; "
                         "three in a row and you are out of the game.")
    elif public.to_move is not None:
        lines.append(f"Waiting for {name_of(names, public.to_move)}.")
    view = discord.ui.View(timeout=None)
    plays = [m for m in private.legal_moves if isinstance(m, Play)]
    _add_play_selects(view, plays, table_id, counter, rank_filter)
    row = 4
    if any(isinstance(m, Draw) for m in private.legal_moves):
        view.add_item(button(GAME, table_id, "draw", "Draw", counter=counter, row=row))
    if any(isinstance(m, DrawPlay) for m in private.legal_moves):
        view.add_item(
            button(GAME, table_id, "draw_play", "Draw & play", counter=counter, row=row)
        )
    if any(isinstance(m, Pass) for m in private.legal_moves):
        view.add_item(button(GAME, table_id, "pass", "Pass", counter=counter, row=row))
    view.add_item(button(GAME, table_id, "hand", "Refresh", row=row))
    return "\n".join(lines), view


def _pile_line(public: DubbPublicView, names: Mapping[int, str]) -> str:
    if public.top is None:
        return "empty"
    return f"{_play_text(public.top, names)} — {cards.rank_name(public.top_rank)} or higher"


def _add_play_selects(
    view: discord.ui.View,
    plays: list[Play],
    table_id: int,
    counter: int,
    rank_filter: int | None,
) -> None:
    if not plays:
        return
    if len(plays) <= SELECT_LIMIT * MAX_PLAY_SELECTS and rank_filter is None:
        chunks = [plays[i : i + SELECT_LIMIT] for i in range(0, len(plays), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks):
            view.add_item(_play_select(chunk, table_id, counter, n, len(chunks)))
        return
    # too many plays for the menus (two packs, a big hand): choose a rank first
    ranks = sorted({p.rank for p in plays})
    rank_options = [
        discord.SelectOption(
            label=f"Play {cards.rank_name(r)}s", value=str(r), default=r == rank_filter
        )
        for r in ranks[:SELECT_LIMIT]
    ]
    view.add_item(
        RoutedSelect(
            Route(GAME, table_id, "rank", counter), rank_options, "Choose a rank to play", row=0
        )
    )
    if rank_filter is not None:
        chosen = [p for p in plays if p.rank == rank_filter]
        chunks = [chosen[i : i + SELECT_LIMIT] for i in range(0, len(chosen), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks[: MAX_PLAY_SELECTS]):
            view.add_item(_play_select(chunk, table_id, counter, n + 1, len(chunks), row=n + 1))


def _play_select(
    plays: Iterable[Play], table_id: int, counter: int, n: int, total: int, row: int | None = None
) -> RoutedSelect:
    options = [discord.SelectOption(label=play_label(p), value=play_value(p)) for p in plays]
    placeholder = "Play cards…" if total == 1 else f"Play cards… ({n + 1}/{total})"
    return RoutedSelect(
        Route(GAME, table_id, "play", counter, str(n)), options, placeholder, row=n if row is None
        else row,
    )


# -- events in plain words ----------------------------------------------------------------------


def describe(events: Iterable[dict[str, Any]], names: Mapping[int, str]) -> list[str]:
    """One line per thing that happened, from events in their public form."""
    lines: list[str] = []
    for event in events:
        line = _describe(event, names)
        if line is None:
            continue
        if event["type"] == "dubbed" and lines:
            lines[-1] += " — " + line
        else:
            lines.append(line)
    return lines


def _describe(e: dict[str, Any], names: Mapping[int, str]) -> str | None:
    who = name_of(names, e["player"]) if "player" in e else ""
    auto = " (automatic)" if e.get("auto") else ""
    match e["type"]:
        case "played":
            return f"{who} played {cards.display_many(e['cards'])}{auto}"
        case "dubbed":
            return _dub_text(e, names)
        case "drew":
            n = e["count"]
            return f"{who} drew {'a card' if n == 1 else f'{n} cards'}{auto}"
        case "passed":
            return f"{who} passed{auto}"
        case "pile_turned":
            why = {
                "D6": "their own cards were on top",
                "D7": "aces",
                "D10": "their last cards were on top",
            }[e["reason"]]
            return f"{who} turned the pile ({why})"
        case "pending":
            return f"{who} has no cards left — pending while their cards can be dubbed"
        case "out":
            return f"{who} is out — {ordinal(e['place'])} place"
        case "rejoined":
            return f"{who} was dubbed back into the game"
        case "draw_play":
            card = cards.display(e["card"])
            return (
                f"{who} turned up {card} from the draw pile"
                + (" and played it" if e["played"] else " and took it")
            )
        case "left":
            how = "was removed after three timeouts" if e.get("auto") else "left the game"
            return f"{who} {how} (counts as a loss)"
        case "timeout":
            return f"⏱ {who}'s time ran out ({e['strike']} of 3)"
        case "game_over":
            return f"Game over — **{name_of(names, e['loser'])} loses**"
    return None


def _dub_text(e: dict[str, Any], names: Mapping[int, str]) -> str:
    victims = e["victims"]
    counts = {v["picked_up"] for v in victims}
    who = [name_of(names, v["player"]) for v in victims]
    verb = "is" if len(who) == 1 else "are"
    if len(counts) == 1 and not any(v["forgiven"] for v in victims):
        n = counts.pop()
        return f"{join_names(who)} {verb} dubbed and pick{'s' if len(who) == 1 else ''} up {n}" + (
            " each" if len(who) > 1 else ""
        )
    parts = []
    for v in victims:
        part = f"{name_of(names, v['player'])} picks up {v['picked_up']}"
        if v["forgiven"]:
            part += f" ({v['forgiven']} forgiven)"
        parts.append(part)
    return "dubbed: " + ", ".join(parts)


# -- what only the mover learns -----------------------------------------------------------------


def move_notice(events: Sequence[Any], player_id: int) -> str | None:
    for event in events:
        if isinstance(event, Drew) and event.player == player_id and event.private_cards:
            return f"You drew {cards.display_many(event.private_cards)}."
        if isinstance(event, Played) and event.player == player_id:
            return f"You played {cards.display_many(event.cards)}."
        if isinstance(event, DrawPlayed) and event.player == player_id:
            card = cards.display(event.card)
            return f"You turned up {card} and {'played it' if event.played else 'took it'}."
        if isinstance(event, Passed) and event.player == player_id:
            return "You passed."
        if isinstance(event, PlayerLeft) and event.player == player_id:
            return "You left the game."
    return None


def rules_text(options: DubbOptions | None) -> str:
    """The rules in a nutshell, with the rulings that matter in play."""
    lines = [
        "**Dubb in a nutshell** — get rid of your cards; the last player holding cards loses.",
        "• The lowest hand starts and must play its lowest rank (D4).",
        "• On your turn: **play** one or more cards of one rank, equal to or higher than the top "
        "card (any rank on an empty pile), or **draw** one card, or **pass** — only when you "
        "can't draw (D5).",
        "• **Dubbing** (D8): play the same rank as the top card and everyone else in that "
        "unbroken streak picks up as many cards as you played. You can't dub yourself.",
        "• If your own cards are on top when your turn comes, the pile is turned into the draw "
        "pile and you start afresh (D6). **Aces** turn the pile at once and you go again (D7).",
        "• Out of cards? You're **pending** until your last cards are covered, turned or beaten "
        "— you can still be dubbed back in (D10). The last player left loses (D11).",
    ]
    if options is not None:
        if options.jokers:
            lines.append("• Jokers take the rank of the card under them and never go on an "
                         "empty pile; jokers alone dub the streak (D9).")
        if options.hand_limit:
            lines.append("• Hand limit 7: you can't draw at 7 cards, and dubbing stops at 7 (D8).")
        if options.last_player_draw_play:
            lines.append("• The last player holding cards may turn up the top draw card and play "
                         "it if it fits, or take it (D12).")
        lines.append(f"This table: {options.summary()}.")
    return "\n".join(lines)
