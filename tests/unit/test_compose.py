"""``compose.yaml`` agrees with the bot: each bot service sets only settings ``bot/config.py``
knows, with values it accepts; together the bot services run every shard exactly once; they
reach the database service by its name and credentials and wait until it is healthy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings
from bot.storage import parse_database_url

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"
_VARIABLE = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")
LIBPQ = {"PGPASSWORD"}
"""libpq's own variables, which asyncpg reads when the URL leaves them out."""
ENV = {"DISCORD_TOKEN": "token-from-env-file"}
"""What a deployment's .env provides (the password is left to its default)."""


def _interpolate(value: str) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` against ``ENV``."""
    def one(match: re.Match[str]) -> str:
        name, kind, rest = match.groups()
        if name in ENV:
            return ENV[name]
        if kind == "-":
            return rest
        raise AssertionError(f"{name} must be set: {rest}")

    return _VARIABLE.sub(one, value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def _bots(compose: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each bot service (built from this repository) and its environment, interpolated."""
    return {name: {k: _interpolate(str(v)) for k, v in service["environment"].items()}
            for name, service in compose["services"].items() if "build" in service}


def _database(compose: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    found = [(n, s) for n, s in compose["services"].items()
             if str(s.get("image", "")).startswith("postgres:")]
    assert len(found) == 1, "one PostgreSQL service"
    return found[0]


def test_every_variable_is_a_setting_the_bot_accepts(compose: dict[str, Any]) -> None:
    known = {name.upper() for name in Settings.model_fields} | LIBPQ
    bots = _bots(compose)
    assert len(bots) >= 2
    for name, env in bots.items():
        assert set(env) <= known, f"{name} sets unknown settings {set(env) - known}"
        settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
        assert settings.shards is not None, f"{name} is not sharded"


def test_the_bots_run_every_shard_exactly_once(compose: dict[str, Any]) -> None:
    shards = [Settings(_env_file=None, **{k.lower(): v for k, v in env.items()}).shards
              for env in _bots(compose).values()]
    counts = {s.count for s in shards if s is not None}
    assert len(counts) == 1, "every process agrees on SHARD_COUNT"
    owned = sorted(i for s in shards if s is not None for i in s.ids)
    assert owned == list(range(counts.pop()))


def test_the_bots_use_the_database_service_once_it_is_healthy(compose: dict[str, Any]) -> None:
    db_name, db = _database(compose)
    db_env = {k: _interpolate(str(v)) for k, v in db["environment"].items()}
    assert db["healthcheck"]["test"]
    volume = db["volumes"][0].split(":")
    assert volume[1] == "/var/lib/postgresql/data" and volume[0] in compose["volumes"]
    for name, env in _bots(compose).items():
        assert compose["services"][name]["depends_on"][db_name] == {
            "condition": "service_healthy"}
        dsn = parse_database_url(env["DATABASE_URL"]).dsn
        assert dsn is not None, f"{name} does not use PostgreSQL"
        url = urlsplit(dsn)
        # the password goes beside the URL (libpq's PGPASSWORD, which asyncpg reads), where
        # no character of it can break the URL
        assert (url.hostname, url.username, url.password, url.path.lstrip("/")) == (
            db_name, db_env["POSTGRES_USER"], None, db_env["POSTGRES_DB"])
        assert env["PGPASSWORD"] == db_env["POSTGRES_PASSWORD"]
