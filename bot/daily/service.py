"""The daily deal with its storage: the day's secret and commitment, the baseline computed once,
a person's one attempt (started, moved on, resumed, finished), what an unfinished daily scores
when its day ends, streaks and the day's results (``docs/daily.md``). Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bot.daily.baseline import BUDGET, Baseline, compute_baseline
from bot.daily.day import day_end, day_of, streak
from bot.daily.play import DailyGame
from bot.daily.score import score_of
from bot.daily.secret import day_commitment, new_secret
from bot.errors import KortbordError
from bot.gamekit.contract import GameSpec
from bot.gamekit.search import Budget
from bot.storage import DailyAttempt, DailyBaseline, DailyDay, DailyStanding, Finish, Store

_log = logging.getLogger(__name__)

CLAIM_LEASE = 20.0
"""Seconds a claim on the day's baseline holds without a sign of life: the process computing it
renews it every ``RENEW`` seconds (a search of a few seconds renews it once or not at all), so
a claim older than this is one whose process was killed or restarted before storing the
baseline, and whoever asks next computes it. It bounds the wait for a dead process's claim."""
RENEW = 5.0
"""Seconds between renewals of this process's claim while it computes the baseline."""
POLL = 0.25
"""Seconds between looks at the store while another process computes the baseline."""


class DailyPlayedError(KortbordError):
    """The person has played the day's daily already (one attempt a day)."""

    def __init__(self, attempt: DailyAttempt) -> None:
        super().__init__(f"{attempt.kind} daily of {attempt.day} already played")
        self.attempt = attempt


class DailyOverError(KortbordError):
    """A move for a daily that is over, or was never started."""


class DailyMovedError(KortbordError):
    """The attempt changed between reading and writing it (a second click): nothing stored."""


@dataclass(frozen=True, slots=True)
class Daily:
    """A person's daily as it stands: the game rebuilt from its moves, and the stored row."""

    game: DailyGame
    attempt: DailyAttempt
    day: DailyDay


@dataclass(frozen=True, slots=True)
class DailyBoard:
    """A board of a span: everyone on it, best first, and each one's streak today."""

    standings: list[DailyStanding]
    streaks: dict[int, int]

    @property
    def dailies(self) -> int:
        return sum(s.dailies for s in self.standings)

    @property
    def average(self) -> float | None:
        """The mean score of every daily on the board; ``None`` for an empty board."""
        dailies = self.dailies
        return sum(s.total for s in self.standings) / dailies if dailies else None


BOARD_TOP = 10
"""The people a board names (the rest are counted)."""
STREAK_DAYS = 366
"""How far back a board looks for streaks."""


