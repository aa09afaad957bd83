"""Why a Tonk move is worth making, in a few words (issue 34: a hint's reason): what the move
does for the player, read from their own view of the table only (their hand, the spreads, the
discard on top), so a reason can name no card the player has not seen."""

from __future__ import annotations

from bot.games.tonk import Discard, DrawDiscard, DrawStock, Drop, EndHand, Hit, Move, Spread
from bot.games.tonk.face.render import card_text
from bot.games.tonk.spreads import VALUE, hits_on, spreads_in
from bot.games.tonk.views import TonkPrivateView, TonkPublicView
from bot.i18n import tr, trn


def move_reason(move: Move, view: TonkPublicView, private: TonkPrivateView,
                lang: str) -> str | None:
    """What ``move`` does for the player, or ``None`` when there is nothing to say but the
    search's figures (the hint gives those anyway)."""
    hand = private.hand
    if isinstance(move, Drop):
        # T10: the lowest total wins a drop
        return tr(lang, "it ends the hand on your total of {total}", total=private.total)
    if isinstance(move, EndHand):
        # T8: an empty stock ends the hand; the lowest total is paid
        return tr(lang, "the stock is empty, and the lowest total is paid")
    top = view.discard_top
    if isinstance(move, DrawDiscard) and top is not None:
        if any(top in s for s in spreads_in((*hand, top))):
            return tr(lang, "the {card} completes a spread with your cards", card=card_text(top))
        if any(hits_on((top,), sp.cards) for sp in view.spreads):
            return tr(lang, "the {card} can hit a spread on the table", card=card_text(top))
        high = max(hand, key=VALUE.__getitem__, default=None)
        if high is not None and VALUE[top] < VALUE[high]:
            return tr(lang, "the {card} can take the place of your {high}", card=card_text(top),
                      high=card_text(high))
        return None
    if isinstance(move, DrawStock) and top is not None:
        return tr(lang, "the {card} does not help your hand", card=card_text(top))
    if isinstance(move, Spread | Hit):
        laid = move.cards
        if len(laid) == len(hand):
            # T7: going out by laying
            return tr(lang, "it lays your last cards: you go out")
        return trn(lang, "it takes {n} point off your total", "it takes {n} points off your total",
                   sum(VALUE[c] for c in laid))
    if isinstance(move, Discard):
        left = private.total - VALUE[move.card]
        if len(hand) == 1:
            return tr(lang, "it throws your last card: you go out")
        return trn(lang, "it leaves you {n} point in hand", "it leaves you {n} points in hand",
                   left)
    return None
