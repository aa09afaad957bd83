"""The Tonk simulator: clean runs for every player count, variation and strategy."""

from __future__ import annotations

import json

import pytest

from bot.games.tonk import TonkOptions
from bot.games.tonk.sim import main, run

VARIATIONS = [
    TonkOptions(),
    TonkOptions(upcard=False),
    TonkOptions(must_spread=True),
    TonkOptions(double_needs_spread=True),
    TonkOptions(hit_lock=True, stake=3),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("options", VARIATIONS)
def test_sim_runs_clean(players: int, strategy: str, options: TonkOptions) -> None:
    report = run(60, players, 7, [strategy] * players, options)
    assert report["hands"] == 60
    assert report["invariant_violations"] == 0
    assert report["cap_hits"] == 0
    assert report["ledger_sum"] == 0
    assert sum(report["ended"].values()) == 60


def test_sim_main_prints_json_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--hands", "30", "--players", "3", "--seed", "1", "--strategy",
                 "greedy,random,random", "--hit-lock", "--must-spread", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("hands", "moves", "seconds", "moves_per_second", "cap_hits",
                "invariant_violations", "ledger_sum", "ended"):
        assert key in report
    assert report["options"]["hit_lock"] and report["options"]["must_spread"]


def test_sim_is_reproducible() -> None:
    a = run(40, 3, 5, ["greedy"] * 3, TonkOptions())
    b = run(40, 3, 5, ["greedy"] * 3, TonkOptions())
    assert (a["moves"], a["ended"], a["balances"]) == (b["moves"], b["ended"], b["balances"])


@pytest.mark.parametrize("argv", [["--players", "5"], ["--strategy", "clever"],
                                  ["--strategies", "smart,clever"], ["--stake", "0"],
                                  ["--hands", "0"], ["--strategies", "a,b,c,d"]])
def test_sim_rejects_bad_arguments(argv: list[str]) -> None:
    assert main(argv) == 2


def test_sim_compares_strategies_over_reseated_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--hands", "90", "--players", "3", "--seed", "2", "--strategies",
                 "smart,greedy,random", "--table-hands", "10", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["hands"] == 90 and report["tables"] == 9 and report["seatings"] == 6
    per = report["strategies"]
    assert set(per) == {"smart", "greedy", "random"}
    assert all(t["seat_hands"] == 90 for t in per.values())
    assert sum(t["net_chips"] for t in per.values()) == 0 == report["ledger_sum"]
    for t in per.values():
        assert t["net_per_hand"] == pytest.approx(t["net_chips"] / t["seat_hands"], abs=1e-4)
        lo, hi = t["ci95"]
        assert lo <= t["net_per_hand"] <= hi
        assert t["ci95_by_table"] is not None
    pairs = {tuple(d["strategies"]): d for d in report["strategy_differences"]}
    assert set(pairs) == {("greedy", "random"), ("greedy", "smart"), ("random", "smart")}
    expected = per["greedy"]["net_per_hand"] - per["smart"]["net_per_hand"]
    assert pairs[("greedy", "smart")]["net_per_hand_difference"] == pytest.approx(expected,
                                                                                  abs=1e-4)


def test_sim_single_table_reports_strategies_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "20", "--strategy", "greedy,random,random"]) == 0
    text = capsys.readouterr().out
    assert "net chips per seat per hand" in text and "greedy − random" in text
    report = run(20, 3, 1, ["greedy", "random", "random"], TonkOptions())
    assert report["seat_strategies"] == ["greedy", "random", "random"]
    assert report["strategies"]["random"]["seat_hands"] == 40
    assert report["strategies"]["greedy"]["ci95_by_table"] is None