class DailyService:
    def __init__(self, store: Store, games: Mapping[str, GameSpec], now: Callable[[], float],
                 budget: Budget = BUDGET,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.store = store
        self.games = games
        self.now = now
        self.budget = budget
        self.sleep = sleep  # on the clock that ``now`` reads, in tests
        self._baselines: dict[tuple[str, str], asyncio.Lock] = {}

    def today(self) -> date:
        return day_of(self.now())

    async def day(self, kind: str, day: date) -> DailyDay:
        """The day's secret and commitment, made on first use; asking for a day also commits
        the next one, so that its commitment is shown before it starts."""
        found = await self._day(kind, day)
        await self._day(kind, day + timedelta(days=1))
        return found

    async def _day(self, kind: str, day: date) -> DailyDay:
        known = await self.store.daily.known_day(kind, day.isoformat())
        if known is not None:
            return known
        secret = new_secret()
        return await self.store.daily.day_secret(
            kind, day.isoformat(), secret.hex(), day_commitment(kind, day, secret), self.now())

    async def revealed(self, kind: str, day: date) -> DailyDay | None:
        """The day's secret once the day is over, else ``None``."""
        if self.now() < day_end(day):
            return None
        return await self.store.daily.known_day(kind, day.isoformat())

    async def baseline(self, game: GameSpec, day: date) -> DailyBaseline:
        """The expert's result on the day's deal: computed by one caller in one process, the
        others waiting for it (a lock here, a claim row in the store between processes, which
        its process renews while it computes: one not renewed for ``CLAIM_LEASE`` is taken
        over)."""
        key = (game.kind, day.isoformat())
        lock = self._baselines.setdefault(key, asyncio.Lock())
        async with lock:
            while True:
                stored = await self.store.daily.baseline(*key)
                if stored is not None:
                    return stored
                claimed = self.now()
                if await self.store.daily.claim_baseline(*key, claimed, CLAIM_LEASE):
                    await self._compute(game, day, claimed)
                    continue
                # another process claimed it: look again shortly (it takes seconds)
                await self.sleep(POLL)

    async def _compute(self, game: GameSpec, day: date, claimed: float) -> None:
        """Compute and store the day's baseline under this process's claim of ``claimed``,
        renewed meanwhile; a claim given up (the search failed, or its caller was cancelled)
        is released, for the next to ask to compute it at once."""
        kind, iso = game.kind, day.isoformat()
        held = claimed

        async def renew() -> None:
            nonlocal held
            while True:
                await self.sleep(RENEW)
                # the new time first: a renewal cancelled half-way still commits
                last, held = held, self.now()
                try:
                    if not await self.store.daily.renew_baseline(kind, iso, last, held):
                        _log.warning("daily baseline of %s %s: claim taken over", kind, iso)
                        return
                except Exception:
                    held = last
                    _log.warning("daily baseline of %s %s: claim not renewed", kind, iso,
                                 exc_info=True)

        renewing = asyncio.create_task(renew())
        stored = False
        try:
            secret = bytes.fromhex((await self.day(kind, day)).secret)
            made: Baseline = await asyncio.to_thread(
                compute_baseline, game, day, secret, self.budget)
            _log.info("daily baseline of %s %s: %s in %.2f s", kind, iso, made.outcome,
                      made.seconds)
            await self.store.daily.store_baseline(kind, iso, made.outcome, made.moves,
                                                  made.seconds, self.now())
            stored = True
        finally:
            renewing.cancel()
            await asyncio.wait([renewing])  # a renewal under way ends first
            if not stored:
                try:
                    await self.store.daily.release_baseline(kind, iso, held)
                except Exception:
                    _log.warning("daily baseline of %s %s: claim not released (it lapses "
                                 "in %g s)", kind, iso, CLAIM_LEASE, exc_info=True)

    async def start(self, game: GameSpec, player_id: int, guild_id: int, name: str) -> Daily:
        """Today's daily for the person: started now (starting is the attempt), or resumed
        where they left it; ``DailyPlayedError`` once it is over."""
        await self.settle()
        today = self.today()
        day = await self.day(game.kind, today)
        attempt = await self.store.daily.attempt(game.kind, today.isoformat(), player_id)
        if attempt is None:
            fresh = DailyGame(game, today, bytes.fromhex(day.secret), name)
            fresh.advance()
            attempt, _ = await self.store.daily.start_attempt(
                game.kind, today.isoformat(), player_id, guild_id, name,
                fresh.moves_record(), self.now())
        if attempt.finished:
            raise DailyPlayedError(attempt)
        return Daily(self._rebuilt(game, attempt, day), attempt, day)

    def _rebuilt(self, game: GameSpec, attempt: DailyAttempt, day: DailyDay) -> DailyGame:
        return DailyGame.replay(game, date.fromisoformat(attempt.day),
                                bytes.fromhex(day.secret), attempt.name, attempt.moves)

    async def play(self, game: GameSpec, player_id: int, day: date, move: Any) -> Daily:
        """The person's move in their daily of ``day``, the replies it gets, and the result if
        it ends the daily; ``RuleError`` (nothing stored) if the rules refuse it,
        ``DailyOverError`` if that daily is over (its day, too) or was never started."""
        await self.settle()
        attempt = await self.store.daily.attempt(game.kind, day.isoformat(), player_id)
        known = await self.store.daily.known_day(game.kind, day.isoformat())
        if attempt is None or known is None or attempt.finished:
            raise DailyOverError(f"no {game.kind} daily of {day} to play")
        daily = Daily(self._rebuilt(game, attempt, known), attempt, known)
        daily.game.play(move)
        return await self._save(game, daily, "played")

    async def _save(self, game: GameSpec, daily: Daily, how: str) -> Daily:
        finish = None
        if daily.game.is_over:
            outcome = daily.game.outcome()
            base = await self.baseline(game, date.fromisoformat(daily.attempt.day))
            finish = Finish(how, outcome, score_of(game, outcome, base.outcome))
        a = daily.attempt
        if not await self.store.daily.save_attempt(
                a.kind, a.day, a.player_id, counted=a.move_count,
                moves=daily.game.moves_record(), now=self.now(), finish=finish):
            raise DailyMovedError(f"{a.kind} daily of {a.day} moved on")
        stored = await self.store.daily.attempt(a.kind, a.day, a.player_id)
        assert stored is not None
        return Daily(daily.game, stored, daily.day)

    async def settle(self) -> int:
        """Score every daily left unfinished on a day that is over: played on as if each of the
        person's turns timed out (``docs/daily.md``). Returns how many it scored; one another
        call scored first is left to it."""
        settled = 0
        for attempt in await self.store.daily.open_attempts(self.today().isoformat()):
            game = self.games.get(attempt.kind)
            known = await self.store.daily.known_day(attempt.kind, attempt.day)
            if game is None or known is None:
                continue
            daily = Daily(self._rebuilt(game, attempt, known), attempt, known)
            daily.game.time_out(game.rules.timeout_move)
            try:
                await self._save(game, daily, "timed_out")
                settled += 1
            except DailyMovedError:
                continue
        return settled

    async def streak(self, kind: str, player_id: int) -> int:
        days = await self.store.daily.played_days(kind, player_id)
        return streak((date.fromisoformat(d) for d in days), self.today())

    async def percentile(self, attempt: DailyAttempt) -> int | None:
        """The share (whole percent, rounded down) of everyone else who finished the day's
        daily that the person's score beat; ``None`` while nobody else has. Counted from the
        stored rows, so every process gives the same figure."""
        if attempt.score is None:
            return None
        beaten, others = await self.store.daily.beaten(attempt.kind, attempt.day,
                                                       attempt.player_id, attempt.score)
        return 100 * beaten // others if others else None

    async def board(self, kind: str, span: str, place_id: int | None,
                    viewer: int | None = None) -> DailyBoard:
        """The board of a place (a server, or a group DM: ``place_id``), or for ``None`` the
        board across the servers that opted in: ``today``, this ISO ``week`` (Monday to
        today) or ``all`` time, dailies left unfinished on past days scored first; with the
        streaks of the first ``BOARD_TOP`` and of ``viewer``."""
        await self.settle()
        today = self.today()
        first = {"today": today, "week": today - timedelta(days=today.weekday())}.get(
            span, date.min)
        standings = await self.store.daily.board(kind, first.isoformat(), today.isoformat(),
                                                 place_id)
        # a streak reaching back further than a year is shown as the year's
        since = (today - timedelta(days=STREAK_DAYS)).isoformat()
        named = [s.player_id for s in standings[:BOARD_TOP]]
        if viewer is not None and viewer not in named and any(
                s.player_id == viewer for s in standings):
            named.append(viewer)
        played = await self.store.daily.days_played(kind, named, since)
        return DailyBoard(standings, {
            player: streak((date.fromisoformat(d) for d in days), today)
            for player, days in played.items()})
