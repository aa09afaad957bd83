"""The store's queries for the daily deal (``bot.daily``): each day's secret, the expert's
baseline and everyone's attempt. Written once for both backends; ``Store.daily`` is the way in.

What several processes could do at once is decided by the database: the first secret stored for
a day is the day's (``day_secret`` returns it to everyone), one process claims a day's baseline
and computes it (``claim_baseline``), renewing its claim meanwhile (``renew_baseline``), so that a
claim not renewed for a lease is one whose process died and may be taken over,
a person has one attempt a game and day (its primary key), and an attempt's moves are compared
and set in one ``UPDATE`` (``save_attempt``), so a move is applied once.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.storage.database import Database, Row, Tx
from bot.storage.jsontext import dumps

T = TypeVar("T")
Transaction = Callable[[Callable[[Tx], Awaitable[T]]], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class DailyDay:
    kind: str
    day: str
    """``YYYY-MM-DD``, UTC."""
    secret: str
    """The deal secret, hex: private until the day is over."""
    commitment: str


@dataclass(frozen=True, slots=True)
class DailyBaseline:
    kind: str
    day: str
    outcome: int
    moves: list[dict[str, Any]]
    seconds: float


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    kind: str
    day: str
    player_id: int
    guild_id: int
    """The place it was started in, whose board it counts on: a server's id, or a DM's or
    group DM's channel id (``bot.discord.reach.place_of``)."""
    name: str
    started_at: float
    moves: list[dict[str, Any]]
    move_count: int
    finished_at: float | None
    how: str | None
    """How it ended: ``played`` to the end, or ``timed_out`` at the day's end."""
    outcome: int | None
    score: int | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True, slots=True)
class DailyStanding:
    """One person on a board: their finished dailies in the span and their scores' sum."""

    player_id: int
    name: str
    dailies: int
    total: int

    @property
    def average(self) -> float:
        """The mean score a daily, from the integer sum and count (so every backend agrees)."""
        return self.total / self.dailies


_ATTEMPT_COLUMNS = ("kind, day, player_id, guild_id, name, started_at, moves, move_count, "
                    "finished_at, how, outcome, score")


def _attempt(row: Row) -> DailyAttempt:
    return DailyAttempt(
        kind=row[0], day=row[1], player_id=row[2], guild_id=row[3], name=row[4],
        started_at=row[5], moves=json.loads(row[6]), move_count=row[7], finished_at=row[8],
        how=row[9], outcome=row[10], score=row[11])


@dataclass(frozen=True, slots=True)
class Finish:
    """How an attempt ended, stored with its last moves."""

    how: str
    outcome: int
    score: int


