"""What a hostile client can send, fuzzed (issue 12): arbitrary strings and numbers to every
slash command option and autocomplete, and arbitrary and forged custom ids (other tables, other
servers, panel ids on the table, malformed) — each example against a fresh bot on the fake
Discord with a Dubb and a Tonk game in play.

Every interaction is answered within the deadline, nothing is logged at ERROR, no public message
ever shows a hand card, the stored games stay exactly the replay of their logs, and input
outside what the command declares — or a component not on its message — changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord_api import point_discord_at
from bot.fakediscord import Channel, Driver, FakeDiscord, User
from bot.fakediscord.driver import DriverError
from bot.fakediscord.forgery import InteractionRejected
from bot.fakediscord.model import StoredMessage
from bot.fakediscord.ratelimit import RateLimitConfig
from bot.storage import Store
from tests.e2e import dubb_table, tonk_table
from tests.e2e.conftest import BotRunner, ErrorLog
from tests.e2e.table_card import card
from tests.store.helpers import check_against_log

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN = 3, 4, 5
SUBCOMMAND = 1

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=2500)
numbers = st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)


@dataclass(frozen=True)
class Slash:
    user: int
    channel: int
    command: int
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Complete:
    user: int
    channel: int
    command: int
    text: str


@dataclass(frozen=True)
class Forge:
    user: int
    channel: int
    kind: int
    text: str
    values: tuple[str, ...]
    component_type: int


actions = st.lists(st.one_of(
    st.builds(Slash, st.integers(0, 4), st.integers(0, 1), st.integers(0, 10_000),
              st.lists(st.one_of(texts, numbers, st.booleans()), max_size=4).map(tuple)),
    st.builds(Complete, st.integers(0, 4), st.integers(0, 1), st.integers(0, 10_000), texts),
    st.builds(Forge, st.integers(0, 4), st.integers(0, 1), st.integers(0, 5),
              st.text(max_size=100), st.lists(st.text(max_size=30), max_size=3).map(tuple),
              st.sampled_from([2, 3, 5])),
), min_size=4, max_size=12)


@dataclass
class Bed:
    driver: Driver
    runner: BotRunner
    users: list[User]
    channels: list[Channel]
    table_ids: list[int]


@contextlib.asynccontextmanager
async def bed(root: Path) -> AsyncIterator[Bed]:
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord(rate_limits=RateLimitConfig.discord_like(time_scale=0.1)) as fake:
        point_discord_at(fake.api_base)
        driver = Driver(fake)
        guild = driver.add_guild("Fuzz")
        channels = [driver.add_channel(guild, "dubb"), driver.add_channel(guild, "tonk")]
        users = [driver.add_user(n) for n in ("Anna", "Bo", "Cem", "Dag", "Mallory")]
        runner = BotRunner(fake, driver, root / "kortbord.sqlite3")
        try:
            await runner.start()
            dubb = await dubb_table.open_table(driver, channels[0], users[0], [users[1]])
            tonk = await tonk_table.open_table(runner, driver, channels[1], users[2], [users[3]],
                                               seed=7)
            yield Bed(driver, runner, users, channels,
                      [dubb_table.table_id_of(dubb.table), tonk.table_id])
        finally:
            await runner.stop()
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


def _leaves(commands: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every chat command a user can run, with its declared options."""
    out = []
    for command in commands:
        subs = [o for o in command.get("options", []) if o["type"] == SUBCOMMAND]
        if subs:
            out += [(f"{command['name']} {s['name']}", s.get("options", [])) for s in subs]
        else:
            out.append((command["name"], command.get("options", [])))
    return sorted(out)


def _fits(definition: dict[str, Any], value: Any) -> bool | None:
    """Whether ``value`` is within what the option declares; ``None`` if it is of the wrong type
    (Discord itself would not deliver it)."""
    kind = definition["type"]
    if kind == OPTION_STRING and isinstance(value, str):
        fits = definition.get("min_length", 0) <= len(value) <= definition.get("max_length",
                                                                                 6000)
    elif kind == OPTION_INTEGER and isinstance(value, int) and not isinstance(value, bool):
        fits = (definition.get("min_value", -(2**53)) <= value
                <= definition.get("max_value", 2**53))
    elif kind == OPTION_BOOLEAN and isinstance(value, bool):
        return True
    else:
        return None
    choices = definition.get("choices")
    return fits and (not choices or value in [c["value"] for c in choices])


