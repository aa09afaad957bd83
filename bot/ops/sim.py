"""``python -m bot.ops sim <game> [options]`` (also ``python -m bot.sim``): run a game's
simulator (``--help`` on each for its options). Games that bring no simulator of their own get
the generic runner (``bot.sim.generic``)."""

from __future__ import annotations

import sys

from bot.games.registry import GAMES
from bot.sim.generic import main as generic_main


def main(argv: list[str]) -> int:
    usage = (f"usage: python -m bot.sim {{{'|'.join(GAMES)}}} [options]   "
             "(add --help for a game's options)")
    if not argv or argv[0] not in GAMES:
        print(usage, file=sys.stderr)
        return 2
    spec = GAMES[argv[0]]
    if spec.simulator is not None:
        return spec.simulator(argv[1:])
    return generic_main(spec, argv[1:])
