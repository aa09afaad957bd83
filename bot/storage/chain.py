"""The ledger's hash chain: every server's ledger rows form one append-only log.

Row ``n`` of a server (``chain_seq``, from 1) carries ``digest = SHA-256(json([previous digest,
n, guild, kind, season, table, hand, payer, payee, amount, reason]))`` (compact JSON, ASCII;
the first row's previous digest is ``GENESIS``), and ``ledger_heads`` keeps each server's last
``(seq, digest)``. Editing, inserting or deleting a row anywhere, the last included, breaks the
chain from there on (docs/fair-deals.md).

Rows written before the chain existed are chained, in id order, when their server's next
payment is written (or by ``python -m bot.ops audit``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from bot.storage.database import Tx

GENESIS = "0" * 64
CHAINED_COLUMNS = "guild_id, kind, season, table_id, hand_no, payer_id, payee_id, amount, reason"


def row_digest(previous: str, seq: int, fields: Sequence[object]) -> str:
    """``fields``: the row's ``CHAINED_COLUMNS``, in that order."""
    text = json.dumps([previous, seq, *fields], separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


async def head(db: Tx, guild_id: int) -> tuple[int, str]:
    """The server's last link, taken for this transaction (PostgreSQL locks the head row, so a
    second writer of the same server waits and then sees this one's head); rows not yet chained
    are chained first."""
    rows = await db.fetch(
        "INSERT INTO ledger_heads (guild_id, seq, digest) VALUES (?, 0, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET seq = ledger_heads.seq RETURNING seq, digest",
        (guild_id, GENESIS),
    )
    seq, digest = int(rows[0][0]), str(rows[0][1])
    loose = await db.fetch(
        f"SELECT id, {CHAINED_COLUMNS} FROM ledger WHERE guild_id = ? AND digest IS NULL "
        "ORDER BY id", (guild_id,))
    if not loose:
        return seq, digest
    for row in loose:
        seq += 1
        digest = row_digest(digest, seq, row[1:])
        await db.execute("UPDATE ledger SET chain_seq = ?, digest = ? WHERE id = ?",
                         (seq, digest, row[0]))
    await set_head(db, guild_id, seq, digest)
    return seq, digest


async def set_head(db: Tx, guild_id: int, seq: int, digest: str) -> None:
    await db.execute("UPDATE ledger_heads SET seq = ?, digest = ? WHERE guild_id = ?",
                     (seq, digest, guild_id))
