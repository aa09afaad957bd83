"""Committed deals at the table (docs/fair-deals.md): the deals of a table from its stored secret,
the commitments it shows before each hand and the hand keys it reveals after, and the engine of a
table rebuilt from its start record. Host code: games only see a ``DealSource``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.deals import DEAL_VERSION, CommittedDeals, RevealedDeals, new_master
from bot.gamekit.contract import DealSource, Engine, GameSpec, Seat
from bot.storage import TableRecord


@dataclass(frozen=True, slots=True)
class DealLink:
    """One hand of a table: its commitment, and its key once the hand is over."""

    hand: int
    commitment: str
    key: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "commitment": self.commitment, "key": self.key}


def new_deals(table_id: int, master: bytes | None = None) -> CommittedDeals:
    return CommittedDeals(new_master() if master is None else master, table_id)


def stored_secret(deals: CommittedDeals) -> dict[str, Any]:
    """What ``tables.deals`` keeps (the master: private)."""
    data = deals.to_stored()
    return {"version": data["version"], "table": data["table"], "master": data["master"]}


def deals_of(record: TableRecord) -> CommittedDeals | None:
    """A fresh source for the table's deals from hand 1, or ``None`` for an old table."""
    return deals_from(record.deals)


def deals_from(secret: Mapping[str, Any] | None) -> CommittedDeals | None:
    """``deals_of`` from ``tables.deals``' value itself."""
    if secret is None:
        return None
    return CommittedDeals.from_stored({**secret, "hand": 0, "shuffles": 0})


def links(deals: CommittedDeals, engine: Engine) -> list[DealLink]:
    """Every hand dealt or next to be, its key shown only once the hand is over (the whole
    table's, once the game is over)."""
    done = engine.deals_done
    last = done if engine.is_over else done + 1
    return [DealLink(h, deals.commitment(h),
                     deals.key(h).hex() if h <= done or engine.is_over else None)
            for h in range(1, max(last, 1) + 1)]


def shown_links(deals: CommittedDeals, engine: Engine) -> tuple[DealLink | None,
                                                                DealLink | None]:
    """What a table shows of ``links``: the hand last over, with its key, and the hand in play
    or next to be dealt (``None`` once the game is over), each ``None`` where there is none.
    Worked out for those two hands alone: a table is drawn at every move, and ``links`` works
    out every hand's key and commitment, dozens in a long game of many hands (issue 44)."""
    done = engine.deals_done
    if engine.is_over:
        last = max(done, 1)
        return DealLink(last, deals.commitment(last), deals.key(last).hex()), None
    over = None if done < 1 else DealLink(done, deals.commitment(done), deals.key(done).hex())
    return over, DealLink(done + 1, deals.commitment(done + 1), None)


def engine_from_start(game: GameSpec, start: Mapping[str, Any],
                      source: DealSource | None) -> Engine:
    """The table's engine as dealt, from its start record: the old seed, or ``source`` (the
    table's committed deals, or the revealed keys a verifier has)."""
    seats = [Seat(int(s["player_id"]), str(s["name"])) for s in start["seats"]]
    options = game.validate_options(start["options"])
    if "deals" in start:
        if source is None:
            raise ValueError("this table was dealt from committed deals")
        return game.new_engine(seats, options, source)
    return game.new_engine(seats, options, int(start["seed"]))


def revealed(table_id: int, keys: Mapping[int, str]) -> RevealedDeals:
    return RevealedDeals(table_id, {h: bytes.fromhex(k) for h, k in keys.items()})


def start_deals(table_id: int) -> dict[str, Any]:
    """What the start record says of committed deals (never the secret)."""
    return {"version": DEAL_VERSION, "table": table_id}
