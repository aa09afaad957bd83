"""``python -m bot`` for the end-to-end tests, forked from a process that imported it already.

The suite starts ``python -m bot`` about a hundred times (the crash tests alone kill and start it
48 times), and each start spent 0.7 s of CPU importing discord.py, aiohttp, pydantic and the
bot before it did anything: about a sixth of the suite's CPU on two cores. A fork server
(``python -m tests.e2e.forks``, one per test worker) imports what ``python -m bot`` imports
once, with no thread and no event loop, then forks each bot from itself. The child takes the
working folder, environment and log file that ``create_subprocess_exec`` gave a new process,
runs ``bot.main.main()`` as ``bot/__main__.py`` does, and ends as any interpreter does (its
exit handlers run): the bot reads its settings, opens its database, connects and shuts down (or
is SIGKILLed) as a process started from scratch would. The interpreter's own start
(``python -m bot`` with bad settings, with no database) is tested with real ``python -m bot``
processes elsewhere (``tests/unit/test_config.py``, ``tests/unit/test_database_startup.py``,
``tests/e2e/test_bed.py``).

Not the standard library's fork server (``multiprocessing``'s ``forkserver`` with ``bot.main``
preloaded), which was tried first: it ends a child with ``os._exit``, so the bot's exit
handlers (its log thread's last lines) would run only through a private function; it runs the
test process's ``__main__`` again in every child; and it reports a child's exit through a pipe
that its own bookkeeping reads from whichever thread starts the next process (waited on from
the event loop a second time, that pipe was never reported readable: a clean stop waited 30 s).

The protocol: one JSON line a request on standard input (``cwd``, ``env``, ``log``), answered
on standard output by the child's pid; a child's exit is reported there too (``exited``,
``code``: negative for the signal that ended it, as ``asyncio.subprocess`` gives it).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _serve() -> dict[str, Any]:
    """The fork server's loop; returns only in a child, with the request it was forked for."""
    import bot.main  # noqa: F401  everything ``python -m bot`` imports, imported once

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake the select below
    requests = sys.stdin.buffer

    def say(answer: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    while True:
        ready, _, _ = select.select([requests, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            say({"exited": pid, "code": os.waitstatus_to_exitcode(status)})
        if requests in ready:
            # one request at a time: the next comes only once this one's pid is answered
            line = requests.readline()
            if not line:
                return {}  # the tests are over
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.close(wake_r)
                os.close(wake_w)
                return dict(json.loads(line))
            say({"pid": pid})


def _become_bot(request: dict[str, Any]) -> int:
    """In the child: the folder, environment and output of a new ``python -m bot``, then the
    bot itself."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    output = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    os.close(nothing)
    from bot.main import main

    return main()


class ForkedBot:
    """A bot from the fork server, as much of ``asyncio.subprocess.Process`` as the tests
    use."""

    def __init__(self, server: _ForkServer, pid: int) -> None:
        self._server = server
        self.pid = pid
        self.returncode: int | None = None

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            # ended already, its exit not yet reported: as for an ended process, nothing to do
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    async def wait(self) -> int:
        """Its exit status, once it has ended."""
        if self.returncode is None:
            loop = asyncio.get_running_loop()
            ended: asyncio.Future[int] = loop.create_future()

            def tell(code: int) -> None:
                # a wait given up (cancelled) whose test and loop are over by now: nobody to tell
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(lambda: ended.done() or ended.set_result(code))

            self._server.when_ended(self.pid, tell)
            self.returncode = await ended
        return self.returncode


class _ForkServer:
    """This test worker's fork server, and a thread reading what it answers."""

    def __init__(self) -> None:
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.forks"], cwd=root, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._lock = threading.Lock()
        self._forked = threading.Condition(self._lock)
        self._pids: list[int] = []
        self._codes: dict[int, int] = {}
        self._waiting: dict[int, list[Callable[[int], None]]] = {}
        threading.Thread(target=self._read, name="fork server", daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            answer = json.loads(line)
            with self._lock:
                if "pid" in answer:
                    self._pids.append(answer["pid"])
                    self._forked.notify_all()
                    continue
                pid, code = answer["exited"], answer["code"]
                self._codes[pid] = code
                waiting = self._waiting.pop(pid, [])
            for tell in waiting:
                tell(code)

    def fork(self, cwd: Path, env: dict[str, str], log: Path) -> ForkedBot:
        assert self._process.stdin is not None
        with self._lock:
            self._process.stdin.write(json.dumps(
                {"cwd": str(cwd), "env": env, "log": str(log)}) + "\n")
            self._process.stdin.flush()
            if not self._forked.wait_for(lambda: bool(self._pids), timeout=60):
                raise AssertionError("the fork server answered no pid")
            return ForkedBot(self, self._pids.pop(0))

    def when_ended(self, pid: int, tell: Callable[[int], None]) -> None:
        with self._lock:
            code = self._codes.get(pid)
            if code is None:
                self._waiting.setdefault(pid, []).append(tell)
                return
        tell(code)

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=30)


_server: _ForkServer | None = None
_starting = threading.Lock()


def _fork(cwd: Path, env: dict[str, str], log: Path) -> ForkedBot:
    global _server
    with _starting:
        if _server is None:
            _server = _ForkServer()
            atexit.register(_server.close)
    return _server.fork(cwd, env, log)


async def fork_bot(cwd: Path, env: dict[str, str], log: Path) -> ForkedBot:
    """``python -m bot`` in ``cwd`` with exactly ``env``, its output appended to ``log``. The
    worker's fork server starts with its first bot; waiting for it (its imports) and for a
    pid is done off the loop, which serves the fake Discord meanwhile."""
    return await asyncio.to_thread(_fork, cwd, env, log)


if __name__ == "__main__":
    forked = _serve()
    if forked:
        raise SystemExit(_become_bot(forked))
