"""JSON values as the fake reads, keeps and writes them: cheaply, and the same values as the
standard library's ``json`` gives.

Every request and every gateway event is written as JSON, and every stored message's embeds
and components are copied: under the bot's load these were a good part of the fake's work.
"""

from __future__ import annotations

import copy
import json
from typing import Any

try:  # optional, like zstandard: the fake needs only the standard library and aiohttp
    import orjson
except ImportError:  # pragma: no cover - kortbord itself depends on orjson
    orjson = None  # type: ignore[assignment]

# Types orjson would write but json refuses (a fake's bug, a 500, as before), and subclasses,
# which json writes by their base type's rules and orjson by its own: orjson hands them back.
_PASS_THROUGH = (
    0
    if orjson is None
    else orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
# immutable, so a copy may share them
_SCALARS = frozenset({str, int, float, bool, type(None)})


class NonFinite(float):
    """NaN or ±Infinity, which a client may send (JSON has no such numbers, but ``json``
    reads them) and the fake writes back as ``json`` does: orjson, which would write ``null``,
    refuses a float subclass, so ``dumps`` leaves these to ``json``."""


def loads(data: str | bytes) -> Any:
    """What a client sent, as ``json.loads`` reads it."""
    return json.loads(data, parse_constant=NonFinite)


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8: by orjson when it is importable (about ten times
    faster), else by ``json``. The JSON value is the same either way; the bytes may differ
    (orjson writes non-ASCII characters as they are, ``json`` escapes them)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_PASS_THROUGH)
        except TypeError:
            # What orjson will not write: a key that is not a string, an integer beyond 64
            # bits, a lone surrogate (json.loads makes them from "\ud800"), a NonFinite, the
            # types passed through; json writes them (or refuses them) as it always has.
            pass
    return json.dumps(value, separators=(",", ":")).encode()


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value: new dicts and lists all the way down, the scalars shared;
    anything else (a tuple, a dict subclass) through ``copy.deepcopy``.

    ``copy.deepcopy`` spends most of its time on its memo (which keeps shared and cyclic
    objects shared and cyclic) and on dispatching per object type; a JSON value is a tree of a
    few types, so this is about twice as fast. A subtree that a value built in Python holds
    twice is copied twice, as it would be had it arrived as JSON.
    """
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)
