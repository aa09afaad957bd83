"""``python -m bot.ops <command> [arguments]``: kortbord's operator commands; ``python -m bot.ops
<command> --help`` for each one's arguments."""

from __future__ import annotations

import sys
from collections.abc import Callable

from bot.ops import audit, database, rerate, sim, verify

COMMANDS: dict[str, tuple[Callable[[list[str]], int], str]] = {
    "copy": (database.copy_main, "copy a database into a new, empty one (SQLite or PostgreSQL)"),
    "backup": (database.backup_main, "back up the SQLite database, safe while the bot runs"),
    "restore": (database.restore_main, "replace the SQLite database with a backup"),
    "audit": (audit.main, "check the ledger and replay every finished table against it"),
    "rerate": (rerate.main, "rebuild every skill rating from the move log"),
    "verify": (verify.main, "check finished tables from their public record alone"),
    "sim": (sim.main, "run a game's simulator"),
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        lines = [f"  {name:<8} {text}" for name, (_, text) in COMMANDS.items()]
        asked = bool(argv) and argv[0] in ("-h", "--help")
        print("usage: python -m bot.ops <command> [arguments]   (<command> --help for its "
              "arguments)\n\ncommands:\n" + "\n".join(lines),
              file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    command, _ = COMMANDS[argv[0]]
    return command(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
