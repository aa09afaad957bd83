"""Dubb as the host sees it: the one object the registry lists."""

from __future__ import annotations

from bot.games.base import GameSpec
from bot.games.dubb.codec import DubbEvents, DubbMoves
from bot.games.dubb.engine import DubbGame
from bot.games.dubb.event import DubbEventRules
from bot.games.dubb.options import MAX_PLAYERS, MIN_PLAYERS, DubbOptions
from bot.games.dubb.players import STRATEGIES
from bot.games.dubb.rules import COUNTERS, DubbRules
from bot.games.dubb.search import SEARCH
from bot.games.dubb.sim import main as simulate
from bot.games.dubb.standings import DubbStandings
from bot.i18n import N_

SPEC = GameSpec(
    kind="dubb",
    name="Dubb",
    summary=N_("Get rid of your cards; the last player holding cards loses."),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=DubbOptions,
    engine=DubbGame,
    moves=DubbMoves(),
    events=DubbEvents(),
    rules=DubbRules(),
    strategies=STRATEGIES,
    computer="smart",
    counters=COUNTERS,
    face="bot.games.dubb.face:FACE",
    standings=DubbStandings(),
    simulator=simulate,
    default_turn_seconds=90,
    event=DubbEventRules(),
    search=SEARCH,
)
