"""Benchmark the shared replay picture (not a test): a whole Dubb game (four seats) and a whole
Tonk hand (three seats), seeded, played by the greedy computer in every seat; for each, the
picture's size, its frames and the time to draw it (replaying the moves, drawing each frame's
table picture and encoding the GIF), on one core. Saves both pictures under ``docs/img/``.

    .venv/bin/python scripts/bench_replay.py [--seed N] [--runs N] [--lang en]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.discord.controller import load_face
from bot.discord.replay_share import ReplayPicture, replay_picture
from bot.gamekit.contract import Engine, GameSpec, Seat
from bot.games.registry import GAMES
from bot.storage import SeatInfo
from bot.table.service import TableSnapshot

ROOT = Path(__file__).resolve().parents[1]
SEATS = {"dubb": 4, "tonk": 3}


def _new(game: GameSpec, seed: int) -> Engine:
    seats = [Seat(-(i + 1), f"Player {i + 1}") for i in range(SEATS[game.kind])]
    return game.new_engine(seats, game.validate_options({}), seed)


def _played(game: GameSpec, seed: int) -> list[tuple[int, Any]]:
    """The moves of a whole game (Dubb) or of its first hand (Tonk)."""
    engine = _new(game, seed)
    rng = random.Random(seed)
    strategy = game.strategies["greedy"]()
    moves: list[tuple[int, Any]] = []
    while not engine.is_over and engine.to_move is not None:
        if moves and not getattr(engine.public_view(), "in_hand", True):
            break  # Tonk: the first hand is over, its hands revealed
        player = engine.to_move
        move = strategy.choose(engine.observe(player), rng)
        engine.apply(player, move)
        moves.append((player, move))
    return moves


def _snapshot(game: GameSpec, engine: Engine) -> TableSnapshot:
    return TableSnapshot(
        table_id=1, guild_id=1, channel_id=1, kind=game.kind, status="finished", host_id=-1,
        options=game.validate_options({}),
        seats=tuple(SeatInfo(player_id=s.player_id, name=s.name, is_computer=True)
                    for s in engine.seats),
        message_id=None, counter=0, engine=None, turn_seconds=0, turn_deadline=None,
        lobby_expires_at=None)


def _drawn(game: GameSpec, face: Any, moves: list[tuple[int, Any]], seed: int,
           lang: str) -> tuple[ReplayPicture, float]:
    """The replay of ``moves`` and the seconds it took to draw, replay included."""
    engine = _new(game, seed)
    frozen = _snapshot(game, engine)
    names = dict(engine.names)
    began = time.perf_counter()
    shown = replay_picture(engine, moves,
                           lambda view: face.table_picture(frozen, view, names, lang))
    return shown, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    for kind in ("dubb", "tonk"):
        game = GAMES[kind]
        face = load_face(game)
        moves = _played(game, args.seed)
        runs = [_drawn(game, face, moves, args.seed, args.lang) for _ in range(args.runs)]
        shown = runs[-1][0]
        times = [t for _, t in runs]
        out = ROOT / "docs" / "img" / f"replay-{kind}.gif"
        out.write_bytes(shown.data)
        with Image.open(io.BytesIO(shown.data)) as gif:
            stored = gif.n_frames
        print(f"{kind}: {shown.moves} moves, {shown.frames} frames ({stored} in the file), "
              f"{len(shown.data) / 1024:.0f} KiB, "
              f"drawn in "
              f"{statistics.median(times) * 1000:.0f} ms (median of {args.runs}, min "
              f"{min(times) * 1000:.0f} ms) -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
