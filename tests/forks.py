"""Test processes (``python -m bot``, the operator's commands, the storage tests' workers) forked
from a process that imported their code already.

The suite starts ``python -m bot`` about a hundred times (the end-to-end crash tests alone kill
and start it 48 times) and the storage crash test's worker 50 times, and each start spent
0.5-0.7 s of CPU importing discord.py, aiohttp, pydantic and the bot before it did anything:
about a fifth of the suite's CPU on two cores. A fork server (``python -m tests.forks``, one per
test worker) imports that code once, with no thread and no event loop, then forks each process
from itself. The child takes the working folder, environment and standard streams that
``subprocess`` gave a new process, runs its module as ``python -m`` does, and ends as any
interpreter does (its exit handlers run): it reads its settings, opens its database, connects
and shuts down (or is SIGKILLed) as a process started from scratch would. The interpreter's own
start (``python -m bot`` with bad settings, with no database) is tested with real processes
elsewhere (``tests/unit/test_config.py``, ``tests/unit/test_database_startup.py``,
``tests/e2e/test_bed.py``), and so are the operator commands' names and aliases
(``tests/unit/test_ops_commands.py``). ``run`` stands in for ``subprocess.run`` (what a
command printed, and its exit status), ``piped`` for a ``Popen`` whose standard input and
output are pipes (the storage tests' workers, told when to go).

Not the standard library's fork server (``multiprocessing``'s ``forkserver`` with the code
preloaded), which was tried first: it ends a child with ``os._exit``, so the bot's exit
handlers (its log thread's last lines) would run only through a private function; it runs the
test process's ``__main__`` again in every child; and it reports a child's exit through a pipe
that its own bookkeeping reads from whichever thread starts the next process (waited on from
the event loop a second time, that pipe was never reported readable: a clean stop waited 30 s).

The protocol, over a Unix socket of messages: a request is JSON (``module``, ``argv``, ``cwd``,
``env``) with the child's three standard streams attached as file descriptors, answered by the
child's pid; a child's exit is reported too (``exited``, ``code``: negative for the signal that
ended it, as ``subprocess`` gives it).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import runpy
import select
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

PRELOADED = ("bot.main", "tests.store.crash_worker")
"""What the fork server imports before it forks anything."""


def _serve(channel: socket.socket) -> dict[str, Any]:
    """The fork server's loop; returns only in a child, with the request it was forked for
    (its streams already in place)."""
    for module in PRELOADED:
        __import__(module)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake the select below

    while True:
        ready, _, _ = select.select([channel, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            channel.send(json.dumps({"exited": pid,
                                     "code": os.waitstatus_to_exitcode(status)}).encode())
        if channel in ready:
            message, streams, _, _ = socket.recv_fds(channel, 1 << 20, 3)
            if not message:
                return {}  # the tests are over
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                # the channel itself is closed where it was opened, on the way out
                os.close(wake_r)
                os.close(wake_w)
                for target, fd in enumerate(streams):
                    os.dup2(fd, target)
                    os.close(fd)
                return dict(json.loads(message))
            for fd in streams:
                os.close(fd)
            channel.send(json.dumps({"pid": pid}).encode())


def _become(request: dict[str, Any]) -> None:
    """In the child: the folder, environment and arguments of a new ``python -m MODULE``, then
    the module itself."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [request["module"], *request["argv"]]
    runpy.run_module(request["module"], run_name="__main__", alter_sys=True)


class Forked:
    """A process from the fork server: as much of ``subprocess.Popen`` (``poll``) and of
    ``asyncio.subprocess.Process`` (``wait``) as the tests use."""

    def __init__(self, server: _ForkServer, pid: int) -> None:
        self._server = server
        self.pid = pid
        self.returncode: int | None = None
        self._ended = threading.Event()
        server.when_ended(pid, self._end)

    def _end(self, code: int) -> None:
        self.returncode = code
        self._ended.set()

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            # ended already, its exit not yet reported: as for an ended process, nothing to do
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def poll(self) -> int | None:
        return self.returncode

    def join(self, timeout: float | None = None) -> int:
        """Its exit status, waiting on this thread until it has ended."""
        if not self._ended.wait(timeout):
            raise TimeoutError(f"process {self.pid} still runs")
        assert self.returncode is not None
        return self.returncode

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
            return await ended
        return self.returncode


