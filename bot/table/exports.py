"""What a server's managers and players take away from the bot (docs/fair-deals.md, "Exports"):
a game's ledger as CSV with each row's link in the hash chain, and finished tables' public
records as JSON that ``python -m bot.verify`` checks from the file alone.

Both are cut into files of at most a given size (Discord's attachment limit): a CSV part repeats
the header, a JSON part is a list of whole records, so every part is useful and checkable on its
own. Nothing here knows Discord or any game.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.errors import KortbordError
from bot.storage import ChainedEntry

LEDGER_COLUMNS = (
    "link", "server", "game", "season", "table", "hand", "payer_id", "payer_name",
    "payee_id", "payee_name", "amount", "reason", "written_at", "previous_digest", "digest",
)
"""The CSV's columns, in order (documented in docs/fair-deals.md)."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection")."""


class TooLargeError(KortbordError, ValueError):
    """One item alone is larger than a file may be."""


def _cell(name: str | None) -> str:
    """A player's name as a cell: a name a spreadsheet would run as a formula gets a leading
    ``'`` (names are not part of the chain, so the digests still check)."""
    text = name or ""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def ledger_row(entry: ChainedEntry) -> list[str]:
    written = datetime.fromtimestamp(entry.created_at, UTC).isoformat(timespec="seconds")
    return [str(entry.chain_seq), str(entry.guild_id), entry.kind, str(entry.season),
            str(entry.table_id), str(entry.hand_no), str(entry.payer_id),
            _cell(entry.payer_name), str(entry.payee_id), _cell(entry.payee_name),
            str(entry.amount), entry.reason, written, entry.previous, entry.digest]


def _csv_line(cells: Sequence[str]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    return out.getvalue().encode("utf-8")


def ledger_csv(entries: Iterable[ChainedEntry], limit: int) -> list[bytes]:
    """The rows as CSV files of at most ``limit`` bytes each, every one with the header (RFC
    4180: comma separated, CRLF, UTF-8)."""
    header = _csv_line(LEDGER_COLUMNS)
    return _parts(header, (_csv_line(ledger_row(e)) for e in entries), limit, b"", b"")


def records_json(records: Iterable[Mapping[str, Any]], limit: int) -> list[bytes]:
    """Public records as JSON files of at most ``limit`` bytes each, each file a list of whole
    records (what ``python -m bot.verify FILE`` reads)."""
    items = (json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
             for r in records)
    return _parts(b"[", items, limit, b",", b"]")


def _parts(opening: bytes, items: Iterable[bytes], limit: int, between: bytes,
           closing: bytes) -> list[bytes]:
    """``items`` packed in order into as few files as fit ``limit``; ``TooLargeError`` for an
    item that fits no file. No items still makes one file (an empty CSV has its header)."""
    parts: list[bytes] = []
    current: list[bytes] = []
    size = len(opening) + len(closing)
    for item in items:
        if len(opening) + len(item) + len(closing) > limit:
            raise TooLargeError(f"an item of {len(item)} bytes fits no file of {limit}")
        grown = size + len(item) + (len(between) if current else 0)
        if current and grown > limit:
            parts.append(opening + between.join(current) + closing)
            current, grown = [], len(opening) + len(item) + len(closing)
        current.append(item)
        size = grown
    parts.append(opening + between.join(current) + closing)
    return parts
