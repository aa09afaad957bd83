"""Dubb's table and hand as data, for the Activity (``bot.discord.scene``): the same public view
and the same words as the table message and the hand panel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot import cards
from bot.discord.common import name_of
from bot.discord.scene import HandScene, MoveScene, PileScene, SeatScene, TableScene
from bot.games.dubb import Draw, DrawPlay, DubbPrivateView, DubbPublicView, Play, PlayerView
from bot.games.dubb.face.render import TITLE, move_text, summary
from bot.i18n import ordinal, tr

PLAY_PILE, DRAW_PILE = "play", "draw"


def _seat_status(view: DubbPublicView, seat: PlayerView, lang: str) -> str:
    result = view.result
    if result is not None and seat.player_id == result.loser:
        return tr(lang, "loses")
    if seat.status == "to_move":
        return tr(lang, "to move")
    if seat.status == "pending":
        return tr(lang, "no cards, pending (can still be dubbed)")
    if seat.status == "out":
        return tr(lang, "out, {place} place", place=ordinal(lang, seat.place or 0))
    if seat.status == "left":
        return tr(lang, "left the game")
    return ""


def _result(view: DubbPublicView, names: Mapping[int, str], lang: str) -> tuple[str, ...]:
    result = view.result
    assert result is not None
    lines = [tr(lang, "{place} {name}", place=ordinal(lang, place),
                name=name_of(names, player, lang))
             for place, player in enumerate(result.ranking, start=1)
             if player != result.loser]
    return (*lines, summary(view, names, lang))


def table_scene(view: DubbPublicView, names: Mapping[int, str], lang: str) -> TableScene:
    over = view.result is not None
    if over:
        status = summary(view, names, lang)
    elif view.to_move is not None:
        status = tr(lang, "{name} to move.", name=name_of(names, view.to_move, lang))
    else:
        status = ""
    seats = tuple(SeatScene(p.player_id, name_of(names, p.player_id, lang), p.hand_size,
                            _seat_status(view, p, lang), p.status == "to_move")
                  for p in view.players)
    streak = tuple(card for play in view.streak for card in play.cards)
    piles = (PileScene(PLAY_PILE, "play", tr(lang, "Play pile"), streak, view.pile_size),
             PileScene(DRAW_PILE, "stock", tr(lang, "Draw pile"), (), view.draw_pile_size))
    return TableScene(
        state="over" if over else "playing",
        title=(tr(lang, "{game} — game over", game=TITLE) if over
               else tr(lang, "{game} — in play", game=TITLE)),
        status=status, seats=seats, piles=piles,
        result=_result(view, names, lang) if over else None,
    )


def _play_cards(play: Play, hand: Sequence[int]) -> tuple[int, ...]:
    """The cards the engine takes for ``play`` (``legal.pick``): the lowest codes of its rank,
    then the lowest joker codes."""
    naturals = sorted(c for c in hand if cards.rank(c) == play.rank)[:play.naturals]
    jokers = sorted(c for c in hand if cards.is_joker(c))[:play.jokers]
    return (*naturals, *jokers)


def hand_scene(private: DubbPrivateView, lang: str) -> HandScene:
    moves = []
    for move in private.legal_moves:
        if isinstance(move, Play):
            moves.append(MoveScene(move, move_text(move, lang),
                                   _play_cards(move, private.hand), PLAY_PILE))
        elif isinstance(move, Draw | DrawPlay):
            moves.append(MoveScene(move, move_text(move, lang), (), DRAW_PILE))
        else:
            moves.append(MoveScene(move, move_text(move, lang)))
    return HandScene(tuple(cards.sorted_hand(private.hand)), None, tuple(moves))
