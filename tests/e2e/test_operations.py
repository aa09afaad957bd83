"""Running the bot for real (issue 37), end to end: ``python -m bot`` with ``METRICS_PORT``,
``LOG_FORMAT=json`` and ``LOG_LEVEL=DEBUG`` plays a Dubb and a Tonk table (a person and a
computer each) through the fake Discord. A scrape of ``/metrics`` before and during play shows
the moves, interactions, answers, requests and transactions counted as they are made; every log
line is one JSON object, and none holds a card of any hand shown during the games, nor anything
of a hand in any other spelling."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.fakediscord import Driver, FakeDiscord, User
from tests.e2e.conftest import SubprocessBot, World
from tests.e2e.table_players import Player, hands_ended, open_game, play_moves

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

_ADDRESS = re.compile(r"metrics and health checks on http://127\.0\.0\.1:(\d+)/")
CARD_SYMBOLS = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")
"""A card as the bot shows it in chat (``7♥``)."""
_CARD_CODE = re.compile(r"(?<![\w/])(?:10|[2-9JQKA])[shdc](?![\w/])")
_URL = re.compile(r"\S+://\S+")
_SUIT_WORDS = re.compile(r"\bof (hearts|spades|diamonds|clubs)\b", re.IGNORECASE)
Sample = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def cards_in(text: str) -> set[str]:
    """Every card written in ``text``, in the bot's chat spelling."""
    return set(CARD_SYMBOLS.findall(text))


def hand_traces(line: str) -> list[str]:
    """What in a log line would be (part of) a hand: a card in the chat spelling, as a code
    (``Kh``, as the menus' values and buttons' arguments carry them; URLs aside, whose tokens are
    random), or named in words (the pictures' alt text)."""
    found = CARD_SYMBOLS.findall(line) + _SUIT_WORDS.findall(line)
    found += _CARD_CODE.findall(_URL.sub("", line))
    return found


async def _scrape(port: int) -> Sample:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        text = await response.text()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def _value(sample: Sample, name: str, **labels: str) -> float:
    return sample.get((name, tuple(sorted(labels.items()))), 0.0)


def _total(sample: Sample, name: str, **labels: str) -> float:
    """The sum over every series of ``name`` that has ``labels``."""
    return sum(v for (n, ls), v in sample.items()
               if n == name and set(labels.items()) <= set(ls))


def _person_moves(players: Iterable[Player], game: str) -> int:
    return sum(len(p.acknowledged) for p in players if p.game == game)


async def test_metrics_count_the_moves_and_the_json_logs_hold_no_hand(
    subprocess_bot: SubprocessBot, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    subprocess_bot.env.update(METRICS_PORT="0", LOG_FORMAT="json", LOG_LEVEL="DEBUG",
                              COMPUTER_PAUSE="0")
    await subprocess_bot.start()
    found = _ADDRESS.search(subprocess_bot.output())
    assert found is not None, subprocess_bot.output()
    port = int(found.group(1))

    tonk_channel = driver.add_channel(world.guild, "tonk")
    people: list[User] = [world.anna, world.bo]
    dubb = await open_game(driver, world.channel, "dubb", [world.anna],
                           {"computers": 1, "turn_time": 0})
    tonk = await open_game(driver, tonk_channel, "tonk", [world.bo],
                           {"computers": 1, "turn_time": 0, "stake": 2})
    players = [dubb, tonk]

    before = await _scrape(port)
    assert _value(before, "kortbord_live_tables", game="dubb", status="playing") == 1
    assert _value(before, "kortbord_live_tables", game="tonk", status="playing") == 1
    assert _value(before, "kortbord_shards_connected") == 1, [k for k in before if "shard" in k[0]]
    counted = {g: _person_moves(players, g) for g in ("dubb", "tonk")}
    await play_moves(players, 6)
    during = await _scrape(port)
    moves = "kortbord_moves_total"
    # a computer answers after the person's click was acknowledged, so six moves can end on a
    # Tonk discard whose answer is still on its way: play on until each game's computer counted
    for _ in range(20):
        if all(_value(during, moves, game=g, by="computer")
               > _value(before, moves, game=g, by="computer") for g in counted):
            break
        await play_moves(players, 1)
        during = await _scrape(port)

    for game in ("dubb", "tonk"):
        made = _person_moves(players, game) - counted[game]
        assert made > 0, game
        assert (_value(during, moves, game=game, by="person")
                - _value(before, moves, game=game, by="person")) == made
        assert _value(during, moves, game=game, by="computer") > _value(
            before, moves, game=game, by="computer")
    clicks = sum(len(p.acknowledged) for p in players) - sum(counted.values())
    ok = "kortbord_interactions_total"
    assert (_value(during, ok, kind="component", outcome="ok")
            - _value(before, ok, kind="component", outcome="ok")) >= clicks
    answers = "kortbord_interaction_answer_seconds_count"
    assert _total(during, answers) - _total(before, answers) >= clicks
    edits = "kortbord_discord_requests_total"
    # the tables are written through the players' interactions (issue 32)
    assert _total(during, edits, route="interaction_followup") > _total(
        before, edits, route="interaction_followup")
    commits = "kortbord_database_transaction_seconds_count"
    assert _total(during, commits) - _total(before, commits) >= clicks

    # the games to their ends: Dubb's over, Tonk's first hands paid
    while not dubb.finished() or hands_ended(tonk) < 2:
        await play_moves([p for p in players if p is tonk or not p.finished()], 1)
    after = await _scrape(port)
    assert _value(after, "kortbord_live_tables", game="dubb", status="playing") == 0
    assert _total(after, "kortbord_interactions_total", outcome="unanswered") == 0
    # read at the end: with the tables written through interactions (issue 32) the first six
    # moves could be over before the loop-lag sampler (every 0.5 s) had taken its first sample
    assert _total(after, "kortbord_event_loop_lag_seconds_count") > 0

    shown: set[str] = set()
    for person in people:
        for panel in driver.ephemerals(person):
            shown |= cards_in(panel.text)
    assert shown, "no hand was shown"
    lines = subprocess_bot.output().splitlines()
    assert len(lines) > 100
    debug = 0
    for line in lines:
        record = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(record), line
        debug += record["level"] == "DEBUG"
        assert hand_traces(line) == [], line
        assert not cards_in(line) & shown
    assert debug > 0, "the bot logged nothing at DEBUG"
    contexts = [json.loads(line) for line in lines if '"interaction_id"' in line]
    assert contexts and all(r["guild_id"] == world.guild.id and "channel_id" in r
                            for r in contexts)
