"""Exported files as a test reads them from the fake, and ``python -m bot.verify`` run on them
alone, as anyone who downloaded them would."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

from bot.fakediscord.driver import InteractionResult
from tests.e2e.table_card import card
from tests.forks import run

ROOT = Path(__file__).resolve().parents[2]
FILE = 13
ANYONES = {"deal_next_hand", "table_deals", "table_closes"}
"""Moves any seated player may make: said to be another player's, they still replay."""


def files_of(answer: InteractionResult) -> dict[str, bytes]:
    """The answer's files; the answer is a layout in the look of the bot's other answers
    that shows each of them in a File component (issue 44)."""
    assert answer.ephemeral, answer.content
    message = answer.message
    assert message is not None
    assert card(message) is not None, message.components
    shown = [part["file"]["url"] for part in message.components[0]["components"]
             if part["type"] == FILE]
    assert shown == [a.url for a in message.attachments], message.components
    return {a.filename: a.data for a in message.attachments}


async def verify_file(path: Path) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(run, "bot.verify", [str(path)], cwd=ROOT, timeout=120)


async def verifies_and_tampering_fails(data: bytes, tmp_path: Path, name: str,
                                        payment: bool) -> list[dict[str, Any]]:
    """The exported file verifies alone (exit 0); with a move edited, or a payment, it does not
    (exit 1)."""
    export = tmp_path / name
    export.write_bytes(data)
    done = await verify_file(export)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout and "ok   table" in done.stdout
    records: list[dict[str, Any]] = json.loads(data)
    # a move said to be another player's: the replay refuses it
    moved = json.loads(data)
    # the first move that was a seat's own to make: anyone seated may deal Tonk's next hand
    # (a hand that ended on its deal leaves such a move first)
    move = next(m for m in moved[0]["moves"] if m["move"].get("type") not in ANYONES)
    move["player"] = next(int(s["player_id"]) for s in moved[0]["start"]["seats"]
                          if int(s["player_id"]) != move["player"])
    (tmp_path / f"moved-{name}").write_text(json.dumps(moved))
    done = await verify_file(tmp_path / f"moved-{name}")
    assert done.returncode == 1 and "FAIL table" in done.stdout, done.stdout
    if payment:
        paid = json.loads(data)
        paid[0]["payments"][0][3] += 1
        (tmp_path / f"paid-{name}").write_text(json.dumps(paid))
        done = await verify_file(tmp_path / f"paid-{name}")
        assert done.returncode == 1 and "FAIL table" in done.stdout and "ledger rows" in (
            done.stdout), done.stdout
    return records
