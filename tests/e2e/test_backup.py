"""``python -m bot.storage backup`` while ``python -m bot`` plays (issue 37): a backup taken in
the middle of a Dubb and a Tonk game, moves going on while it runs, holds every move and ledger
row committed before it began, byte for byte; ``restore`` puts it back into a new database the
bot opens. A PostgreSQL database says to use pg_dump."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.fakediscord import Driver
from bot.storage import Store
from tests.e2e.conftest import REPO_ROOT, SubprocessBot, World
from tests.e2e.table_players import hands_ended, open_game, play_moves

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

ROWS = {
    "moves": "SELECT table_id, seq, player_id, move, events FROM moves",
    "ledger": "SELECT id, table_id, hand_no, payer_id, payee_id, amount, reason FROM ledger",
    "tables": "SELECT id, kind FROM tables",
}


def _rows(path: Path) -> dict[str, set[tuple[object, ...]]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {name: set(db.execute(sql).fetchall()) for name, sql in ROWS.items()}
    finally:
        db.close()


async def _storage(*args: str, database: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.storage", *args, "--database", database,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_a_backup_taken_mid_play_restores_every_finished_move_and_payment(
    subprocess_bot: SubprocessBot, driver: Driver, world: World, tmp_path: Path
) -> None:
    subprocess_bot.env["COMPUTER_PAUSE"] = "0"
    await subprocess_bot.start()
    live = tmp_path / "kortbord.sqlite3"
    tonk_channel = driver.add_channel(world.guild, "tonk")
    dubb = await open_game(driver, world.channel, "dubb", [world.anna],
                           {"computers": 1, "turn_time": 0})
    tonk = await open_game(driver, tonk_channel, "tonk", [world.bo],
                           {"computers": 1, "turn_time": 0, "stake": 2})
    while hands_ended(tonk) < 1:
        await play_moves([tonk], 1)
    await play_moves([dubb, tonk], 4)

    finished = _rows(live)
    assert finished["ledger"], "no hand was paid before the backup"
    backup = tmp_path / "backups" / "mid-play.sqlite3"
    # the people go on playing while the backup runs
    (code, said), _ = await asyncio.gather(
        _storage("backup", str(backup), database=str(live)),
        play_moves([p for p in (dubb, tonk) if not p.finished()], 4))
    assert code == 0, said
    assert said.startswith(f"backed up {live} to {backup}")
    assert not dubb.finished(), "the Dubb game ended before the backup: it was not mid-play"

    restored = tmp_path / "restored" / "kortbord.sqlite3"
    code, said = await _storage("restore", str(backup), database=str(restored))
    assert code == 0, said
    got = _rows(restored)
    for name, rows in finished.items():
        assert rows <= got[name], f"{name} lost {sorted(rows - got[name])[:3]}"
    # and the restored database is one the bot opens (and checks page by page)
    store = await Store.open(restored, check=True)
    await store.close()

    code, said = await _storage("backup", str(backup), database=str(live))
    assert code == 2 and "already exists" in said
    code, said = await _storage("backup", str(tmp_path / "pg.sqlite3"),
                                database="postgresql://kortbord@localhost/kortbord")
    assert code == 2 and "pg_dump" in said
