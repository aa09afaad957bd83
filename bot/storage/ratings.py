"""Skill ratings and the seasons of a game's ledger. A rated table's result is recorded with the
move or the closing that ends it (``rate_table``, inside that transaction); the ratings are
derived from the move log (``bot.ratings``) and may be rebuilt whole (``rerate``). Every game
has seasons: a payment belongs to the season running when it is made, and a new season starts
the ratings afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.database import Tx
from bot.storage.models import RatingChange, RatingJob, RatingRow, Season, Skill
from bot.storage.part import StorePart


async def rate_table(db: Tx, table_id: int, ended_at: float, job: RatingJob) -> None:
    """Record a rated table's result: each player's rating before and after, and the
    ratings as they now stand. The season is the game's ledger season running when the
    table ended (every game has seasons; a new one starts the ratings afresh)."""
    rows = await db.fetch(
        "SELECT t.guild_id, t.kind, coalesce((SELECT max(s.season) FROM seasons s "
        "WHERE s.guild_id = t.guild_id AND s.kind = t.kind AND s.started_at <= ?), 1) "
        "FROM tables t WHERE t.id = ?", (ended_at, table_id),
    )
    guild_id, kind, season = rows[0]
    players = sorted(p for group in job.places for p in group)
    # Lock the players' rating rows before reading them, in player order like every lock
    # kortbord takes: a newcomer's row is made (fresh, no games yet), a held one is updated
    # to itself. In PostgreSQL a process rating one of them at the same time holds that
    # row until it commits, and this waits for it, so the read below sees its result;
    # without the lock both would rate from the same old row and the later write would
    # lose the earlier table's change. (In SQLite, ``BEGIN IMMEDIATE`` already keeps every
    # other writer out of the whole transaction.)
    await db.executemany(
        "INSERT INTO ratings (guild_id, kind, season, player_id, mu, sigma, ordinal, games, "
        "firsts, lasts) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0) "
        "ON CONFLICT (guild_id, kind, season, player_id) DO UPDATE SET games = ratings.games",
        [(guild_id, kind, season, p, job.fresh.mu, job.fresh.sigma, job.fresh.ordinal)
         for p in players],
    )
    marks = ", ".join("?" for _ in players)
    before = {int(r[0]): Skill(mu=r[1], sigma=r[2], ordinal=r[3]) for r in await db.fetch(
        f"SELECT player_id, mu, sigma, ordinal FROM ratings WHERE guild_id = ? AND kind = ? "
        f"AND season = ? AND player_id IN ({marks})", [guild_id, kind, season, *players],
    )}
    new = job.rate(job.places, before)
    # a place counts the players ahead of it (so tied players share a place, as in sport)
    place: dict[int, int] = {}
    ahead = 0
    for group in job.places:
        for p in group:
            place[p] = ahead + 1
        ahead += len(group)
    last = ahead - len(job.places[-1]) + 1 if len(job.places) > 1 else 0
    await db.execute(
        "INSERT INTO rated_tables (table_id, guild_id, kind, season, ended_at, players) "
        "VALUES (?, ?, ?, ?, ?, ?)", (table_id, guild_id, kind, season, ended_at, len(players)),
    )
    await db.executemany(
        "INSERT INTO rating_changes (table_id, player_id, guild_id, kind, season, place, "
        "mu_before, sigma_before, mu, sigma, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(table_id, p, guild_id, kind, season, place[p], before[p].mu, before[p].sigma,
          new[p].mu, new[p].sigma, ended_at) for p in players],
    )
    await db.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, "
        "firsts = firsts + ?, lasts = lasts + ? "
        "WHERE guild_id = ? AND kind = ? AND season = ? AND player_id = ?",
        [(new[p].mu, new[p].sigma, new[p].ordinal, int(place[p] == 1), int(place[p] == last),
          guild_id, kind, season, p) for p in players],
    )


class RatingStore(StorePart):
    """Ratings and seasons: the rebuild, the reads, and a new season."""

    async def rerate(self, results: Sequence[tuple[int, float, RatingJob]]) -> int:
        """Rebuild every rating from ``results`` (table, when it ended, its rated result), in
        the order given, in one transaction: what was recorded before is replaced. Returns how
        many tables were rated."""

        async def body(db: Tx) -> int:
            for table in ("ratings", "rating_changes", "rated_tables"):
                await db.execute(f"DELETE FROM {table}")
            for table_id, ended_at, job in results:
                await rate_table(db, table_id, ended_at, job)
            return len(results)

        return await self._transaction(body)

    async def current_season(self, guild_id: int, kind: str) -> int:
        rows = list(await self._db.fetch(
            "SELECT coalesce(max(season), 1) FROM seasons WHERE guild_id = ? AND kind = ?",
            (guild_id, kind),
        ))
        return int(rows[0][0])

    async def ratings(self, guild_id: int, kind: str, season: int, *,
                      player_ids: Sequence[int] | None = None) -> list[RatingRow]:
        """A season's ratings of one game in a server (of ``player_ids`` only, if given), best
        first by the conservative ordinal (ties: more games first, then by id)."""
        sql = (
            "SELECT r.guild_id, r.kind, r.season, r.player_id, n.name, r.mu, r.sigma, r.ordinal, "
            "r.games, r.firsts, r.lasts FROM ratings r LEFT JOIN player_names n "
            "ON n.guild_id = r.guild_id AND n.player_id = r.player_id "
            "WHERE r.guild_id = ? AND r.kind = ? AND r.season = ?"
        )
        params: list[Any] = [guild_id, kind, season]
        if player_ids is not None:
            if not player_ids:
                return []
            sql += f" AND r.player_id IN ({', '.join('?' for _ in player_ids)})"
            params += list(player_ids)
        rows = await self._db.fetch(sql + " ORDER BY r.ordinal DESC, r.games DESC, r.player_id",
                                    params)
        return [RatingRow(guild_id=r[0], kind=r[1], season=r[2], player_id=r[3], name=r[4],
                          mu=r[5], sigma=r[6], ordinal=r[7], games=r[8], firsts=r[9],
                          lasts=r[10]) for r in rows]

    async def rating_changes(self, *, table_id: int | None = None,
                             player: tuple[int, str, int, int] | None = None
                             ) -> list[RatingChange]:
        """The rating changes one table made, or one player's in one season (``player`` is
        (server, game, season, player id)), in the order they happened."""
        sql = ("SELECT table_id, player_id, season, place, mu_before, sigma_before, mu, sigma, "
               "ended_at FROM rating_changes WHERE ")
        if table_id is not None:
            sql += "table_id = ? ORDER BY place, player_id"
            params: list[Any] = [table_id]
        else:
            assert player is not None
            sql += ("guild_id = ? AND kind = ? AND season = ? AND player_id = ? "
                    "ORDER BY ended_at, table_id")
            params = list(player)
        rows = await self._db.fetch(sql, params)
        return [RatingChange(table_id=r[0], player_id=r[1], season=r[2], place=r[3],
                             mu_before=r[4], sigma_before=r[5], mu=r[6], sigma=r[7],
                             ended_at=r[8]) for r in rows]

    async def seasons(self, guild_id: int, kind: str) -> list[Season]:
        """Every season of one game's ledger in a server, oldest first (always season 1)."""
        rows = await self._db.fetch(
            "SELECT season, started_at, started_by FROM seasons WHERE guild_id = ? AND kind = ? "
            "ORDER BY season", (guild_id, kind),
        )
        first = Season(guild_id=guild_id, kind=kind, season=1, started_at=None, started_by=None)
        return [first, *(Season(guild_id=guild_id, kind=kind, season=r[0], started_at=r[1],
                                started_by=r[2]) for r in rows)]

    async def start_season(self, guild_id: int, kind: str, *, by_id: int, now: float) -> int:
        """Start the next ledger season of one game in a server and return its number; earlier
        seasons keep every row (money is never deleted)."""

        async def body(db: Tx) -> int:
            while True:
                rows = await db.fetch(
                    "SELECT coalesce(max(season), 1) FROM seasons WHERE guild_id = ? "
                    "AND kind = ?", (guild_id, kind),
                )
                season = int(rows[0][0]) + 1
                # in PostgreSQL another process may have started this season since the read:
                # its row is committed by the time the insert gives way, so the next read
                # sees it (in SQLite the write lock makes the first try the only one)
                if await db.execute(
                    "INSERT INTO seasons (guild_id, kind, season, started_at, started_by) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (guild_id, kind, season, now, by_id),
                ):
                    return season

        return await self._transaction(body)
