"""``python -m bot.sim dubb|tonk [options]``: run a simulator (``--help`` on each for options)."""

import sys


def main(argv: list[str]) -> int:
    usage = "usage: python -m bot.sim {dubb|tonk} [options]   (add --help for a game's options)"
    if not argv or argv[0] not in ("dubb", "tonk"):
        print(usage, file=sys.stderr)
        return 2
    if argv[0] == "dubb":
        from bot.sim.dubb import main as game_main
    else:
        from bot.sim.tonk import main as game_main
    return game_main(argv[1:])


raise SystemExit(main(sys.argv[1:]))
