"""The test bed proven with the real bot: ``/kortbord`` in-process and as ``python -m bot``."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import REPO_ROOT, BotRunner, SubprocessBot, World

pytestmark = pytest.mark.e2e


def _shape(options: list[dict[str, Any]]) -> list[tuple[str, int, Any]]:
    return [(o["name"], o["type"], _shape(o.get("options") or [])) for o in options]


async def test_ping_answers_ephemerally_and_only_the_asker_sees_it(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    result = await driver.slash(world.anna, world.channel, "kortbord ping")

    assert result.type == 4 and result.ephemeral
    assert result.content.startswith("Pong!")
    assert [m.id for m in driver.visible_to(world.anna, world.channel)] == [result.message.id]  # type: ignore[union-attr]
    assert driver.visible_to(world.bo, world.channel) == []
    assert driver.channel_messages(world.channel) == []
    assert all(entry.audience == world.anna.id for entry in driver.log)


async def test_ping_again_edits_the_ephemeral_message_in_place(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    pong = await driver.slash(world.anna, world.channel, "kortbord ping")
    assert pong.message is not None

    again = await driver.click(world.anna, pong.message, "Ping again")
    third = await driver.click(world.anna, pong.message, "Ping again")

    assert (again.type, third.type) == (7, 7)
    assert third.message is pong.message and pong.message.ephemeral
    assert pong.message.content == "Pong! (3)"
    assert driver.ephemerals(world.anna) == [pong.message]
    assert [(e.action, e.content) for e in driver.log] == [
        ("create", "Pong! (1)"),
        ("edit", "Pong! (2)"),
        ("edit", "Pong! (3)"),
    ]


async def test_help_is_ephemeral(bot: BotRunner, driver: Driver, world: World) -> None:
    result = await driver.slash(world.bo, world.channel, "kortbord help")

    assert result.ephemeral and "/dubb start" in result.content
    assert driver.visible_to(world.anna, world.channel) == []


async def test_the_synced_commands_match_the_command_tree(
    bot: BotRunner, fake: FakeDiscord, world: World
) -> None:
    assert bot.bot is not None
    tree = bot.bot.tree
    expected = {c.name: c.to_dict(tree) for c in tree.get_commands()}

    synced = {name: command for (_, name), command in fake.global_commands.items()}

    assert set(synced) == set(expected) and "kortbord" in synced
    for name, command in synced.items():
        # a context-menu command ("Play Dubb with…") has neither description nor options
        assert command.get("type", 1) == expected[name].get("type", 1)
        assert command.get("description", "") == expected[name].get("description", "")
        assert _shape(command.get("options") or []) == _shape(expected[name].get("options") or [])
    assert fake.guild_commands == {}


async def test_dev_guild_sync_and_a_restart_keep_the_old_button_working(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    await bot_runner.start(dev_guild_ids=[world.guild.id])
    assert bot_runner.bot is not None
    tree = bot_runner.bot.tree
    # chat-input commands are type 1, the "Play … with…" context menus on a person type 2
    expected = {(c.to_dict(tree).get("type", 1), c.name) for c in tree.get_commands()}
    assert (1, "kortbord") in expected
    assert set(fake.guild_commands[world.guild.id]) == expected
    pong = await driver.slash(world.anna, world.channel, "kortbord ping")
    assert pong.record.data["guild_id"] == str(world.guild.id)
    assert pong.message is not None

    await bot_runner.restart()
    again = await driver.click(world.anna, pong.message, "Ping again")

    assert again.type == 7 and pong.message.content == "Pong! (2)"
    assert fake.gateway.identify_count == 2


async def test_python_m_bot_against_the_fake(
    subprocess_bot: SubprocessBot, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    await subprocess_bot.start()
    assert (1, "kortbord") in fake.global_commands

    pong = await driver.slash(world.cem, world.channel, "kortbord ping")
    assert pong.message is not None
    again = await driver.click(world.cem, pong.message, "Ping again")
    status = await subprocess_bot.stop()

    assert pong.ephemeral and again.message is pong.message
    assert pong.message.content == "Pong! (2)"
    assert driver.visible_to(world.anna, world.channel) == []
    assert status == 0, subprocess_bot.output()
    # bot/runloop.py: uvloop is a dependency here (Linux)
    assert "event loop: uvloop" in subprocess_bot.output()


async def test_twenty_channels_at_once(bot: BotRunner, driver: Driver, world: World) -> None:
    channels = [driver.add_channel(world.guild, f"table-{n}") for n in range(20)]
    users = [driver.add_user(f"Player {n}") for n in range(20)]

    pongs = await asyncio.gather(
        *(driver.slash(u, c, "kortbord ping") for u, c in zip(users, channels, strict=True))
    )
    agains = await asyncio.gather(
        *(driver.click(u, p.message, "Ping again") for u, p in zip(users, pongs, strict=True))  # type: ignore[arg-type]
    )

    for user, channel, again in zip(users, channels, agains, strict=True):
        assert again.content == "Pong! (2)"
        assert driver.visible_to(user, channel) == [again.message]
        assert driver.channel_messages(channel) == []


async def test_a_database_from_a_newer_kortbord_stops_the_bot_with_one_clear_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "newer.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA user_version = 999")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(REPO_ROOT), DISCORD_TOKEN="x", DATABASE_PATH=str(database),
        DISCORD_API_BASE=fake.api_base,
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert b"schema version 999" in stderr
    assert b"Traceback" not in stderr
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (999,)
