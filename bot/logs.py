"""The bot's logging: discord.py's text lines or, with ``LOG_FORMAT=json``, one JSON object per
line; the context a person debugging needs on every record; and no hand in any of them.

Context. ``log_context(guild=…, channel=…)`` binds fields for the code it wraps, in a
``ContextVar``: tasks started inside inherit them, so what an interaction sets when it arrives
(``bot.discord.telemetry``) is on every line its command, its table's moves and its answer log.
Only ids go there (guild, channel, table, interaction, shard), never what anyone holds.

Hands. discord.py logs at DEBUG every request body it sends, every answer it reads and every
gateway event it receives: a hand panel sent, or a click on one (the clicked message comes with
the interaction), is a hand in the log. ``WithholdPayloads`` replaces those arguments before any
handler formats them, whatever the level and the format.

Off the loop. ``Handoff`` hands each record, its message made, to a thread of its own that
formats and writes it (the standard library's ``QueueHandler`` and ``QueueListener``, the
logging cookbook's answer to handlers that block): a line written to a pipe whose reader lags
(a container's log driver, a full terminal) blocked the event loop, and with it every table.
It saves no CPU: handing a record over costs the loop about what formatting and writing it did
(10–12 µs a line, ``LogRecord`` included, measured on one core).
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import logging.handlers
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["text", "json"]
CONTEXT_FIELDS = ("guild_id", "channel_id", "table_id", "interaction_id", "shard_id")
WITHHELD = "<payload withheld>"

_context: ContextVar[dict[str, int]] = ContextVar("kortbord_log_context", default={})  # noqa: B039
# (never mutated: each binding makes a new dict, so the shared default is safe)


@contextlib.contextmanager
def log_context(**fields: int | None) -> Iterator[None]:
    """Add ``fields`` (names from ``CONTEXT_FIELDS`` without ``_id``: ``guild``, ``channel``,
    ``table``, ``interaction``, ``shard``) to every record logged inside; ``None`` is left out."""
    token = _context.set(bind(**fields))
    try:
        yield
    finally:
        _context.reset(token)


def bind(**fields: int | None) -> dict[str, int]:
    """The current context with ``fields`` added (for ``log_context`` and for callers that set
    the variable around a callback themselves)."""
    added = {f"{name}_id": value for name, value in fields.items() if value is not None}
    return {**_context.get(), **added} if added else _context.get()


def set_context(fields: dict[str, int]) -> Any:
    """Set the context to ``fields``; returns the token for ``reset_context``."""
    return _context.set(fields)


def reset_context(token: Any) -> None:
    _context.reset(token)


def current_context() -> dict[str, int]:
    return _context.get()


class ContextFilter(logging.Filter):
    """Copies the bound context onto each record (so a formatter can show it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in _context.get().items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


class WithholdPayloads(logging.Filter):
    """Replaces the payloads discord.py's loggers carry in their arguments (request bodies,
    answers, gateway events: dicts, lists and JSON text) before they are formatted."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("discord"):
            return True
        if isinstance(record.args, dict):
            record.args = {k: _withheld(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(_withheld(a) for a in record.args)
        elif _looks_like_payload(record.msg):
            # a payload logged as the message itself (the gateway's "Received %s" is one)
            record.msg = WITHHELD
        return True


def _looks_like_payload(value: object) -> bool:
    if isinstance(value, (dict, list, tuple, bytes, bytearray)):
        return True
    return isinstance(value, str) and value.lstrip()[:1] in ("{", "[")


def _withheld(value: object) -> object:
    return WITHHELD if _looks_like_payload(value) else value


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``,
    the bound context's ids, and ``exception`` (its traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class Handoff(logging.handlers.QueueHandler):
    """Puts each record, its message made from its arguments now (they may change once the
    caller goes on), on the queue that the writing thread reads. Unlike the standard
    ``prepare`` it keeps a traceback apart from the message (``exc_text``), as the JSON
    lines carry it (``exception``). Filters added here run on the caller's thread, where the
    log context is."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        record = copy.copy(record)
        record.message = record.getMessage()
        record.msg, record.args = record.message, None
        if record.exc_info:
            record.exc_text = record.exc_text or _TRACEBACKS.formatException(record.exc_info)
            record.exc_info = None
        return record


_TRACEBACKS = logging.Formatter()
