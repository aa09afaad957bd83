"""The Docker set-up as the README runs it, without a container engine (issue 37).

``docker run --env-file .env -v kortbord-data:/data kortbord``: the container's settings are the
Dockerfile's ``ENV`` overlaid with the ``.env`` a newcomer makes from ``.env.example`` (Docker
reads an env file literally: no quotes, no comments after values). The test renders them and
starts ``python -m bot`` with them against the fake Discord as the image does: as user 10001,
in a copy of the app (``/app``, ``WORKDIR``) that user cannot write, with ``/data`` (the volume)
writable, and asks the Dockerfile's ``HEALTHCHECK`` command whether it is ready.

``docker compose up``: each bot service's settings are the Dockerfile's ``ENV``, then compose's
``env_file``, then its ``environment`` (interpolated from ``.env``); every setting the newcomer
puts in ``.env`` reaches the bots unless compose sets it on purpose (the database, the shards),
and a password with ``@``, ``:`` or ``/`` still reaches PostgreSQL intact.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings
from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import BOOT_TIMEOUT, REPO_ROOT, TEST_TOKEN

pytestmark = [pytest.mark.e2e]

UID = 10001
AS_10001: dict[str, Any] = {"user": UID, "group": UID, "extra_groups": []}
PASSWORD = "p@ss:w/rd#1"
"""A PostgreSQL password with every character that breaks a URL."""
_VARIABLE = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")
_SETTING = re.compile(r"^#?\s?([A-Z][A-Z0-9_]*)=(.*)$")


def dockerfile(path: Path = REPO_ROOT / "Dockerfile") -> dict[str, Any]:
    """The Dockerfile's ``ENV``, ``WORKDIR``, ``USER``, ``VOLUME`` and ``HEALTHCHECK`` command."""
    text = path.read_text().replace("\\\n", " ")
    found: dict[str, Any] = {"env": {}}
    for line in text.splitlines():
        words = line.strip().split(None, 1)
        if len(words) < 2:
            continue
        op, rest = words[0].upper(), words[1]
        if op == "ENV":
            found["env"].update(dict(pair.split("=", 1) for pair in shlex.split(rest)))
        elif op in ("WORKDIR", "USER"):
            found[op.lower()] = rest.strip()
        elif op == "VOLUME":
            found["volume"] = json.loads(rest)
        elif op == "HEALTHCHECK":
            found["healthcheck"] = json.loads(rest.split(" CMD ", 1)[1])
    return found


def env_file(text: str) -> dict[str, str]:
    """``KEY=VALUE`` lines as Docker's ``--env-file`` and compose read them: values literal."""
    pairs = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            pairs[key.strip()] = value
    return pairs


def newcomer_env(example: str) -> str:
    """The ``.env`` a newcomer makes from ``.env.example``: the token filled in, nothing else
    changed."""
    return re.sub(r"^DISCORD_TOKEN=.*$", f"DISCORD_TOKEN={TEST_TOKEN}", example, flags=re.M)


def everything_env(example: str) -> str:
    """A ``.env`` that sets every setting ``.env.example`` documents, commented ones too, to
    a recognisable value, and a PostgreSQL password that breaks URLs."""
    values = {"DISCORD_TOKEN": TEST_TOKEN, "DEV_GUILD_IDS": "123,456", "COMPUTER_PAUSE": "0.25",
              "LOG_LEVEL": "DEBUG", "LOG_FORMAT": "json", "POSTGRES_PASSWORD": PASSWORD}
    lines = []
    for line in example.splitlines():
        match = _SETTING.match(line)
        if match and match.group(1) in values:
            line = f"{match.group(1)}={values[match.group(1)]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def container_root() -> Iterator[Path]:
    """A folder standing for the container's ``/``: ``app`` (root's, read-only to 10001) and
    ``data`` (the volume, 10001's)."""
    root = Path(tempfile.mkdtemp(prefix="kortbord-container-"))
    root.chmod(0o755)
    app = root / "app"
    app.mkdir()
    for part in ("bot", "cogs"):
        shutil.copytree(REPO_ROOT / part, app / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for path in [app, *app.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    (root / "data").mkdir()
    os.chown(root / "data", UID, UID)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def python_for_10001() -> tuple[str, list[str]]:
    """An interpreter user 10001 may run, and the folders it needs on ``PYTHONPATH``: this
    one, or (when it lives where 10001 cannot go, as pyenv's under ``/root`` does) the system's
    of the same version with this environment's packages."""
    probe = [sys.executable, "-c", "import discord"]
    with contextlib.suppress(PermissionError):
        if subprocess.run(probe, capture_output=True, check=False, **AS_10001).returncode == 0:
            return sys.executable, []
    system = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    packages = [p for p in sys.path if p.endswith("site-packages")]
    assert Path(system).is_file(), f"{UID} cannot run {sys.executable}; there is no {system}"
    return system, packages


def _in_container(value: str, root: Path) -> str:
    """A container path (``/app/…``, ``/data/…``) in the folder standing for ``/``."""
    for top in ("/app", "/data"):
        if value == top or value.startswith(top + "/"):
            return str(root) + value
    return value


def _start_as_10001(command: list[str], cwd: Path, env: dict[str, str], log: Path
                    ) -> subprocess.Popen[bytes]:
    """subprocess's, not asyncio's: uvloop's subprocesses take no user and group."""
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=out,
                                stderr=subprocess.STDOUT, **AS_10001)


def _sqlite_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".sqlite3" in p.name]