class _ForkServer:
    """This test worker's fork server, and a thread reading what it answers."""

    def __init__(self) -> None:
        root = Path(__file__).resolve().parents[1]
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
        self._channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "tests.forks", str(theirs.fileno())], cwd=root, env=env,
                stdin=subprocess.DEVNULL, pass_fds=[theirs.fileno()])
        self._lock = threading.Lock()
        self._forked = threading.Condition(self._lock)
        self._pids: list[int] = []
        self._codes: dict[int, int] = {}
        self._waiting: dict[int, list[Callable[[int], None]]] = {}
        threading.Thread(target=self._read, name="fork server", daemon=True).start()

    def _read(self) -> None:
        while answer := self._channel.recv(1 << 16):
            said = json.loads(answer)
            with self._lock:
                if "pid" in said:
                    self._pids.append(said["pid"])
                    self._forked.notify_all()
                    continue
                pid, code = said["exited"], said["code"]
                self._codes[pid] = code
                waiting = self._waiting.pop(pid, [])
            for tell in waiting:
                tell(code)

    def fork(self, module: str, argv: Sequence[str], cwd: Path, env: dict[str, str],
             streams: tuple[int, int, int]) -> Forked:
        request = {"module": module, "argv": list(argv), "cwd": str(cwd), "env": env}
        with self._lock:
            socket.send_fds(self._channel, [json.dumps(request).encode()], list(streams))
            if not self._forked.wait_for(lambda: bool(self._pids), timeout=60):
                raise AssertionError("the fork server answered no pid")
            pid = self._pids.pop(0)
        return Forked(self, pid)

    def when_ended(self, pid: int, tell: Callable[[int], None]) -> None:
        with self._lock:
            code = self._codes.get(pid)
            if code is None:
                self._waiting.setdefault(pid, []).append(tell)
                return
        tell(code)

    def close(self) -> None:
        self._channel.shutdown(socket.SHUT_WR)
        self._process.wait(timeout=30)
        self._channel.close()


_server: _ForkServer | None = None
_starting = threading.Lock()


def fork(module: str, argv: Sequence[str] = (), *, cwd: Path, env: dict[str, str],
         stdout: int, stderr: int | None = None, stdin: int | None = None) -> Forked:
    """``python -m module *argv`` in ``cwd`` with exactly ``env``, writing to the file
    descriptors ``stdout`` and ``stderr`` (``None``: ``stdout``), reading ``stdin`` (``None``:
    nothing). The test worker's fork server starts with its first process (its imports take a
    second)."""
    global _server
    with _starting:
        if _server is None:
            _server = _ForkServer()
            atexit.register(_server.close)
    with open(os.devnull, "rb") as nothing:
        return _server.fork(module, argv, cwd, env,
                            (nothing.fileno() if stdin is None else stdin, stdout,
                             stdout if stderr is None else stderr))


def run(module: str, argv: Sequence[str] = (), *, cwd: Path, timeout: float,
        env: dict[str, str] | None = None, merged: bool = False
        ) -> subprocess.CompletedProcess[str]:
    """``subprocess.run([python, "-m", module, *argv], capture_output=True, text=True)``,
    forked: what it printed on each stream, and its exit status. ``env`` ``None`` is this
    process's environment; ``merged``: its standard error goes where its output goes
    (``stderr=subprocess.STDOUT``). Past ``timeout`` seconds it is killed and
    ``TimeoutExpired`` raised, as ``subprocess.run`` does."""
    pipes = [os.pipe() for _ in range(1 if merged else 2)]
    try:
        forked = fork(module, argv, cwd=cwd, env=dict(os.environ) if env is None else env,
                      stdout=pipes[0][1], stderr=pipes[-1][1])
    except BaseException:
        for reading, _ in pipes:
            os.close(reading)
        raise
    finally:
        for _, writing in pipes:
            os.close(writing)
    # both streams read at once, so that neither fills its pipe while the other is waited on
    printed: list[list[bytes]] = [[] for _ in pipes]
    readers = [threading.Thread(target=_read_all, args=(reading, into), daemon=True)
               for (reading, _), into in zip(pipes, printed, strict=True)]
    for reader in readers:
        reader.start()
    command = [sys.executable, "-m", module, *argv]
    try:
        code = forked.join(timeout)
    except TimeoutError:
        forked.kill()
        forked.join()
        raise subprocess.TimeoutExpired(command, timeout) from None
    finally:
        for reader in readers:
            reader.join()
    out, *err = (b"".join(into).decode() for into in printed)
    return subprocess.CompletedProcess(command, code, out, err[0] if err else None)


def _read_all(fd: int, into: list[bytes]) -> None:
    with open(fd, "rb") as stream:
        into.append(stream.read())


def piped(module: str, argv: Sequence[str] = (), *, cwd: Path,
          env: dict[str, str] | None = None) -> tuple[Forked, TextIO, TextIO]:
    """``subprocess.Popen([python, "-m", module, *argv], stdin=PIPE, stdout=PIPE, text=True)``,
    forked, its standard error this process's: the process, its input (each line sent as it
    is written) and what it prints."""
    given, giving = os.pipe()
    printed, printing = os.pipe()
    try:
        forked = fork(module, argv, cwd=cwd, env=dict(os.environ) if env is None else env,
                      stdout=printing, stderr=2, stdin=given)
    except BaseException:
        os.close(giving)
        os.close(printed)
        raise
    finally:
        os.close(given)
        os.close(printing)
    return forked, os.fdopen(giving, "w", buffering=1), os.fdopen(printed, "r")


if __name__ == "__main__":
    with socket.socket(fileno=int(sys.argv[1])) as served:
        forked = _serve(served)
    if forked:
        _become(forked)
