"""The rating model and the scale ratings are shown on.

openskill's Plackett–Luce model with the library's defaults (mu 25, sigma 25/3, beta 25/6,
tau 25/300): every player is a team of one, a table's places are its ranks, tied players share
a rank. The leaderboard sorts by the library's conservative ordinal, mu − 3·sigma (0 for a
newcomer). People see that ordinal on a friendlier scale: ``1000 + 20 × ordinal``, rounded, so
a newcomer shows 1000 and a settled player's game moves them by some ±10 to 30.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.storage import Skill

MODEL = PlackettLuce()
Z = 3.0
"""The ordinal is mu − Z·sigma: a rating the player is very likely above."""
SCALE, OFFSET = 20.0, 1000.0
"""Shown rating = OFFSET + SCALE × ordinal."""
MIN_GAMES = 5
"""Rated games (in the season) a player needs before the leaderboard lists them."""


def skill(mu: float, sigma: float) -> Skill:
    return Skill(mu=mu, sigma=sigma, ordinal=MODEL.rating(mu=mu, sigma=sigma).ordinal(Z))


FRESH = skill(MODEL.mu, MODEL.sigma)
"""Everyone's rating before their first rated game (ordinal 0)."""


def rate(places: Sequence[Sequence[int]], held: Mapping[int, Skill]) -> dict[int, Skill]:
    """The players' ratings after a table that placed them ``places`` (best first, a group
    tied), from the ratings they ``held`` (absent: ``FRESH``)."""
    players = [p for group in places for p in group]
    ranks = [float(i) for i, group in enumerate(places) for _ in group]
    teams = [[MODEL.rating(mu=held.get(p, FRESH).mu, sigma=held.get(p, FRESH).sigma)]
             for p in players]
    rated = MODEL.rate(teams, ranks=ranks)
    return {p: skill(team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def shown(ordinal: float) -> int:
    """A rating as people see it."""
    return round(OFFSET + SCALE * ordinal)


def shown_change(before: float, after: float) -> int:
    """The change people see: the difference of the shown ratings, so that before + change is
    after on screen too."""
    return shown(after) - shown(before)
