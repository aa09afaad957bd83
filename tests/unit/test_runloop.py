"""The event loop ``python -m bot`` runs on (bot/runloop.py, issue 16)."""

from __future__ import annotations

import asyncio
import sys

import pytest
import uvloop

from bot import runloop


async def _loop_type() -> type:
    return type(asyncio.get_running_loop())


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    assert runloop.loop_name() == "uvloop"
    assert runloop.run(_loop_type()) is uvloop.Loop


def test_without_uvloop_the_bot_runs_on_asyncios_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``None`` in sys.modules makes ``import uvloop`` raise ImportError, as on Windows
    monkeypatch.setitem(sys.modules, "uvloop", None)

    assert runloop.loop_name() == "asyncio"
    loop_type = runloop.run(_loop_type())
    assert issubclass(loop_type, asyncio.BaseEventLoop)
    assert not issubclass(loop_type, uvloop.Loop)


def test_run_returns_what_the_coroutine_returns_and_raises_what_it_raises() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    async def fail() -> None:
        raise LookupError("no such table")

    assert runloop.run(answer()) == 42
    with pytest.raises(LookupError, match="no such table"):
        runloop.run(fail())
