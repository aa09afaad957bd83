"""Comparing strategies in the simulators: seatings that cancel seat advantage, the intervals,
and the Dubb simulator's ``--strategies`` report."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from bot.games.dubb import DubbOptions, sim
from bot.sim.stats import Z95, Mean, lineups


def test_lineups_put_every_strategy_in_every_seat_equally() -> None:
    seatings = lineups(["smart", "greedy"], 4)
    assert len(seatings) == 6 and len(set(seatings)) == 6
    for seat in range(4):
        assert Counter(s[seat] for s in seatings) == {"smart": 3, "greedy": 3}
    assert lineups(["a", "b", "c"], 3) == sorted({*lineups(["a", "b", "c"], 3)})
    assert len(lineups(["a", "b", "c"], 3)) == 6  # both orders around the table
    assert lineups(["greedy"], 5) == [("greedy",) * 5]
    with pytest.raises(ValueError):
        lineups(["a", "b", "c"], 2)


def test_mean_and_interval_match_the_textbook_formula() -> None:
    xs = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    m = Mean()
    for x in xs:
        m.add(x)
    mu = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / (len(xs) - 1))
    assert m.n == 8 and m.mean == pytest.approx(mu)
    assert m.half_width == pytest.approx(Z95 * sd / math.sqrt(len(xs)))
    assert m.ci95() == [round(mu - m.half_width, 5), round(mu + m.half_width, 5)]
    one = Mean()
    one.add(3.0)
    assert one.half_width == 0.0


def test_strategies_report_loss_rates_that_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    code = sim.main(["--games", "120", "--players", "4", "--seed", "2", "--strategies",
                     "smart,greedy", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    per = out["strategies"]
    assert set(per) == {"smart", "greedy"}
    assert per["smart"]["seats"] == per["greedy"]["seats"] == 240
    assert per["smart"]["losses"] + per["greedy"]["losses"] == 120 == sum(out["losses_by_seat"])
    for t in per.values():
        assert t["loss_rate"] == pytest.approx(t["losses"] / t["seats"], abs=1e-5)
        lo, hi = t["ci95"]
        assert lo <= t["loss_rate"] <= hi
    (diff,) = out["strategy_differences"]
    assert diff["strategies"] == ["greedy", "smart"]
    expected = per["greedy"]["loss_rate"] - per["smart"]["loss_rate"]
    assert diff["loss_rate_difference"] == pytest.approx(expected, abs=1e-4)
    assert out["seatings"] == 6 and out["even_loss_rate"] == 0.25
    assert out["invariant_violations"] == 0


def test_one_strategy_runs_as_before_and_three_rotate(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim.main(["--games", "30", "--players", "3", "--strategy", "greedy", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert list(alone["strategies"]) == ["greedy"] and alone["strategy_differences"] == []
    assert sim.main(["--games", "30", "--players", "3", "--strategies",
                     "smart,greedy,random"]) == 0
    text = capsys.readouterr().out
    assert "over 6 seatings" in text and "random" in text and "greedy − random" in text


def test_strategy_rotation_gives_each_strategy_each_seat() -> None:
    stats = sim.run(6, 3, 1, "greedy", DubbOptions(), checks=True,
                    strategies=("smart", "greedy", "random"))
    assert stats.seatings == 6
    assert {name: t.seats for name, t in stats.by_strategy.items()} == {
        "smart": 6, "greedy": 6, "random": 6}


@pytest.mark.parametrize("argv", [["--strategies", "smart,clever"],
                                  ["--players", "2", "--strategies", "smart,greedy,random"]])
def test_bad_strategy_lists_are_refused(argv: list[str]) -> None:
    try:
        code = sim.main(argv)
    except SystemExit as e:
        code = e.code  # argparse refuses an unknown name itself
    assert code == 2
