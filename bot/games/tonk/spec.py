"""Tonk as the host sees it: the one object the registry lists."""

from __future__ import annotations

from bot.gamekit.codec import Events, Moves
from bot.gamekit.contract import DailyRules, GameSpec
from bot.games.tonk.engine import TonkEngine
from bot.games.tonk.event import TonkEventRules
from bot.games.tonk.events import event_to_dict, public_form, seat_form
from bot.games.tonk.moves import move_from_dict, move_to_dict
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.players import STRATEGIES
from bot.games.tonk.rules import COUNTERS, TonkRules
from bot.games.tonk.search import SEARCH
from bot.games.tonk.sim import main as simulate
from bot.games.tonk.standings import TonkStandings
from bot.games.tonk.terms import MAX_PLAYERS, MIN_PLAYERS
from bot.i18n import N_

SPEC = GameSpec(
    kind="tonk",
    name="Tonk",
    # marked for the catalogs; help says it in the reader's language
    summary=N_("Knock rummy for chips, hand after hand; the server's ledger keeps the score."),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=TonkOptions,
    engine=TonkEngine,
    moves=Moves(move_to_dict, move_from_dict),
    events=Events(event_to_dict, public_form, seat_form),
    rules=TonkRules(),
    strategies=STRATEGIES,
    computer="smart",
    counters=COUNTERS,
    stakes=True,
    face="bot.games.tonk.face:FACE",
    standings=TonkStandings(),
    simulator=simulate,
    default_turn_seconds=120,
    event=TonkEventRules(),
    search=SEARCH,
    daily=DailyRules(computers=2, hands=3, measure="chips"),
)
