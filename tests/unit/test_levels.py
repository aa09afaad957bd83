"""Issue 34: a computer's level is part of its id, every computer seated before levels reads as
normal, and a level stored under its strategy's old name still reads."""

from __future__ import annotations

from bot.games.registry import GAMES
from bot.storage import SeatInfo
from bot.table.computers import (
    computer_level,
    free_computer,
    game_levels,
    level_name,
    strategy_for,
)
from bot.table.settings import GameDefaults


def test_levels_live_in_the_computers_ids() -> None:
    assert [computer_level(-n) for n in (1, 8)] == ["normal", "normal"]
    assert [computer_level(-n) for n in (101, 201, 999)] == ["easy", "expert", "normal"]
    seated = [SeatInfo(player_id=-1, name="Astrid", is_computer=True)]
    assert free_computer(seated) == (-2, "Bertil")
    assert free_computer(seated, "expert") == (-201, "Rut")
    assert free_computer(seated, "easy") == (-101, "Ivar")
    for game in GAMES.values():
        assert game_levels(game) == ["easy", "normal", "expert"]
        assert [strategy_for(game, p) for p in (-1, -101, -201)] == ["smart", "greedy", "expert"]


def test_a_level_stored_by_its_strategys_name_reads_as_the_level() -> None:
    assert [level_name(x) for x in ("smart", "greedy", "expert", "easy", "hard", None)] == [
        "normal", "easy", "expert", "easy", None, None]
    stored = GameDefaults.model_validate({"turn_seconds": 60, "computer_level": "smart"})
    assert level_name(stored.computer_level) == "normal"
    assert GameDefaults.model_validate({"turn_seconds": 60}).computer_level is None
