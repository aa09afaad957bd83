"""Helpers for the end-to-end tests of computer players, turn timers and abandoned tables
(issue 8): a bot whose clock the test moves, and the check that a table never ends up where
nobody can move."""

from __future__ import annotations

from bot.fakediscord import Channel
from bot.table.service import TableSnapshot
from tests.e2e.conftest import BotRunner
from tests.fakeclock import FakeClock


async def start_clocked(runner: BotRunner, *, seed: int | None = None) -> FakeClock:
    """Start the bot with a ``FakeClock`` (kept across restarts) and, if given, a fixed deal
    seed."""
    clock = FakeClock()
    runner.clock = clock
    await runner.start()
    if seed is not None:
        set_seed(runner, seed)
    return clock


def set_seed(runner: BotRunner, seed: int) -> None:
    assert runner.bot is not None
    # the service's seed source decides the deal
    runner.bot.service._seed_source = lambda: seed  # type: ignore[attr-defined]


async def snapshot(runner: BotRunner, channel: Channel) -> TableSnapshot | None:
    assert runner.bot is not None
    return await runner.bot.service.get(channel.id)


async def assert_someone_can_move(runner: BotRunner, channel: Channel) -> None:
    """The channel's table is closed, a lobby (people can start or leave it), or a person can
    act: they are to move, or (between Tonk hands) can deal. Call it when no computer is to
    move."""
    table = await snapshot(runner, channel)
    if table is None or table.is_lobby:
        return
    assert table.is_playing
    humans = [s.player_id for s in table.seats if not s.is_computer]
    assert humans, "a table without people is still playing"
    assert runner.bot is not None
    assert table.engine is not None
    to_move = table.engine.to_move
    if to_move is None:
        assert any(table.engine.legal_moves(p) for p in humans), "nobody can deal"
    else:
        assert to_move in humans, f"{to_move} is to move (call this once computers are done)"