async def _states(bed: Bed) -> list[tuple[int, int] | None]:
    service = bed.runner.bot.service  # type: ignore[union-attr]
    out: list[tuple[int, int] | None] = []
    for channel in bed.channels:
        snap = await service.get(channel.id)
        out.append(None if snap is None else (snap.table_id, snap.version))
    return out


def _forged_id(bed: Bed, forge: Forge) -> str:
    table = bed.table_ids[forge.channel]
    other = bed.table_ids[1 - forge.channel]
    return [
        "kb:tonk:0:ledger:0:s",
        f"ks:dubb:{table}:rank:{len(forge.text)}",
        f"kb:{'tonk' if forge.channel == 0 else 'dubb'}:{other}:draw:0",
        f"kb:dubb:{table + 1000}:hand",
        f"kb:tonk:{table}:deal:{len(forge.text) * 10**40}",
        forge.text,
    ][forge.kind]


async def _act(bed: Bed, action: Slash | Complete | Forge,
               leaves: list[tuple[str, list[dict[str, Any]]]]) -> bool:
    """Do one hostile action; ``True`` when the action was invalid for sure, so nothing may
    change."""
    driver = bed.driver
    user, channel = bed.users[action.user], bed.channels[action.channel]
    if isinstance(action, Forge):
        table = _table(driver, channel)
        custom_id = _forged_id(bed, action)
        try:
            result = await driver.forge_click(
                user, table, custom_id, list(action.values) or None,
                component_type=action.component_type, validated_by_discord=False)
        except (DriverError, InteractionRejected):
            return True  # malformed beyond what Discord's API takes: nothing was sent
        assert not result.failed
        on_message = any(c.get("custom_id") == custom_id for c in table.interactive_components())
        return not on_message
    command, options = leaves[action.command % len(leaves)]
    if isinstance(action, Complete):
        strings = [o for o in options if o["type"] == OPTION_STRING and o.get("autocomplete")]
        if not strings:
            return False
        focused = strings[action.command % len(strings)]
        values = {focused["name"]: action.text[:6000]}
        with contextlib.suppress(DriverError):
            choices = await driver.autocomplete(user, channel, command, values,
                                                focused=focused["name"], validate=False)
            assert isinstance(choices, list) and len(choices) <= 25
        return True
    given_values: dict[str, Any] = {}
    invalid = False
    for definition, value in zip(options, action.values, strict=False):
        fits = _fits(definition, value)
        if fits is None:
            continue
        given_values[definition["name"]] = value
        invalid = invalid or not fits
    if sum(len(v) for v in given_values.values() if isinstance(v, str)) > 6000:
        return False
    try:
        result = await driver.slash(user, channel, command, given_values, validate=False)
    except DriverError:
        return True  # a required option missing: Discord's client would not send it
    assert not result.failed, result
    return invalid


def _table(driver: Driver, channel: Channel) -> StoredMessage:
    """The channel's table message (or, once a game was stopped, its last message)."""
    messages = driver.channel_messages(channel)
    live = [m for m in messages if card(m) is not None and m.interactive_components()]
    return (live or messages)[-1]


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps=actions)
def test_hostile_input_gets_an_answer_and_changes_nothing_it_should_not(
    steps: list[Slash | Complete | Forge],
) -> None:
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    try:
        with tempfile.TemporaryDirectory() as root:
            asyncio.run(_fuzz(Path(root), steps))
    finally:
        logging.getLogger().removeHandler(errors)
    assert errors.report() == []


async def _fuzz(root: Path, steps: list[Slash | Complete | Forge]) -> None:
    async with bed(root) as b:
        b.driver.allow_rate_limits()  # hostile bursts may meet Discord's limits; not the point
        leaves = _leaves(b.driver.fake.commands())
        for step in steps:
            before = await _states(b)
            invalid = await _act(b, step, leaves)
            if invalid:
                assert await _states(b) == before, step
        problems = [p for p in b.driver.problems() if "429" not in p]
        assert problems == []
        for channel in b.channels:
            for message in b.driver.channel_messages(channel):
                assert "Your hand (" not in message.text
        store = await Store.open(root / "kortbord.sqlite3")
        try:
            for table_id in b.table_ids:
                await check_against_log(store, table_id)
        finally:
            await store.close()
