"""Browser tests: ``python -m bot.playground`` as a person starts it, and the system's Chromium
(Debian's ``chromium`` package; ``scripts/test`` installs it) driven by Playwright. Playwright
never downloads a browser here: it is pointed at ``/usr/bin/chromium``.

At teardown the playground is stopped as Ctrl-C would (SIGTERM): it must exit with status 0,
and the bot's log must hold no error and no traceback.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Playwright, expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
START_TIMEOUT = 90.0
STOP_TIMEOUT = 30.0
WAIT_MS = 30_000
"""How long a wait for the page may take before the test fails (a guard: waits end as soon as
the page shows what they wait for). Playwright's 5 s default is short for a table that waits
out Discord's rate limits on a busy machine."""
_ADDRESS = re.compile(r"open (http://\S+/)")
_LOGGED_ERROR = re.compile(r"\b(ERROR|CRITICAL)\b|^Traceback")
_ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Playground:
    url: str
    folder: Path
    process: subprocess.Popen[str]
    output: list[str]
    reader: threading.Thread

    def bot_log(self) -> str:
        path = self.folder / "bot.log"
        return _ANSI_COLOUR.sub("", path.read_text(errors="replace")) if path.exists() else ""


def start_playground(folder: Path, *extra: str) -> Playground:
    """``python -m bot.playground`` on a free port, computers moving at once; returns when it
    printed the address to open."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.playground", "--port", "0", "--dir", str(folder),
         "--computer-pause", "0", "--client-port", "0", *extra],
        cwd=folder.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    output: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line)
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while True:
        try:
            line = lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            process.kill()
            raise AssertionError("the playground printed no address:\n" + "".join(output)) from None
        if line is None:
            raise AssertionError(f"the playground exited with {process.wait()}:\n"
                                 + "".join(output))
        found = _ADDRESS.search(line)
        if found:
            return Playground(found.group(1), folder, process, output, reader)


def stop_playground(playground: Playground) -> int:
    playground.process.send_signal(signal.SIGINT)
    try:
        status = playground.process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        playground.process.kill()
        playground.process.wait()
        raise AssertionError("the playground ignored Ctrl-C") from None
    # its output ends with the process: the reader has all of it once it reaches the end
    playground.reader.join(STOP_TIMEOUT)
    return status


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[Playground]:
    running = start_playground(tmp_path / "playground")
    yield running
    status = stop_playground(running)
    log = running.bot_log()
    errors = [line for line in log.splitlines() if _LOGGED_ERROR.search(line)]
    output = "".join(running.output)
    assert status == 0, output
    assert "Traceback" not in output and "stopped" in output, output
    assert errors == [], log
    assert "shutting down" in log


@pytest.fixture
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def browser(playwright: Playwright, tmp_path: Path) -> Iterator[BrowserContext]:
    """The system's Chromium, headless, with a fresh profile in the test's folder."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is not installed: `apt-get install chromium` (scripts/test does it)")
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        headless=True, viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    yield context
    context.close()