async def test_docker_run_with_the_newcomer_s_env_starts_as_10001_and_becomes_healthy(
    container_root: Path, fake: FakeDiscord, driver: Driver
) -> None:
    image = dockerfile()
    assert image["user"] in ("kortbord", str(UID)) and image["volume"] == ["/data"]
    env = {**image["env"], **env_file(newcomer_env((REPO_ROOT / ".env.example").read_text()))}
    settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
    workdir = Path(_in_container(image["workdir"], container_root))
    database = Path(_in_container(str(settings.database_path), container_root))
    if not settings.database_path.is_absolute():
        database = workdir / settings.database_path
    assert database.is_relative_to(container_root / "data"), (
        f"the database would be at {settings.database_path} in {image['workdir']}, not on the "
        "volume /data")

    port = _free_port()
    run_env = {k: _in_container(v, container_root) for k, v in env.items()}
    run_env.update(
        # what only a test changes: the fake for Discord, its rate limits, a free port
        DISCORD_API_BASE=fake.api_base, DISCORD_LIMITS_SCALE=str(fake.rate_limits.global_per),
        METRICS_PORT=str(port), HOME=str(workdir), PATH=os.environ["PATH"],
    )
    python, packages = python_for_10001()
    run_env["PYTHONPATH"] = os.pathsep.join([str(workdir), *packages])
    log = container_root / "bot.log"
    process = _start_as_10001([python, "-m", "bot"], workdir, run_env, log)
    try:
        exited = asyncio.create_task(asyncio.to_thread(process.wait))
        ready = asyncio.create_task(driver.wait_bot_ready(within=BOOT_TIMEOUT))
        done, _ = await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        assert exited not in done, (f"python -m bot exited with {process.returncode}:\n"
                                    f"{log.read_text()}")
        exited.cancel()
        await ready
        assert database.is_file() and database.stat().st_uid == UID
        assert _sqlite_files(workdir) == []
        command = image["healthcheck"]
        assert command[:1] == ["python"]
        async with asyncio.timeout(BOOT_TIMEOUT):
            while True:
                check = await asyncio.to_thread(
                    subprocess.run, [python, *command[1:]], cwd=workdir, env=run_env,
                    capture_output=True, check=False, **AS_10001)
                if check.returncode == 0:
                    break
                # not ready yet (the shard's session comes a moment after READY is sent)
                await asyncio.sleep(0.1)
    finally:
        if process.poll() is None:
            process.terminate()
            await asyncio.to_thread(process.wait)
    assert process.returncode == 0, log.read_text()


def _interpolate(value: str, env: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name, kind, rest = match.groups()
        if env.get(name):
            return env[name]
        if kind == "-":
            return rest
        raise AssertionError(f"{name} must be set: {rest}")

    return _VARIABLE.sub(one, value)


def compose_bots(dotenv: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each bot service's effective environment, for this ``.env``."""
    compose = yaml.safe_load((REPO_ROOT / "compose.yaml").read_text())
    image = dockerfile()
    bots = {}
    for name, service in compose["services"].items():
        if "build" not in service:
            continue
        env = dict(image["env"])
        files = service.get("env_file", [])
        for entry in [files] if isinstance(files, (str, dict)) else files:
            path = entry if isinstance(entry, str) else entry["path"]
            assert path == ".env", f"{name} reads {path}"
            env.update(dotenv)
        env.update({k: _interpolate(str(v), dotenv)
                    for k, v in service.get("environment", {}).items()})
        bots[name] = env
    return bots


def test_compose_passes_every_setting_of_the_env_file_and_any_password() -> None:
    dotenv = env_file(everything_env((REPO_ROOT / ".env.example").read_text()))
    assert dotenv["POSTGRES_PASSWORD"] == PASSWORD
    compose = yaml.safe_load((REPO_ROOT / "compose.yaml").read_text())
    db = next(s for s in compose["services"].values() if "build" not in s)
    db_env = {k: _interpolate(str(v), dotenv) for k, v in db["environment"].items()}
    bots = compose_bots(dotenv)
    assert len(bots) >= 2
    for name, env in bots.items():
        for key in ("DEV_GUILD_IDS", "COMPUTER_PAUSE", "LOG_LEVEL", "LOG_FORMAT"):
            assert env.get(key) == dotenv[key], f"{name} does not pass {key} from .env"
        settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
        assert settings.dev_guild_ids == [123, 456] and settings.computer_pause == 0.25
        url = urlsplit(str(settings.database_url))
        # the password goes beside the URL, where no character of it can break the URL
        assert url.password is None and url.hostname == "db"
        assert url.username == db_env["POSTGRES_USER"]
        assert env.get("PGPASSWORD") == db_env["POSTGRES_PASSWORD"] == PASSWORD
        assert settings.metrics_port is not None
        check = compose["services"][name]["healthcheck"]["test"]
        assert check == ["CMD", *dockerfile()["healthcheck"]]
        assert compose["services"][name]["depends_on"]["db"]["condition"] == "service_healthy"