class DailyStore:
    def __init__(self, db: Database, transaction: Transaction[Any]) -> None:
        self._db = db
        self._transaction = transaction

    async def day_secret(self, kind: str, day: str, secret: str, commitment: str,
                         now: float) -> DailyDay:
        """The day's secret: ``secret`` if none was stored yet, else the one that was."""

        async def body(db: Tx) -> DailyDay:
            await db.execute(
                "INSERT INTO daily_days (kind, day, secret, commitment, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, day) DO NOTHING",
                (kind, day, secret, commitment, now))
            rows = await db.fetch(
                "SELECT secret, commitment FROM daily_days WHERE kind = ? AND day = ?",
                (kind, day))
            return DailyDay(kind, day, rows[0][0], rows[0][1])

        return await self._transaction(body)

    async def known_day(self, kind: str, day: str) -> DailyDay | None:
        rows = await self._db.fetch(
            "SELECT secret, commitment FROM daily_days WHERE kind = ? AND day = ?", (kind, day))
        return DailyDay(kind, day, rows[0][0], rows[0][1]) if rows else None

    async def claim_baseline(self, kind: str, day: str, now: float, lease: float) -> bool:
        """Whether this caller is to compute the day's baseline: nobody claimed it, or the
        claim was neither renewed nor finished for ``lease`` seconds (its process died). The
        claim is known by ``now``, its time, to renew or release it."""

        async def body(db: Tx) -> bool:
            rows = await db.fetch(
                "INSERT INTO daily_baselines (kind, day, claimed_at) VALUES (?, ?, ?) "
                "ON CONFLICT (kind, day) DO UPDATE SET claimed_at = excluded.claimed_at "
                "WHERE daily_baselines.outcome IS NULL AND daily_baselines.claimed_at < ? "
                "RETURNING kind",
                (kind, day, now, now - lease))
            return bool(rows)

        return await self._transaction(body)

    async def renew_baseline(self, kind: str, day: str, claimed: float, now: float) -> bool:
        """The process computing the day's baseline is alive: its claim of ``claimed`` (the
        time it was made or last renewed) holds from ``now`` on. ``False`` if that claim is
        gone: taken over, released, or the baseline stored."""

        async def body(db: Tx) -> bool:
            return await db.execute(
                "UPDATE daily_baselines SET claimed_at = ? WHERE kind = ? AND day = ? "
                "AND outcome IS NULL AND claimed_at = ?", (now, kind, day, claimed)) == 1

        return await self._transaction(body)

    async def release_baseline(self, kind: str, day: str, claimed: float) -> None:
        """Give up the claim of ``claimed`` without a baseline (its computation failed or was
        cancelled), so that the next to ask computes it at once."""

        async def body(db: Tx) -> None:
            await db.execute(
                "DELETE FROM daily_baselines WHERE kind = ? AND day = ? AND outcome IS NULL "
                "AND claimed_at = ?", (kind, day, claimed))

        await self._transaction(body)

    async def store_baseline(self, kind: str, day: str, outcome: int,
                             moves: Sequence[dict[str, Any]], seconds: float,
                             now: float) -> None:
        async def body(db: Tx) -> None:
            await db.execute(
                "UPDATE daily_baselines SET outcome = ?, moves = ?, seconds = ?, "
                "computed_at = ? WHERE kind = ? AND day = ? AND outcome IS NULL",
                (outcome, dumps(list(moves)), seconds, now, kind, day))

        await self._transaction(body)

    async def baseline(self, kind: str, day: str) -> DailyBaseline | None:
        """The day's baseline once it is stored."""
        rows = await self._db.fetch(
            "SELECT outcome, moves, seconds FROM daily_baselines WHERE kind = ? AND day = ? "
            "AND outcome IS NOT NULL", (kind, day))
        if not rows:
            return None
        return DailyBaseline(kind, day, rows[0][0], json.loads(rows[0][1]), rows[0][2])

    async def start_attempt(self, kind: str, day: str, player_id: int, guild_id: int,
                            name: str, moves: Sequence[dict[str, Any]], now: float
                            ) -> tuple[DailyAttempt, bool]:
        """The person's attempt of the day, and whether this call started it (a second
        start finds the first)."""

        async def body(db: Tx) -> tuple[DailyAttempt, bool]:
            made = await db.fetch(
                "INSERT INTO daily_attempts (kind, day, player_id, guild_id, name, started_at, "
                "moves, move_count, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (kind, day, player_id) DO NOTHING RETURNING kind",
                (kind, day, player_id, guild_id, name, now, dumps(list(moves)), len(moves),
                 now))
            rows = await db.fetch(
                f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE kind = ? AND day = ? "
                "AND player_id = ?", (kind, day, player_id))
            return _attempt(rows[0]), bool(made)

        return await self._transaction(body)

    async def attempt(self, kind: str, day: str, player_id: int) -> DailyAttempt | None:
        rows = await self._db.fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE kind = ? AND day = ? "
            "AND player_id = ?", (kind, day, player_id))
        return _attempt(rows[0]) if rows else None

    async def save_attempt(self, kind: str, day: str, player_id: int, *, counted: int,
                           moves: Sequence[dict[str, Any]], now: float,
                           finish: Finish | None = None) -> bool:
        """Store a move and the replies it got (all of ``moves``), and the result when it ended
        the daily, if the attempt still has the ``counted`` moves it was read with and is not
        over; ``False`` when another call got there first."""

        async def body(db: Tx) -> bool:
            return await db.execute(
                "UPDATE daily_attempts SET moves = ?, move_count = ?, updated_at = ?, "
                "finished_at = ?, how = ?, outcome = ?, score = ? "
                "WHERE kind = ? AND day = ? AND player_id = ? AND move_count = ? "
                "AND finished_at IS NULL",
                (dumps(list(moves)), len(moves), now, now if finish else None,
                 finish and finish.how, finish and finish.outcome, finish and finish.score,
                 kind, day, player_id, counted)) == 1

        return await self._transaction(body)

    async def open_attempts(self, before: str) -> list[DailyAttempt]:
        """Attempts still unfinished of days before ``before`` (to be scored as the day's end
        scores them)."""
        rows = await self._db.fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE finished_at IS NULL "
            "AND day < ? ORDER BY day, kind, player_id", (before,))
        return [_attempt(r) for r in rows]

    async def played_days(self, kind: str, player_id: int) -> list[str]:
        """Every day the person started the game's daily, oldest first."""
        rows = await self._db.fetch(
            "SELECT day FROM daily_attempts WHERE player_id = ? AND kind = ? ORDER BY day",
            (player_id, kind))
        return [r[0] for r in rows]

    async def days_played(self, kind: str, player_ids: Sequence[int], since: str
                          ) -> dict[int, list[str]]:
        """The days from ``since`` on that each of ``player_ids`` started the game's daily,
        oldest first (the streaks on a board)."""
        if not player_ids:
            return {}
        marks = ", ".join("?" for _ in player_ids)
        rows = await self._db.fetch(
            f"SELECT player_id, day FROM daily_attempts WHERE kind = ? AND day >= ? "
            f"AND player_id IN ({marks}) ORDER BY player_id, day",
            (kind, since, *player_ids))
        found: dict[int, list[str]] = {p: [] for p in player_ids}
        for player_id, day in rows:
            found[int(player_id)].append(day)
        return found

    async def day_attempts(self, kind: str, day: str, guild_id: int | None = None
                           ) -> list[DailyAttempt]:
        """A day's finished attempts, best score first (``guild_id``: those started there)."""
        where, params = "", [kind, day]
        if guild_id is not None:
            where, params = " AND guild_id = ?", [*params, guild_id]
        rows = await self._db.fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE kind = ? AND day = ? "
            f"AND finished_at IS NOT NULL{where} ORDER BY score DESC, finished_at, player_id",
            params)
        return [_attempt(r) for r in rows]

    async def board(self, kind: str, first: str, last: str, guild_id: int | None
                    ) -> list[DailyStanding]:
        """Everyone's finished dailies from day ``first`` to ``last`` started in the server
        (``guild_id``) or, for ``None``, in any server that opted in to the cross-server
        boards; people who hid themselves are left out. The highest total score first; between
        equal totals, the one with fewer dailies (the better average), then the lower id."""
        if guild_id is None:
            where, params = ("guild_id IN (SELECT guild_id FROM guild_settings "
                             "WHERE daily_everywhere = 1)"), [kind, first, last]
        else:
            where, params = "guild_id = ?", [kind, first, last, guild_id]
        rows = await self._db.fetch(
            "SELECT player_id, MAX(name), COUNT(*), SUM(score) FROM daily_attempts "
            "WHERE kind = ? AND day >= ? AND day <= ? AND finished_at IS NOT NULL "
            f"AND {where} AND player_id NOT IN (SELECT player_id FROM daily_hidden) "
            "GROUP BY player_id ORDER BY SUM(score) DESC, COUNT(*), player_id",
            params)
        return [DailyStanding(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def beaten(self, kind: str, day: str, player_id: int, score: int
                     ) -> tuple[int, int]:
        """Among everyone else who finished the day's daily, on every server and hidden or
        not: how many scored less than ``score``, and how many there are."""
        rows = await self._db.fetch(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN score < ? THEN 1 ELSE 0 END), 0) "
            "FROM daily_attempts WHERE kind = ? AND day = ? AND finished_at IS NOT NULL "
            "AND player_id <> ?", (score, kind, day, player_id))
        return int(rows[0][1]), int(rows[0][0])

    async def set_hidden(self, player_id: int, hidden: bool, now: float) -> None:
        """Hide the person from every daily board, or show them again."""

        async def body(db: Tx) -> None:
            if hidden:
                await db.execute(
                    "INSERT INTO daily_hidden (player_id, hidden_at) VALUES (?, ?) "
                    "ON CONFLICT (player_id) DO NOTHING", (player_id, now))
            else:
                await db.execute("DELETE FROM daily_hidden WHERE player_id = ?", (player_id,))

        await self._transaction(body)

    async def hidden(self, player_id: int) -> bool:
        rows = await self._db.fetch(
            "SELECT 1 FROM daily_hidden WHERE player_id = ?", (player_id,))
        return bool(rows)
