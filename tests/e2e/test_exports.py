"""Exports end to end through the fake Discord (issue 35): a Tonk session of several hands,
exported with `/tonk history export:` and `/tonk ledger export:`; the files' bytes are taken from
the fake and checked with ``python -m bot.verify`` on the file alone, which fails once a move or
a payment in the file is edited. `/kortbord verify` answers privately with one line per check, in
the reader's language. (A Dubb game's export is tests/e2e/test_fair_deals.py's.)"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from bot.fakediscord import Driver
from bot.fakediscord import interactions as fake_interactions
from bot.storage import chain
from bot.table.exports import LEDGER_COLUMNS
from tests.e2e.conftest import BotRunner, World
from tests.e2e.exported import files_of, verifies_and_tampering_fails
from tests.e2e.table_card import card
from tests.e2e.tonk_table import drop_when_not_lowest
from tests.e2e.tonk_table import open_table as open_tonk

# whole games to their end: about what is exported, not about the rate limits
pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]
HANDS = 3
SMALL_LIMIT = 1000
HEAD = re.compile(r"link (\d+), digest `([0-9a-f]{64})`")


async def _tonk_session(bot: BotRunner, driver: Driver, world: World) -> int:
    """Three hands at a table of three (each pays), then the host stops the table."""
    play = await open_tonk(bot, driver, world.channel, world.anna, [world.bo, world.cem])
    users = list(play.users.values())
    for n in range(HANDS):
        if n:
            await play.deal("buttons", users[n % len(users)])
        await play.play_hand(drop_when_not_lowest, "buttons")
    stopped = await driver.slash(world.anna, world.channel, "tonk stop")
    assert stopped.ephemeral, stopped.content
    return play.table_id


def _ledger_rows(data: bytes) -> list[dict[str, str]]:
    text = data.decode("utf-8")
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames or ()) == LEDGER_COLUMNS
    return list(reader)


async def test_a_tonk_session_exports_its_history_and_ledger_and_verifies_from_the_files(
    bot: BotRunner, driver: Driver, world: World, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await _tonk_session(bot, driver, world)

    exported = await driver.slash(world.bo, world.channel, "tonk history", {"export": True})
    files = files_of(exported)
    assert list(files) == [f"history-tonk-{world.guild.id}-table-{table_id}.json"]
    assert "python -m bot.verify" in exported.content
    records = await verifies_and_tampering_fails(next(iter(files.values())), tmp_path,
                                                  "tonk.json", payment=True)
    assert [r["table"] for r in records] == [table_id]
    assert len(records[0]["hands"]) >= HANDS and records[0]["payments"]
    # what the table revealed, and nothing it kept: no table secret in the export
    assert "master" not in json.dumps(records)

    # the ledger: only for Manage Server, the rows with their links, digests that recompute
    refused = await driver.slash(world.anna, world.channel, "tonk ledger", {"export": "season"})
    assert refused.ephemeral and "Manage Server" in refused.content
    assert not refused.message or not refused.message.attachments
    owner = driver.add_user("Owner Olga", admin=True)
    ledger = await driver.slash(owner, world.channel, "tonk ledger", {"export": "season"})
    files = files_of(ledger)
    assert list(files) == [f"ledger-tonk-{world.guild.id}-season-1.csv"]
    rows = _ledger_rows(next(iter(files.values())))
    paid = sorted([r[0], r[1], r[2], r[3], r[4]] for r in records[0]["payments"])
    assert sorted([int(r["hand"]), int(r["payer_id"]), int(r["payee_id"]), int(r["amount"]),
                   r["reason"]] for r in rows) == paid
    previous = chain.GENESIS
    for row in rows:
        assert row["previous_digest"] == previous
        assert row["digest"] == chain.row_digest(previous, int(row["link"]), [
            int(row["server"]), row["game"], int(row["season"]), int(row["table"]),
            int(row["hand"]), int(row["payer_id"]), int(row["payee_id"]), int(row["amount"]),
            row["reason"]])
        previous = row["digest"]
    head = HEAD.search(ledger.content)
    assert head is not None and head.groups() == (rows[-1]["link"], previous)
    assert {r["payer_name"] for r in rows} <= {"Anna", "Bo", "Cem"}
    everything = await driver.slash(owner, world.channel, "tonk ledger", {"export": "all"})
    assert _ledger_rows(next(iter(files_of(everything).values()))) == rows

    # /kortbord verify: the same checks, one line each, privately, in the reader's language
    checked = await driver.slash(world.cem, world.channel, "kortbord verify",
                                 {"table": table_id})
    assert checked.ephemeral and checked.message is not None
    embed = card(checked.message)
    assert embed["title"].startswith(f"Tonk #{table_id}: ") and "all passed" in embed["title"]
    lines = embed["description"].split("\n")
    assert all(line.startswith("✅ ") for line in lines)
    assert any("commitment matches its secret" in line for line in lines)
    assert any("ledger rows match the payments" in line for line in lines)
    driver.set_locale(world.cem, "sv-SE")
    swedish = await driver.slash(world.cem, world.channel, "kortbord verify",
                                 {"table": table_id})
    assert swedish.message is not None
    assert "godkända" in card(swedish.message)["title"]
    assert "förhandslåsningen stämmer" in card(swedish.message)["description"]

    # a server whose attachment limit is small (the limit each interaction reports): the ledger
    # comes in parts, each with the header; a record that fits no file is refused, privately
    monkeypatch.setattr(fake_interactions, "ATTACHMENT_SIZE_LIMIT", SMALL_LIMIT)
    parted = await driver.slash(owner, world.channel, "tonk ledger", {"export": "season"})
    parts = files_of(parted)
    assert len(parts) > 1 and all(len(p) <= SMALL_LIMIT for p in parts.values())
    stem = f"ledger-tonk-{world.guild.id}-season-1"
    assert list(parts) == [f"{stem}-part{n}-of-{len(parts)}.csv" for n in range(1, len(parts) + 1)]
    assert [r for p in parts.values() for r in _ledger_rows(p)] == rows
    swedish = await driver.slash(world.cem, world.channel, "tonk history", {"export": True})
    assert swedish.ephemeral and "större än Discord låter mig bifoga" in swedish.content
    assert swedish.message is not None and not swedish.message.attachments
