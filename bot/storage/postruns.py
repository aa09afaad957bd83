"""Which process runs may have posted a table message they never recorded, so that a restart
after a clean stop needs no look for strays (issue 49).

A table message is posted, then its id recorded; a process killed in between leaves a post
nobody recorded, which the next process finds only by reading the channel (the look for
strays). A run claims the tables it may post before it posts them: all it may write at its
start, in one statement, and any other before its first post of it (a row of
``posting_runs``). A clean stop, every post of the run recorded, removes its rows; a killed
run's stay. So a table with no row at all has no unrecorded post, whoever wrote it, and its
next process skips the look; one with a row of another run, or of the run itself after a post
that may have gone out unrecorded, is looked at as before. A run's rows are never removed by
another run (but those of a table that is over and shows its end, which nothing writes
again): it cannot tell a killed run from one still running beside it.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.storage.database import Tx
from bot.storage.models import Shards
from bot.storage.part import StorePart, shard_filter
from bot.storage.tablerows import LIVE

WRITABLE = ("message_id IS NOT NULL AND "
            "({live} OR shown_version {is_not} version OR strays_from IS NOT NULL)")
"""The tables a process may post a message of: those with one already (a post before the first
record cannot be looked for: the look reads from the recorded message on) that are live or are
redrawn at start-up."""


class PostRuns(StorePart):
    """The runs that may have posted a table message unrecorded, and the tokens that edit
    them."""

    async def claim_posts(self, run_id: int, *, shards: Shards | None = None
                          ) -> dict[int, bool]:
        """Claim for ``run_id`` every table it may post a message of (of the servers
        ``shards`` owns): each claimed, and whether every post of it is recorded (no run
        claimed it: the last one stopped cleanly)."""
        owned, params = shard_filter(shards)
        writable = WRITABLE.format(live=LIVE, is_not=self._db.is_not)

        async def body(db: Tx) -> dict[int, bool]:
            rows = await db.fetch(
                f"SELECT id, NOT EXISTS (SELECT 1 FROM posting_runs "
                f"WHERE posting_runs.table_id = tables.id) FROM tables WHERE {writable}{owned}",
                params)
            await db.execute(
                f"INSERT INTO posting_runs (table_id, run_id) SELECT id, ? FROM tables "
                f"WHERE {writable}{owned} ON CONFLICT DO NOTHING", [run_id, *params])
            return {int(r[0]): bool(r[1]) for r in rows}

        return await self._transaction(body)

    async def hold_posts(self, table_id: int, run_id: int) -> None:
        """``run_id`` is about to post a message of the table it did not claim at its start."""

        async def body(db: Tx) -> None:
            await db.execute("INSERT INTO posting_runs (table_id, run_id) VALUES (?, ?) "
                             "ON CONFLICT DO NOTHING", (table_id, run_id))

        await self._transaction(body)

    async def release_posts(self, run_id: int, *, keep: Collection[int] = ()) -> None:
        """``run_id`` stops cleanly: each of its posts is recorded, but those of the tables in
        ``keep`` (a post that may have gone out unrecorded). The claims on tables that are over
        and show their end go too, whichever run's: such a table is never written again."""
        kept = sorted(keep)
        marks = ", ".join("?" for _ in kept)
        but = f" AND table_id NOT IN ({marks})" if kept else ""

        async def body(db: Tx) -> None:
            await db.execute(f"DELETE FROM posting_runs WHERE run_id = ?{but}",
                             [run_id, *kept])
            await db.execute(
                "DELETE FROM posting_runs WHERE table_id IN (SELECT id FROM tables WHERE "
                f"NOT {LIVE} AND shown_version = version AND strays_from IS NULL)")

        await self._transaction(body)

    async def forget_message_tokens(self, issued_before: float) -> int:
        """Clear the interaction tokens issued before ``issued_before``, too old to use (a
        credential is kept only while it is good); how many."""

        async def body(db: Tx) -> int:
            return await db.execute(
                "UPDATE tables SET message_token = NULL, message_token_at = NULL "
                "WHERE message_token IS NOT NULL AND message_token_at < ?", (issued_before,))

        return await self._transaction(body)
