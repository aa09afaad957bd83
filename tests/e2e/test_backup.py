"""``python -m bot.ops backup`` while ``python -m bot`` plays (issue 37): a backup taken in
the middle of a Dubb and a Tonk game, moves going on while it runs, holds every move and ledger
row committed before it began, byte for byte; ``restore`` puts it back into a new database the
bot opens. A PostgreSQL database says to use pg_dump, and a pg_dump taken mid-play restores
with everything it had."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.fakediscord import Driver
from bot.storage import Store
from tests.e2e.conftest import REPO_ROOT, BotRunner, SubprocessBot, World
from tests.e2e.table_players import hands_ended, open_game, play_moves
from tests.forks import run
from tests.store.pgserver import SUPERUSER, PgServer, shared_server

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
    done = await asyncio.to_thread(run, "bot.ops", [*args, "--database", database],
                                   cwd=REPO_ROOT, timeout=240, merged=True)
    return done.returncode, done.stdout


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
    # a hand of two can end with nobody paid (a tie for lowest when the stock runs out, T8;
    # about 1 in 2,000 of greedy play's)
    while hands_ended(tonk) < 1 or not _rows(live)["ledger"]:
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


async def _pg(server: PgServer, program: str, *args: str) -> None:
    process = await asyncio.create_subprocess_exec(
        str(server.bin_dir / program), "-h", str(server.socket_dir), "-p", str(server.port),
        "-U", SUPERUSER, *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    out, _ = await process.communicate()
    assert process.returncode == 0, out.decode()


async def _pg_rows(url: str) -> dict[str, set[tuple[object, ...]]]:
    store = await Store.open(url)
    try:
        return {name: {tuple(r) for r in await store.db.fetch(sql)}
                for name, sql in ROWS.items()}
    finally:
        await store.close()


async def test_pg_dump_taken_mid_play_restores_every_move_and_payment(
    bot_runner: BotRunner, driver: Driver, world: World, tmp_path: Path,
    request: pytest.FixtureRequest
) -> None:
    """PostgreSQL's own tools, as docs/ops/production.md says: ``pg_dump -Fc`` while the bot
    plays, ``pg_restore`` into an empty database."""
    server = shared_server(request.config)
    source = server.create_database()
    bot_runner.database_url = server.url(source)
    await bot_runner.start()
    tonk = await open_game(driver, world.channel, "tonk", [world.bo],
                           {"computers": 1, "turn_time": 0, "stake": 2})
    while hands_ended(tonk) < 1 or not (await _pg_rows(server.url(source)))["ledger"]:
        await play_moves([tonk], 1)
    finished = await _pg_rows(server.url(source))
    assert finished["ledger"]
    dump = tmp_path / "kortbord.dump"
    await asyncio.gather(_pg(server, "pg_dump", "-Fc", "-f", str(dump), source),
                         play_moves([tonk], 3))
    target = server.create_database()
    try:
        await _pg(server, "pg_restore", "-d", target, str(dump))
        got = await _pg_rows(server.url(target))
        for name, rows in finished.items():
            assert rows <= got[name], f"{name} lost {sorted(rows - got[name])[:3]}"
    finally:
        await bot_runner.stop()
        server.drop_database(source)
        server.drop_database(target)
