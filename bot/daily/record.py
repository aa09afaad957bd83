"""A daily's public record, once its day is over and its secret revealed: the format of a
table's (``bot.table.record``), so ``python -m bot.verify`` checks it as it checks a table —
every hand's commitment and key, the deal, every move replayed, the chips — plus a ``daily``
part the verifier checks too: the day's secret matches the commitment shown before the day,
and every hand's key follows from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from bot.daily.day import deal_number
from bot.daily.play import DailyGame, daily_seats
from bot.daily.secret import day_commitment, day_deals
from bot.gamekit.contract import GameSpec
from bot.table.fairdeal import links, start_deals
from bot.table.record import RECORD_FORMAT


def daily_record(game: GameSpec, day: date, secret: bytes, name: str,
                 moves: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    daily = DailyGame.replay(game, day, secret, name, moves)
    engine = daily.engine
    codec = game.events
    table = deal_number(day)
    hands = [link.to_dict() for link in links(day_deals(day, secret), engine)]
    for link in hands:
        # the day is over: every hand's key is out, the one the sitting stopped before too
        link["key"] = link["key"] or day_deals(day, secret).key(link["hand"]).hex()
    start = {
        "deals": start_deals(table),
        "options": game.validate_options({}).model_dump(mode="json"),
        "seats": [{"player_id": s.player_id, "name": s.name, "is_computer": s.player_id < 0}
                  for s in daily_seats(game, name)],
    }
    return {
        "format": RECORD_FORMAT,
        "table": table,
        "kind": game.kind,
        "status": "finished" if engine.is_over else "closed",
        "start": start,
        "start_events": [codec.public(e) for e in daily.opening],
        "moves": [{"player": s.player, "move": s.move,
                   "events": [codec.public(e) for e in s.events]} for s in daily.steps],
        "hands": hands,
        "payments": sorted([p.round_no, p.payer, p.payee, p.amount, p.reason]
                           for p in daily.payments),
        "daily": {"day": day.isoformat(), "commitment": day_commitment(game.kind, day, secret),
                  "secret": secret.hex()},
    }

