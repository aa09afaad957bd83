"""Exports cut to Discord's attachment limit (bot.table.exports): every part is whole and
useful alone — a CSV part has the header, a JSON part is a list of whole records — and a
player's name never reaches a spreadsheet as a formula; `/kortbord verify`'s lines fit its
answer, a Components V2 layout, failed checks first to stay (bot.discord.exports)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from bot.discord.exports import checks_layout, checks_text
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.validation import FLAG_IS_COMPONENTS_V2, validate_message_body
from bot.i18n import LANGUAGES, L
from bot.storage import ChainedEntry
from bot.storage.chain import GENESIS
from bot.table.exports import (
    LEDGER_COLUMNS,
    TooLargeError,
    ledger_csv,
    ledger_row,
    records_json,
)
from bot.table.record import Check


def _entry(n: int, payer_name: str = "Anna") -> ChainedEntry:
    return ChainedEntry(id=n, guild_id=5, kind="game", season=1, table_id=7, hand_no=n,
                        payer_id=1, payer_name=payer_name, payee_id=2, payee_name="Bo",
                        amount=n, reason="drop", created_at=1_700_000_000.0 + n, chain_seq=n,
                        previous=GENESIS, digest=f"{n:064x}")


def _rows(part: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(part.decode("utf-8"))))


def test_a_ledger_in_parts_repeats_the_header_and_keeps_every_row_in_order() -> None:
    entries = [_entry(n) for n in range(1, 41)]
    whole = ledger_csv(entries, 10 * 1024 * 1024)
    assert len(whole) == 1
    parts = ledger_csv(entries, 1000)
    assert len(parts) > 3 and all(len(p) <= 1000 for p in parts)
    rows = [_rows(p) for p in parts]
    assert all(r[0] == list(LEDGER_COLUMNS) for r in rows)
    assert [row for r in rows for row in r[1:]] == _rows(whole[0])[1:]
    assert [int(row[0]) for r in rows for row in r[1:]] == list(range(1, 41))
    assert _rows(ledger_csv([], 1000)[0]) == [list(LEDGER_COLUMNS)]


@pytest.mark.parametrize("name", ["=HYPERLINK(\"x\")", "+1", "-1", "@SUM(A1)"])
def test_a_name_a_spreadsheet_would_run_is_kept_as_text(name: str) -> None:
    row = ledger_row(_entry(1, payer_name=name))
    assert row[LEDGER_COLUMNS.index("payer_name")] == "'" + name
    assert ledger_row(_entry(1, "Anna"))[LEDGER_COLUMNS.index("payer_name")] == "Anna"
    assert ledger_row(_entry(1))[LEDGER_COLUMNS.index("written_at")] == "2023-11-14T22:13:21+00:00"


def test_records_in_parts_are_lists_of_whole_records_and_one_too_large_is_refused() -> None:
    records = [{"table": n, "moves": ["x" * 300]} for n in range(10)]
    parts = records_json(records, 1000)
    assert len(parts) > 3 and all(len(p) <= 1000 for p in parts)
    assert [r for p in parts for r in json.loads(p)] == records
    assert json.loads(records_json(records, 1 << 20)[0]) == records
    with pytest.raises(TooLargeError):
        records_json([{"moves": ["x" * 2000]}], 1000)


def test_verify_lines_fit_an_embed_and_keep_every_failed_check() -> None:
    checks = [Check(L("table {table} hand {hand} commitment matches its secret", table=1,
                      hand=h), True) for h in range(1, 200)]
    checks.insert(150, Check(L("table {table} move {n} replays", table=1, n=3), False,
                             L("it gives other events than recorded")))
    text = checks_text(checks, "en", limit=1000)
    assert len(text) <= 1000
    lines = text.split("\n")
    assert "❌ table 1 move 3 replays: it gives other events than recorded" in lines
    shown = sum(line.startswith("✅") for line in lines)
    assert lines[-1] == f"…and {199 - shown} more passed checks."
    assert checks_text(checks[:3], "da").split("\n")[0].startswith("✅ bord 1 runde 1: ")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_verify_answer_of_a_long_session_fits_a_layout_with_its_failed_check(
        lang: str) -> None:
    checks = [Check(L("table {table} hand {hand} commitment matches its secret", table=1,
                      hand=h), True) for h in range(1, 400)]
    checks.insert(350, Check(L("table {table} move {n} replays", table=1, n=3), False,
                             L("it gives other events than recorded")))
    components = checks_layout(checks, "Tonk", 1, lang).to_components()
    form = FormErrors()
    validate_message_body(form, (), {"flags": FLAG_IS_COMPONENTS_V2, "components": components})
    form.raise_if_any()
    texts = [c["content"] for c in components[0]["components"] if c["type"] == 10]
    assert sum(len(t) for t in texts) <= 4000
    assert texts[-1].startswith("-# ")  # the small print, whole
    failed = checks[350].text(lang)
    assert any(f"❌ {failed}" in t for t in texts), texts
