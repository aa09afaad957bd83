"""Dubb as the host sees it: the one object the registry lists."""

from __future__ import annotations

from bot.gamekit.codec import Events, Moves
from bot.gamekit.contract import DailyRules, GameSpec
from bot.games.dubb.engine import DubbEngine
from bot.games.dubb.event import DubbEventRules
from bot.games.dubb.events import event_to_dict, public_form, seat_form
from bot.games.dubb.moves import move_from_dict, move_to_dict
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
    engine=DubbEngine,
    moves=Moves(move_to_dict, move_from_dict),
    events=Events(event_to_dict, public_form, seat_form),
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
    daily=DailyRules(computers=3),
)
