"""Benchmark a table write's drawing (not a test): the CPU from a table's state to the request's
payload — the face's render, the Components V2 layout, discord.py's message parameters — for
the positions of a Dubb game and a Tonk hand (three seats, Swedish) and for a lobby, per write,
on one core. Pictures are left out: ``bench_cards.py`` measures them.

    .venv/bin/python scripts/bench_layout.py [--reps 20] [--baseline OLD_CHECKOUT] [--rounds 3]

Each round measures this checkout and then the baseline (in turn first from round to round),
each in a fresh process that imports its own tree; a figure is the best of ``--reps`` loops
over all positions (the least disturbed by the machine), and the rounds' figures are reported
with their median.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NAMES = {1: "Anna", -1: "Astrid", -2: "Bo"}
LANG = "sv"


def _positions(engine: Any, options: Any, seed: int, most: int) -> list[Any]:
    """The public views of a game played at random from its start."""
    from bot.gamekit.contract import Seat

    game = engine.new([Seat(i, n) for i, n in NAMES.items()], options, seed=seed)
    rng = random.Random(seed)
    views = []
    while len(views) < most and game.to_move is not None:
        views.append(game.public_view())
        player = game.to_move
        game.apply(player, rng.choice(game.legal_moves(player)))
    return views


def _measure(reps: int) -> dict[str, float]:
    """µs per write, best of ``reps`` loops, for each case (in this process's tree)."""
    import discord
    from discord.http import handle_message_parameters

    from bot.discord.common import LobbySeat, fit, lobby_embed, lobby_view
    from bot.discord.cycles import empty_view
    from bot.discord.layout import table_layout
    from bot.discord.showing import TableRender
    from bot.games.dubb import DubbEngine, DubbOptions
    from bot.games.dubb.face import render as dubb_render
    from bot.games.tonk import TonkEngine, TonkOptions
    from bot.games.tonk.face import render as tonk_render

    latest = ["Bo drog ett kort."] * 4

    def send(render: Any) -> None:
        layout = table_layout(fit(render.embed), render.view, render.content, None,
                              render.seats)
        with handle_message_parameters(content=None, embed=None, view=layout):
            empty_view(layout)

    def dubb(view: Any) -> None:
        send(dubb_render.table_render(view, latest, NAMES, LANG, table_id=5, counter=9))

    def tonk(view: Any) -> None:
        send(tonk_render.table_render(view, latest, table_id=5, counter=9, names=NAMES,
                                      lang=LANG))

    def lobby(_: Any) -> None:
        embed = lobby_embed(title="Dubb", options_line="1 kortlek", seats=[
            LobbySeat(p, n, p < 0) for p, n in NAMES.items()], host_id=1, min_players=2,
            max_players=6, expires_at=None, lang=LANG)
        view = lobby_view("dubb", 5, LANG, ("easy", "normal", "expert"))
        send(TableRender(embed=embed, view=view))

    cases = {"dubb table": (dubb, _positions(DubbEngine, DubbOptions(), 5, 60)),
             "tonk table": (tonk, _positions(TonkEngine, TonkOptions(), 5, 60)),
             "lobby": (lobby, [None] * 60)}
    del discord  # imported first so that its import is not measured
    out = {}
    for name, (write, views) in cases.items():
        best = float("inf")
        for _ in range(reps):
            began = time.process_time()
            for view in views:
                write(view)
            best = min(best, (time.process_time() - began) / len(views) * 1e6)
        out[name] = best
    return out


def _run(tree: Path, reps: int) -> dict[str, float]:
    """``_measure`` in a fresh process importing ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    script = str(Path(__file__).resolve())
    code = (f"import json, runpy; m = runpy.run_path({script!r}); "
            f"print(json.dumps(m['_measure']({reps})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="a checkout of older code")
    args = parser.parse_args()
    trees = {"new": ROOT} | ({"old": args.baseline.resolve()} if args.baseline else {})
    figures: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for round_ in range(args.rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            figures[name].append(_run(trees[name], args.reps))
            print(f"round {round_ + 1} {name}: " + ", ".join(
                f"{case} {us:.1f} µs" for case, us in figures[name][-1].items()), flush=True)
    for name, rounds in figures.items():
        print(f"{name} ({trees[name]}), median of {len(rounds)} rounds: " + ", ".join(
            f"{case} {statistics.median(r[case] for r in rounds):.1f} µs "
            f"({min(r[case] for r in rounds):.1f}–{max(r[case] for r in rounds):.1f})"
            for case in rounds[0]))


if __name__ == "__main__":
    main()
