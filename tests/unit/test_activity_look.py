"""The Activity's read of a channel's table (``bot.activity.look``) while the table keeps moving
(computers move at once): a scene's version must be the version of what it shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from bot.activity.look import TRIES, look
from bot.storage import MoveRecord

CHANNEL = 7


@dataclass
class Engine:
    """A table's engine: one object, shared by every snapshot of the table, moved on in place
    (as ``TableService`` does)."""

    moves: int = 0


@dataclass
class MovingTable:
    """The table service's reads of one channel's table, which moves on ``per_read`` times
    while each read of its move log is awaited."""

    per_read: int
    table_id: int = 1
    engine: Engine = field(default_factory=Engine)
    reads: int = 0

    async def get(self, channel_id: int, *, counter: int | None = None) -> Any:
        assert channel_id == CHANNEL
        moves = self.engine.moves
        return SimpleNamespace(table_id=self.table_id, version=moves, counter=moves,
                               engine=self.engine)

    async def moves(self, table_id: int, *, after: int = -1) -> list[MoveRecord]:
        self.reads += 1
        log = [MoveRecord(table_id=table_id, seq=seq, player_id=1, move={}, events=[],
                          created_at=0.0) for seq in range(after + 1, self.engine.moves + 1)]
        self.engine.moves += self.per_read
        return log


@pytest.mark.parametrize("per_read", [0, 1, 2])
async def test_the_version_read_is_the_version_shown(per_read: int) -> None:
    table = MovingTable(per_read=per_read)
    seen = await look(table, CHANNEL)  # type: ignore[arg-type]
    assert seen.snapshot is not None
    # what a scene draws (the engine) is what its version says, however the table moved
    assert seen.version == seen.snapshot.engine.moves
    # the lines were read for this table, at most a few moves before
    assert all(r.table_id == table.table_id for r in seen.records)
    assert table.reads == (1 if per_read == 0 else TRIES)


async def test_a_still_table_is_read_once_with_every_line() -> None:
    table = MovingTable(per_read=0)
    table.engine.moves = 3
    seen = await look(table, CHANNEL)  # type: ignore[arg-type]
    assert [r.seq for r in seen.records] == [0, 1, 2, 3] and seen.version == 3
