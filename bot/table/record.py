"""A finished table's public record, and its verification (``python -m bot.verify``).

The record (``RECORD_FORMAT``) holds what anyone may see once the table is over: its start
(seats, options; never a secret), every move with its public events, every hand's commitment and
revealed key, and the table's ledger rows. ``verify`` checks it from nothing else: every
commitment matches its key, the deal follows from the keys, replaying every move through the
game's engine gives the recorded events, and the payments the replay makes are the ledger rows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.deals import commitment
from bot.games.base import GameSpec
from bot.storage import Store
from bot.table.fairdeal import deals_of, engine_from_start, links, revealed

RECORD_FORMAT = "kortbord-table/1"


class NotFinishedError(ValueError):
    """The table is not over, so its record is not public yet."""


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


async def public_record(store: Store, games: Mapping[str, GameSpec], table_id: int
                        ) -> dict[str, Any]:
    """The table's public record; ``NotFinishedError`` while it is live (or never dealt)."""
    record = await store.table(table_id)
    if record is None or record.is_live or not record.has_started:
        raise NotFinishedError(f"table {table_id} has no finished game")
    game = games[record.kind]
    moves = await store.moves(table_id)
    start = dict(moves[0].move)
    deals = deals_of(record)
    hands: list[dict[str, Any]] = []
    if deals is not None:
        engine = engine_from_start(game, start, deals)
        for m in moves[1:]:
            engine.apply(m.player_id, game.moves.from_dict(m.move))
        hands = [link.to_dict() for link in links(deals, engine)]
        # a table closed before its game ended reveals the hand it stopped in, too
        for link in hands:
            link["key"] = link["key"] or deals.key(link["hand"]).hex()
    ledger = await store.ledger_entries(record.guild_id, table_id=table_id, limit=None)
    return {
        "format": RECORD_FORMAT,
        "table": record.id,
        "kind": record.kind,
        "status": record.status,
        "start": start,
        "start_events": [game.events.public(e) for e in moves[0].events],
        "moves": [{"player": m.player_id, "move": m.move,
                   "events": [game.events.public(e) for e in m.events]} for m in moves[1:]],
        "hands": hands,
        "payments": sorted(
            [e.hand_no, e.payer_id, e.payee_id, e.amount, e.reason] for e in ledger),
    }


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str = ""

    def line(self) -> str:
        detail = f": {self.detail}" if self.detail else ""
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}{detail}"


def verify(data: Mapping[str, Any], games: Mapping[str, GameSpec]) -> Iterator[Check]:
    """Every check of one public record, in order; stops after a check the rest depend on."""
    if data.get("format") != RECORD_FORMAT:
        yield Check("format", False, f"not a {RECORD_FORMAT} record")
        return
    table, kind = int(data["table"]), str(data["kind"])
    game = games.get(kind)
    if game is None:
        yield Check("game", False, f"unknown game {kind!r}")
        return
    start = data["start"]
    keys: dict[int, str] = {}
    if "deals" in start:
        for link in data["hands"]:
            hand, key = int(link["hand"]), link["key"]
            ok = key is not None and commitment(bytes.fromhex(key), table, hand) == link[
                "commitment"]
            yield Check(f"table {table} hand {hand} commitment", ok,
                        link["commitment"][:16] + "…")
            if ok:
                keys[hand] = key
    try:
        engine = engine_from_start(game, start, revealed(table, keys) if keys else None)
    except (KeyError, ValueError) as exc:
        yield Check(f"table {table} deal", False, f"cannot deal: {exc!r}")
        return
    codec = game.events
    opening = [codec.public(codec.to_dict(e)) for e in engine.opening_events]
    ok = _canonical(opening) == _canonical(data["start_events"])
    yield Check(f"table {table} deal follows from its secret", ok)
    if not ok:
        return
    paid: Counter[str] = Counter(_canonical([p.round_no, p.payer, p.payee, p.amount, p.reason])
                                 for p in game.rules.payments(engine.opening_events))
    for n, m in enumerate(data["moves"], 1):
        try:
            events = engine.apply(int(m["player"]), game.moves.from_dict(m["move"]))
        except (KeyError, ValueError) as exc:
            yield Check(f"table {table} move {n} replays", False, repr(exc))
            return
        public = [codec.public(codec.to_dict(e)) for e in events]
        if _canonical(public) != _canonical(m["events"]):
            yield Check(f"table {table} move {n} replays", False, "other events than recorded")
            return
        paid.update(_canonical([p.round_no, p.payer, p.payee, p.amount, p.reason])
                    for p in game.rules.payments(events))
    yield Check(f"table {table} every move replays ({len(data['moves'])} moves)", True)
    over = data["status"] == "finished"
    yield Check(f"table {table} result", engine.is_over == over,
                "game over" if engine.is_over else "not over")
    recorded = Counter(_canonical(list(p)) for p in data["payments"])
    yield Check(f"table {table} ledger rows match the payments ({sum(recorded.values())} rows)",
                recorded == paid)
