"""Other players' names in what a player reads privately: a Tonk hit names the spread's owner,
whose name is theirs to choose. A hint (a message) escapes it, so a name like ``[free
nitro](https://…) **<@1>**`` shows as typed, not as a link, bold text or a mention; a menu
(which shows no markdown) shows it as typed, without the escapes' backslashes."""

from __future__ import annotations

import random
from typing import Any, cast

from bot.discord.coach import hint_text
from bot.discord.common import seated_names, shown_name
from bot.discord.controller import TableController, load_face
from bot.discord.routing import RoutedSelect
from bot.gamekit.contract import Seat
from bot.gamekit.search import Decision, Estimate
from bot.games.registry import GAMES
from bot.games.tonk import Hit, TonkEngine, TonkOptions
from bot.games.tonk.players import STRATEGIES
from bot.table.service import TableSnapshot

HOSTILE = "[free nitro](https://x.example) **<@123456789012345678>**"


def _a_hit_on_the_spread_of(name: str) -> tuple[TonkEngine, Hit]:
    """A table where player 1 may hit a spread laid by player 2, who is named ``name``."""
    for seed in range(500):
        engine = TonkEngine.new([Seat(1, "Anna"), Seat(2, name)], TonkOptions(), seed)
        rng = random.Random(seed)
        players = {p: STRATEGIES["smart"]() for p in (1, 2)}
        for _ in range(60):
            mover = engine.to_move
            if mover is None:
                break
            if mover == 1:
                hits = [m for m in engine.legal_moves(1) if isinstance(m, Hit)
                        and any(s.id == m.spread_id and s.owner == 2
                                for s in engine.public_view().spreads)]
                if hits:
                    return engine, hits[0]
            engine.apply(mover, players[mover].choose(engine.observe(mover), rng))
    raise AssertionError("no seed gave player 1 a hit on player 2's spread")


def _snapshot(engine: TonkEngine) -> TableSnapshot:
    return TableSnapshot(
        table_id=1, guild_id=1, channel_id=1, kind="tonk", status="playing", host_id=1,
        options=TonkOptions(), seats=(), message_id=None, counter=0, engine=engine,
        turn_seconds=0, turn_deadline=None, lobby_expires_at=None)


def test_a_hint_names_the_owner_of_the_spread_escaped() -> None:
    engine, hit = _a_hit_on_the_spread_of(HOSTILE)
    game = GAMES["tonk"]
    controller = TableController(cast(Any, None), cast(Any, None), game, load_face(game),
                                 cast(Any, None))
    decision = Decision(hit, None, (Estimate(hit, 1.0, 0.0, 0.0),), worlds=8, capped=False,
                        cpu=0.0)
    text = hint_text(controller, _snapshot(engine), 1, decision, "en")
    assert shown_name(HOSTILE) in text
    assert HOSTILE not in text and "<@123456789012345678>" not in text
    # the same move in a menu (the daily's) names the owner as typed: a menu shows no markdown
    plain = controller.face.move_text(engine, 1, hit, dict(engine.names), "en")
    assert HOSTILE in plain


def test_the_hit_menu_names_the_owner_as_typed() -> None:
    typed = "a_b*c\\d"
    engine, _ = _a_hit_on_the_spread_of(typed)
    game = GAMES["tonk"]
    face = load_face(game)
    snapshot = _snapshot(engine)
    panel = face.hand_panel(snapshot, 1, seated_names(snapshot), "en", notice=None, arg=None)
    labels = [o.label for item in panel.view.children if isinstance(item, RoutedSelect)
              for o in item.options if o.label.startswith("Hit ")]
    assert labels and all(f"({typed})" in label for label in labels), labels
