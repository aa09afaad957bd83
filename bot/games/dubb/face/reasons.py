"""Why a Dubb play is worth making, in a few words (issue 34: a hint's reason): what it does,
read from the player's own view (their hand, and the pile everyone sees, D14), so a reason can
name no card the player has not seen."""

from __future__ import annotations

from collections.abc import Mapping

from bot.discord.common import name_of
from bot.games.dubb.moves import Move, Play
from bot.games.dubb.views import DubbPrivateView, DubbPublicView
from bot.i18n import join, tr, trn

ACE = 14


def move_reason(move: Move, view: DubbPublicView, private: DubbPrivateView,
                names: Mapping[int, str], lang: str) -> str | None:
    """What ``move`` does for the player, or ``None`` when there is nothing to say but the
    search's figures (drawing, passing: the hint gives those anyway)."""
    if not isinstance(move, Play):
        return None
    me = private.player_id
    count = move.naturals + move.jokers
    parts = []
    if view.top is not None and move.rank == view.top_rank:
        # D8: everyone else with a play in the streak picks up as many cards
        dubbed = list(dict.fromkeys(p.player for p in view.streak if p.player != me))
        if dubbed:
            parts.append(trn(lang, "it dubs {names}: {n} card each",
                             "it dubs {names}: {n} cards each", count,
                             names=join(lang, (name_of(names, p, lang) for p in dubbed))))
    if move.rank == ACE:
        # D7: aces turn the pile, and the same player goes again
        parts.append(tr(lang, "aces turn the pile and you go again"))
    left = len(private.hand) - count
    if left == 0:
        parts.append(tr(lang, "it empties your hand"))
    else:
        parts.append(trn(lang, "it leaves you {n} card", "it leaves you {n} cards", left))
    return join(lang, parts)
