"""Tonk's table and hand as data, for the Activity (``bot.discord.scene``): the same public view
and the same words as the table message and the hand panel. Hands show only once a hand is
over, from the result the public view reveals."""

from __future__ import annotations

from collections.abc import Mapping

from bot import cards
from bot.discord.common import name_of
from bot.discord.scene import HandScene, MoveScene, PileScene, SceneState, SeatScene, TableScene
from bot.games.tonk import (
    Discard,
    DrawDiscard,
    DrawStock,
    Hit,
    Phase,
    Spread,
    TonkPrivateView,
    TonkPublicView,
    sort_cards,
)
from bot.games.tonk.face.render import (
    TITLE,
    _closed_text,
    _result,
    cards_text,
    how_text,
    move_text,
    nets,
    payment_lines,
    spread_label,
)
from bot.i18n import signed, tr

STOCK, DISCARD = "stock", "discard"


def spread_pile(spread_id: int) -> str:
    return f"spread-{spread_id}"


def _seat_status(view: TonkPublicView, player_id: int, hand_size: int | None,
                 hit_locked: bool, lang: str) -> str:
    tags = []
    if player_id == view.to_move:
        tags.append(tr(lang, "to move"))
    if player_id == view.dealer and view.in_hand:
        tags.append(tr(lang, "dealer"))
    if hit_locked:
        tags.append(tr(lang, "🔒 was hit: no drop this turn"))
    if hand_size is None and view.in_hand:
        tags.append(tr(lang, "waits for the next deal"))
    return " · ".join(tags)


def _result_lines(view: TonkPublicView, names: Mapping[int, str], lang: str
                  ) -> tuple[str, ...]:
    result = _result(view)
    if result is None:
        return ()
    net = nets(result)
    hands = [f"{name_of(names, row['player'], lang)} — {row['total']}: "
             f"{cards_text(row['hand'], cards.letters) or tr(lang, 'no cards')} · "
             f"{signed(lang, net.get(row['player'], 0))}" for row in result["players"]]
    return (how_text(result, names, lang), *hands, *payment_lines(result, names, lang))


def table_scene(view: TonkPublicView, names: Mapping[int, str], lang: str, *,
                finished: bool) -> TableScene:
    closed = finished or view.phase is Phase.TABLE_CLOSED
    state: SceneState = "playing" if view.in_hand else "over" if closed else "between"
    if view.in_hand:
        title = tr(lang, "{game} — hand {hand}", game=TITLE, hand=view.hand_number)
        status = tr(lang, "{name} to move.", name=name_of(names, view.to_move, lang))
    elif closed:
        title = tr(lang, "{game} — table closed", game=TITLE)
        status = _closed_text(view, lang)
    else:
        title = tr(lang, "{game} — hand {hand} over", game=TITLE, hand=view.hand_number)
        status = tr(lang, "Next: {dealer} deals hand {hand}.",
                    dealer=name_of(names, view.next_dealer, lang), hand=view.hand_number + 1)
    seats = tuple(SeatScene(s.player_id, name_of(names, s.player_id, lang), s.hand_size,
                            _seat_status(view, s.player_id, s.hand_size, s.hit_locked, lang),
                            s.player_id == view.to_move)
                  for s in view.seats)
    top = () if view.discard_top is None else (view.discard_top,)
    piles = [PileScene(STOCK, "stock", tr(lang, "Stock"), (), view.stock_size),
             PileScene(DISCARD, "discard", tr(lang, "Discard pile"), top, view.discard_size)]
    piles += [PileScene(spread_pile(s.id), "spread",
                        spread_label(s.id, s.cards, s.owner, names, lang, cards.letters),
                        tuple(sort_cards(s.cards))) for s in view.spreads]
    # the last hand's result while no hand is being played: the engine keeps it through the
    # next hand, and a hand in play has no result yet (docs/activity.md, the scene's result)
    result = () if view.in_hand else _result_lines(view, names, lang)
    return TableScene(state, title, status, seats, tuple(piles), result or None)


def hand_scene(view: TonkPublicView, private: TonkPrivateView, names: Mapping[int, str],
               lang: str) -> HandScene:
    moves = []
    for move in private.legal_moves:
        text = move_text(move, view, private, names, lang)
        if isinstance(move, Spread):
            moves.append(MoveScene(move, text, tuple(sort_cards(move.cards))))
        elif isinstance(move, Hit):
            moves.append(MoveScene(move, text, tuple(sort_cards(move.cards)),
                                   spread_pile(move.spread_id)))
        elif isinstance(move, Discard):
            moves.append(MoveScene(move, text, (move.card,), DISCARD))
        elif isinstance(move, DrawStock):
            moves.append(MoveScene(move, text, (), STOCK))
        elif isinstance(move, DrawDiscard):
            moves.append(MoveScene(move, text, (), DISCARD))
        else:
            moves.append(MoveScene(move, text))
    dealt = any(s.player_id == private.player_id and s.hand_size is not None
                for s in view.seats)
    in_hand = view.in_hand and dealt
    return HandScene(tuple(sort_cards(private.hand)) if in_hand else (),
                     str(private.total) if in_hand else None, tuple(moves))

