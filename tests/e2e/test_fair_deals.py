"""Committed deals end to end through the fake Discord: a Dubb game's table shows the deal's
commitment from its first message on, and once the game is over its public record, written to a
file, verifies with ``python -m bot.verify`` from that file alone."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.fakediscord import Driver
from bot.games.registry import GAMES
from bot.table.record import public_record
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, table_id_of

# a whole game to its end: about deals and their record, not about the rate limits
pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]
MAX_TURNS = 400
DIGEST = re.compile(r"`([0-9a-f]{64})`")


async def test_a_dubb_game_commits_to_its_deal_and_verifies_from_its_export(
    bot: BotRunner, driver: Driver, world: World, tmp_path: Path
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    table_id = table_id_of(table.table)
    public = [e.text for e in driver.log if e.audience is None]
    first = next(t for t in public if DIGEST.search(t))
    shown = DIGEST.search(first)
    assert shown is not None
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS
    assert bot.bot is not None
    record = await public_record(bot.bot.service.store, GAMES, table_id)
    assert record["hands"][0]["commitment"] == shown.group(1)
    last = [e.text for e in driver.log if e.audience is None][-1]
    assert record["hands"][0]["key"] in last
    export = tmp_path / "dubb.json"
    export.write_text(json.dumps(record))
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.verify", str(export)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   table" in done.stdout and "FAIL" not in done.stdout
