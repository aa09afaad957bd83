"""``python -m bot.ops rerate DATABASE`` (also ``python -m bot.storage rerate``): every rating
rebuilt from the move log, in one transaction. Stop the bot first: a table that ends while it
runs would be rated from the ratings it replaces.

Ratings are derived data. Each table that was dealt and is over is ranked again from its move
log by its game's rules (``results.rated_places``, the same function the live table uses) and
rated again, in the order the tables ended (ties by table id), into empty rating tables. The
same rules and the same log give the same numbers, bit for bit; a fix to the rules applies to
all history.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping

from bot.gamekit.contract import GameSpec
from bot.games.registry import GAMES
from bot.ratings.results import job, log_events, rated_places
from bot.storage import RatingJob, Store, TableRecord
from bot.storage.errors import DatabaseUnavailableError


async def rerate(store: Store, games: Mapping[str, GameSpec]) -> int:
    """Rebuild every rating; returns how many tables were rated."""
    tables: list[TableRecord] = []
    after = 0
    while page := await store.ended_tables(after_id=after):
        tables += page
        after = page[-1].id
    tables.sort(key=lambda t: (t.updated_at, t.id))
    results: list[tuple[int, float, RatingJob]] = []
    for record in tables:
        game = games.get(record.kind)
        if game is None:
            continue
        moves = await store.moves(record.id)
        if not moves:
            continue
        places = rated_places(game, record.rated, moves[0].move, log_events(moves),
                              record.status == "finished")
        if places is not None:
            results.append((record.id, record.updated_at, job(places)))
    return await store.rerate(results)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ops rerate",
        description="Rank every table that is over from its move log again and rate them in "
        "the order they ended, replacing the stored ratings (docs/ratings.md).",
    )
    parser.add_argument("database", help="the database (URL or SQLite path)")
    return asyncio.run(_rerate(parser.parse_args(argv).database))


async def _rerate(url: str) -> int:
    try:
        store = await Store.open(url)
    except (DatabaseUnavailableError, ValueError) as exc:
        print(f"kortbord: nothing rerated: {exc}", file=sys.stderr)
        return 2
    try:
        rated = await rerate(store, GAMES)
    finally:
        await store.close()
    print(f"rerated {rated:,} table(s) from the move log")
    return 0
