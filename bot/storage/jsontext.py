"""The JSON text the store writes (options, seats, moves, events, game states, settings):
compact, non-ASCII as it is, integer keys as strings — the text of ``json.dumps(value,
separators=(",", ":"), ensure_ascii=False)``, written by orjson in about a tenth of the time.
A move writes its events and the game's state every time (issue 16)."""

from __future__ import annotations

from typing import Any

import orjson


def dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
