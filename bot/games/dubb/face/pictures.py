"""Dubb's cards as pictures: a player's hand (their playable cards highlighted on their turn)
and the play pile's streak. The streak picture reads only the public view (D14)."""

from __future__ import annotations

from dataclasses import replace
from itertools import groupby

from bot import cards
from bot.cardart import CardImage, hand_image, row_image
from bot.games.dubb import DubbPrivateView, DubbPublicView, Play
from bot.i18n import tr
from bot.i18n.cards import cards_in_words


def hand_picture(public: DubbPublicView, private: DubbPrivateView, lang: str) -> CardImage:
    hand = cards.sorted_hand(private.hand)
    highlight = None
    if public.to_move == private.player_id:
        plays = [m for m in private.legal_moves if isinstance(m, Play)]
        ranks = {p.rank for p in plays if p.naturals}
        jokers = any(p.jokers for p in plays)
        highlight = {c for c in hand if cards.rank(c) in ranks
                     or (jokers and cards.is_joker(c))}
    image = hand_image(hand, highlight=highlight)
    groups = [list(g) for _, g in groupby(hand, key=cards.rank)]
    alt = tr(lang, "Your hand: {cards}", cards=cards_in_words(lang, groups, 900))
    return replace(image, alt=alt, filename="hand.png")


def streak_picture(public: DubbPublicView, lang: str) -> CardImage | None:
    if not public.streak:
        return None
    groups = [list(play.cards) for play in public.streak]
    image = row_image(groups)
    alt = tr(lang, "The play pile's streak, oldest first: {cards}",
             cards=cards_in_words(lang, groups, 900))
    return replace(image, alt=alt, filename="table.png")
