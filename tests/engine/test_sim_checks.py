"""The simulators' invariant checks: the cheap check after every move, the full check at the
deal, after the last move of every game or hand and at least every ``FULL_CHECK_EVERY`` moves,
and a damaged engine is reported."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.games.dubb import DubbEngine, DubbOptions
from bot.games.dubb import engine as dubb_engine
from bot.games.dubb import sim as dubb_sim
from bot.games.tonk import TonkEngine, TonkOptions
from bot.games.tonk import sim as tonk_sim
from bot.sim.checks import FULL_CHECK_EVERY


def test_tonk_checks_every_move_and_every_hand_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    full, quick = tonk_sim.check_invariants, tonk_sim.check_quick

    def counted_full(table: TonkEngine) -> list[str]:
        calls.append("full")
        return full(table)

    def counted_quick(table: TonkEngine) -> list[str]:
        calls.append("quick")
        return quick(table)

    monkeypatch.setattr(tonk_sim, "check_invariants", counted_full)
    monkeypatch.setattr(tonk_sim, "check_quick", counted_quick)
    report = tonk_sim.run(40, 3, 3, ["greedy"] * 3, TonkOptions())
    assert report["invariant_violations"] == 0
    assert len(calls) == report["moves"] + 1
    assert calls[0] == "full" and calls[-1] == "full"
    assert Counter(calls)["full"] >= report["hands"] + 1
    longest = max(len(run) for run in "".join("." if c == "quick" else "|"
                                               for c in calls).split("|"))
    assert longest < FULL_CHECK_EVERY


def test_dubb_checks_every_move_and_every_game_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    full, quick = DubbEngine.check_invariants, DubbEngine.check_quick

    def counted_full(game: DubbEngine, full_deck: bool = True) -> list[str]:
        calls.append("full")
        return full(game, full_deck)

    def counted_quick(game: DubbEngine) -> list[str]:
        calls.append("quick")
        return quick(game)

    monkeypatch.setattr(DubbEngine, "check_invariants", counted_full)
    monkeypatch.setattr(DubbEngine, "check_quick", counted_quick)
    stats = dubb_sim.run(10, 4, 2, "random", DubbOptions(), True)
    assert stats.invariant_violations == 0
    assert len(calls) == stats.moves + stats.games
    marks = "".join("." if c == "quick" else "|" for c in calls)
    assert marks.count("|") >= 2 * stats.games
    assert max(len(run) for run in marks.split("|")) < FULL_CHECK_EVERY


def test_tonk_reports_a_table_that_loses_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    discard = TonkEngine._discard

    def leaky(self: TonkEngine, player_id: int, card: int) -> Any:
        events = discard(self, player_id, card)
        if self.turns == 3 and self._stock:
            self._stock.pop()
        return events

    monkeypatch.setattr(TonkEngine, "_discard", leaky)
    report = tonk_sim.run(20, 3, 3, ["greedy"] * 3, TonkOptions())
    assert report["invariant_violations"] > 0
    assert any("cards not conserved" in p for p in report["first_problems"])


def test_dubb_reports_a_game_that_doubles_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    advance = dubb_engine.advance

    def leaky(game: DubbEngine, s: int, events: list[Any]) -> None:
        advance(game, s, events)
        if game._move_count == 5 and game._draw:
            game._draw.append(game._draw[0])

    # the engine's move flow passes the turn on through the name it imported
    monkeypatch.setattr(dubb_engine, "advance", leaky)
    stats = dubb_sim.run(3, 4, 2, "random", DubbOptions(), True)
    assert stats.invariant_violations > 0
    assert any("cards not conserved" in e or "a card is in two places" in e
               for e in stats.examples)
