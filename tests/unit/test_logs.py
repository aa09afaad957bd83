"""``bot.logs``: discord.py's payloads never reach a log line (a hand panel sent or clicked is a
hand), in either format; JSON lines carry the bound context."""

from __future__ import annotations

import atexit
import json
import logging
import threading

from bot.logs import WITHHELD, ContextFilter, JsonFormatter, WithholdPayloads, log_context
from bot.main import setup_logging
from tests.e2e.test_operations import hand_traces

PANEL = {"type": 4, "data": {"content": "Your hand: 7♥ K♠ 10♦", "flags": 64,
                             "components": [{"custom_id": "ks:game:3:play:5", "options": [
                                 {"label": "7♥", "value": "7h"}]}]}}


def _line(name: str, msg: str, *args: object, json_format: bool = False) -> str:
    record = logging.LogRecord(name, logging.DEBUG, __file__, 1, msg, args, None)
    for f in (WithholdPayloads(), ContextFilter()):
        f.filter(record)
    formatter = JsonFormatter() if json_format else logging.Formatter("%(message)s")
    return formatter.format(record)


def test_the_traces_would_find_a_hand_in_discord_py_s_debug_lines() -> None:
    raw = logging.Formatter("%(message)s").format(logging.LogRecord(
        "discord.http", logging.DEBUG, __file__, 1, "%s %s with %s has returned %s",
        ("POST", "http://x/callback", PANEL, 204), None))
    assert hand_traces(raw)


def test_request_bodies_answers_and_events_are_withheld_in_both_formats() -> None:
    for json_format in (False, True):
        lines = [
            _line("discord.http", "%s %s with %s has returned %s", "POST", "http://x/callback",
                  PANEL, 204, json_format=json_format),
            _line("discord.http", "%s %s has received %s", "GET", "http://x", [PANEL],
                  json_format=json_format),
            _line("discord.gateway", "For Shard ID %s: WebSocket Event: %s", None,
                  {"t": "INTERACTION_CREATE", "d": PANEL}, json_format=json_format),
            _line("discord.gateway", json.dumps(PANEL), json_format=json_format),
        ]
        for line in lines:
            assert WITHHELD in line and hand_traces(line) == [], line


def test_the_bot_s_own_lines_keep_their_arguments_and_json_carries_the_context() -> None:
    with log_context(guild=1, channel=2, interaction=3, shard=None), log_context(table=4):
        line = json.loads(_line("kortbord", "table %d: %s", 4, "finished",
                                json_format=True))
    assert line["message"] == "table 4: finished"
    assert (line["guild_id"], line["channel_id"], line["table_id"], line["interaction_id"]) == (
        1, 2, 4, 3)
    assert "shard_id" not in line and line["level"] == "DEBUG" and line["logger"] == "kortbord"
    assert "guild_id" not in json.loads(_line("kortbord", "outside", json_format=True))


class _Written(logging.Handler):
    """Stands in for standard error: what was written, and on which thread."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((threading.get_ident(), self.format(record)))


def test_lines_are_written_off_the_callers_thread_with_its_context_and_traceback() -> None:
    """``python -m bot``'s logging (``bot.main.setup_logging``): the caller only hands the
    record over, its message made; a thread of its own formats and writes it, with the log
    context bound where it was logged, a traceback apart, and no payload."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    written = _Written()
    listener = setup_logging(logging.INFO, "json", writer=written)
    try:
        log = logging.getLogger("kortbord.test")
        detail = ["finished"]
        with log_context(table=4):
            log.info("table %d: %s", 4, detail)
        detail.append("changed after it was logged")
        try:
            raise ValueError("the bot's own mistake")
        except ValueError:
            log.exception("a move failed")
        logging.getLogger("discord.http").info("%s has received %s", "GET", PANEL)
    finally:
        listener.stop()
        atexit.unregister(listener.stop)
        root.handlers[:] = handlers
        root.setLevel(level)

    threads = {thread for thread, _ in written.lines}
    lines = [json.loads(line) for _, line in written.lines]
    assert threading.get_ident() not in threads and len(lines) == 3
    assert lines[0]["message"] == "table 4: ['finished']" and lines[0]["table_id"] == 4
    assert lines[1]["message"] == "a move failed"
    assert "ValueError: the bot's own mistake" in lines[1]["exception"]
    assert WITHHELD in lines[2]["message"] and hand_traces(lines[2]["message"]) == []


class _Stuck(logging.Handler):
    """Standard error whose reader lags: each write waits until ``released``."""

    def __init__(self) -> None:
        super().__init__()
        self.released = threading.Event()
        self.caller_went_on: list[bool] = []
        self.returned = False

    def emit(self, record: logging.LogRecord) -> None:
        # a safety net: where the caller itself writes, it would wait here for ever
        self.released.wait(timeout=10)
        self.caller_went_on.append(self.returned)


def test_a_write_that_blocks_does_not_hold_up_the_caller() -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    stuck = _Stuck()
    listener = setup_logging(logging.INFO, "text", writer=stuck)
    try:
        logging.getLogger("kortbord.test").info("table %d: started", 1)
        stuck.returned = True
        stuck.released.set()
    finally:
        listener.stop()
        atexit.unregister(listener.stop)
        root.handlers[:] = handlers
        root.setLevel(level)
    assert stuck.caller_went_on == [True]
