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

from bot.deals import commitment, day_commitment, hand_key
from bot.errors import KortbordError
from bot.gamekit.contract import GameSpec
from bot.i18n import DEFAULT, L
from bot.storage import Store
from bot.table.fairdeal import deals_of, engine_from_start, links, revealed

RECORD_FORMAT = "kortbord-table/1"


class NotFinishedError(KortbordError, ValueError):
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
    """One check of a record: ``what`` was checked and, if there is one to give, why it failed
    (in words, said in the reader's language) and the verifier's own ``technical`` detail, which
    only the command line shows."""

    what: L
    ok: bool
    detail: L | None = None
    technical: str = ""

    @property
    def name(self) -> str:
        return self.what.render(DEFAULT)

    def text(self, lang: str) -> str:
        """The check in ``lang``, with why it failed (no technical detail)."""
        what = self.what.render(lang)
        return what if self.detail is None else f"{what}: {self.detail.render(lang)}"

    def line(self) -> str:
        """The check as ``python -m bot.verify`` prints it."""
        detail = ": ".join(x for x in (self.detail and self.detail.render(DEFAULT),
                                       self.technical) if x)
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}" + (f": {detail}" if detail else "")


def verify(data: Mapping[str, Any], games: Mapping[str, GameSpec]) -> Iterator[Check]:
    """Every check of one public record, in order; stops after a check the rest depend on."""
    if data.get("format") != RECORD_FORMAT:
        yield Check(L("record format"), False, L("not a {format} record", format=RECORD_FORMAT))
        return
    table, kind = int(data["table"]), str(data["kind"])
    game = games.get(kind)
    if game is None:
        yield Check(L("table {table} game", table=table), False,
                    L("no game of the bot is called {kind}", kind=kind[:32]))
        return
    start = data["start"]
    keys: dict[int, str] = {}
    if "deals" in start:
        for link in data["hands"]:
            hand, key = int(link["hand"]), link["key"]
            ok = key is not None and commitment(bytes.fromhex(key), table, hand) == link[
                "commitment"]
            yield Check(L("table {table} hand {hand} commitment matches its secret", table=table,
                          hand=hand), ok, technical=link["commitment"][:16] + "…")
            if ok:
                keys[hand] = key
    if "daily" in data:
        yield from _daily_checks(data["daily"], kind, table, keys)
    try:
        engine = engine_from_start(game, start, revealed(table, keys) if keys else None)
    except (KeyError, ValueError) as exc:
        yield Check(L("table {table} deal", table=table), False,
                    L("it cannot be dealt from its revealed secrets"), repr(exc))
        return
    codec = game.events
    opening = [codec.public(codec.to_dict(e)) for e in engine.opening_events]
    ok = _canonical(opening) == _canonical(data["start_events"])
    yield Check(L("table {table} deal follows from its secret", table=table), ok)
    if not ok:
        return
    paid: Counter[str] = Counter(_canonical([p.round_no, p.payer, p.payee, p.amount, p.reason])
                                 for p in game.rules.payments(engine.opening_events))
    for n, m in enumerate(data["moves"], 1):
        replays = L("table {table} move {n} replays", table=table, n=n)
        try:
            events = engine.apply(int(m["player"]), game.moves.from_dict(m["move"]))
        except (KeyError, ValueError) as exc:
            yield Check(replays, False, L("the game does not allow it"), repr(exc))
            return
        public = [codec.public(codec.to_dict(e)) for e in events]
        if _canonical(public) != _canonical(m["events"]):
            yield Check(replays, False, L("it gives other events than recorded"))
            return
        paid.update(_canonical([p.round_no, p.payer, p.payee, p.amount, p.reason])
                    for p in game.rules.payments(events))
    yield Check(L("table {table} replays move by move (moves: {count})", table=table,
                  count=len(data["moves"])), True)
    over = data["status"] == "finished"
    yield Check(L("table {table} result", table=table), engine.is_over == over,
                L("the game is over") if engine.is_over else L("the game is not over"))
    recorded = Counter(_canonical(list(p)) for p in data["payments"])
    yield Check(L("table {table} ledger rows match the payments (rows: {count})", table=table,
                  count=sum(recorded.values())), recorded == paid)


def _daily_checks(daily: Mapping[str, Any], kind: str, table: int, keys: Mapping[int, str]
                  ) -> Iterator[Check]:
    """A daily's own (``docs/daily.md``): its day's secret matches the commitment shown before
    the day, and every hand's key follows from that secret."""
    day, secret = str(daily["day"]), bytes.fromhex(str(daily["secret"]))
    yield Check(L("daily of {day}: the secret matches the commitment shown before the day",
                  day=day), day_commitment(kind, day, secret) == daily["commitment"])
    ok = all(hand_key(secret, table, hand).hex() == key for hand, key in keys.items())
    yield Check(L("daily of {day}: every hand's secret follows from the day's", day=day), ok)
