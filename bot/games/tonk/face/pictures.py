"""Tonk's cards as pictures: a player's hand (on their turn, the cards they may use bright) and
the table — every spread with its label and the top discard during a hand; each player's
revealed hand once a hand is over. The table picture reads only the public view."""

from __future__ import annotations

from dataclasses import replace

from bot.cardart import CardImage, Group, hand_image, render, row_image
from bot.games.tonk.face.labels import hand_label
from bot.games.tonk.moves import Discard, Hit, Spread
from bot.games.tonk.spreads import sort_cards
from bot.games.tonk.views import TonkPrivateView, TonkPublicView
from bot.i18n import tr
from bot.i18n.cards import card_name, cards_in_words

ALT_BUDGET = 900
"""Room for the cards in words within the alt text's 1,024 characters."""


def hand_picture(public: TonkPublicView, private: TonkPrivateView, lang: str) -> CardImage:
    highlight: set[int] | None = None
    if public.to_move == private.player_id and public.in_hand:
        usable = set()
        for move in private.legal_moves:
            if isinstance(move, Discard):
                usable.add(move.card)
            elif isinstance(move, Spread | Hit):
                usable.update(move.cards)
        # before the draw nothing in the hand is played: show it all, undimmed
        highlight = usable or None
    image = hand_image(list(private.hand), highlight=highlight)
    alt = tr(lang, "Your hand: {cards}", cards=cards_in_words(lang, [private.hand],
                                                              ALT_BUDGET))
    return replace(image, alt=alt, filename="hand.png")


def table_picture(public: TonkPublicView, names: dict[int, str], lang: str) -> CardImage | None:
    result = public.last_hand_result
    if not public.in_hand and result is not None:
        # in the order and under the numbers of the text's lines (``render._revealed``)
        hands = [sort_cards(h) for h in result.hands]
        image = render([[Group(h, hand_label(i))] for i, h in enumerate(hands)])
        told = "; ".join(
            tr(lang, "{label} {name}: {cards}", label=hand_label(i), name=names.get(p, "?"),
               cards=cards_in_words(lang, [h], ALT_BUDGET // max(len(hands), 1)))
            for i, (p, h) in enumerate(zip(result.players, hands, strict=True)))
        alt = tr(lang, "Hands revealed: {hands}", hands=told)
        return replace(image, alt=alt[:1024], filename="table.png")
    if not public.in_hand:
        return None
    groups: list[Group] = [Group(s.cards, s.label) for s in public.spreads]
    if public.discard_top is not None:
        groups.append(Group([public.discard_top]))
    if not groups:
        return None
    image = row_image(groups)
    parts = [tr(lang, "{spread}: {cards}", spread=s.label,
                cards=cards_in_words(lang, [s.cards], ALT_BUDGET)) for s in public.spreads]
    if public.discard_top is not None:
        parts.append(tr(lang, "top discard: {card}",
                        card=card_name(lang, public.discard_top)))
    alt = tr(lang, "The table: {what}", what="; ".join(parts))
    return replace(image, alt=alt[:1024], filename="table.png")
