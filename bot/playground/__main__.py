"""``python -m bot.playground``: play kortbord in a browser, with no Discord account.

Starts the fake Discord on a loopback port, the real bot (``python -m bot``) against it, and
the page on http://127.0.0.1:8080/ (``--host``, ``--port``). The bot's database and log live in
``--dir`` (default ``./data/playground``); ``--reset`` starts with an empty one. Ctrl-C stops
everything, the bot closing its database cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.playground.session import PlaygroundOptions, StartFailed, run

DEFAULT_DIR = Path("data") / "playground"
DEFAULT_PAUSE = 0.8
"""Seconds a computer player waits before it moves: shorter than the bot's default 1.5 s,
which suits a channel where people chat between moves more than one person at a screen."""


def _options(argv: list[str] | None) -> PlaygroundOptions:
    parser = argparse.ArgumentParser(
        prog="python -m bot.playground",
        description="Play kortbord in your browser: the real bot against a local stand-in "
                    "for Discord. No token, no internet.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve the page on (default 127.0.0.1: this machine "
                             "only; 0.0.0.0 lets others on your network play too)")
    parser.add_argument("--port", type=int, default=8080,
                        help="port for the page (default 8080; 0 picks a free one)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="folder for the bot's database and log (default data/playground)")
    parser.add_argument("--reset", action="store_true",
                        help="start clean: delete the playground's database first")
    parser.add_argument("--computer-pause", type=float, default=DEFAULT_PAUSE,
                        help=f"seconds computer players wait before they move "
                             f"(default {DEFAULT_PAUSE})")
    parser.add_argument("--client-port", type=int, default=3333,
                        help="port of the fake Discord client that opens Activities "
                             "(default 3333, the one Discord's SDK accepts as localhost; 0: "
                             "none, map localhost:3333 to the fake's port in the browser)")
    args = parser.parse_args(argv)
    if not 0 <= args.computer_pause <= 60:
        parser.error("--computer-pause must be within 0..60 seconds")
    return PlaygroundOptions(host=args.host, port=args.port, folder=args.dir, reset=args.reset,
                             computer_pause=args.computer_pause, client_port=args.client_port)


def main(argv: list[str] | None = None) -> int:
    options = _options(argv)
    try:
        return asyncio.run(run(options))
    except StartFailed as exc:
        print(f"kortbord playground: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
