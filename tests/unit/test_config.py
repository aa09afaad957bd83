"""Settings: defaults, parsing, and the one-line errors of ``python -m bot``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.storage.url import DatabaseUrl, sqlite_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DISCORD_API_BASE",
                 "DISCORD_GATEWAY_URL", "DEV_GUILD_IDS", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env file


def test_defaults_and_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DEV_GUILD_IDS", "12, 34")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:8765/api/v10/")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "abc"
    assert settings.dev_guild_ids == [12, 34]
    assert settings.discord_api_base == "http://127.0.0.1:8765/api/v10"
    assert str(settings.database_path) == "data/kortbord.sqlite3"
    assert settings.database == sqlite_file("data/kortbord.sqlite3")
    assert settings.database_setting == "DATABASE_PATH"
    assert settings.log_level == "INFO"
    assert "abc" not in repr(settings)


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\n")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "from-file"
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "x", "DEV_GUILD_IDS": "1,two"}, "DEV_GUILD_IDS is malformed"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"}, "LOG_LEVEL is malformed"),
        ({"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "ftp://x"}, "DISCORD_API_BASE is malformed"),
        (
            {"DISCORD_TOKEN": "x", "DISCORD_GATEWAY_URL": "http://x"},
            "DISCORD_GATEWAY_URL is malformed",
        ),
        (
            {"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://db/kortbord"},
            r"DATABASE_URL is malformed \(unknown scheme mysql://\): expected postgresql://",
        ),
        (
            {"DISCORD_TOKEN": "x", "DATABASE_URL": "postgresql://u:pw@host:five/db"},
            r"DATABASE_URL is malformed \(the port is not a number\)",
        ),
        (
            {"DISCORD_TOKEN": "x", "DATABASE_URL": "sqlite://relative.db"},
            r"DATABASE_URL is malformed \(a SQLite URL has three slashes",
        ),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "0"}, "SHARD_COUNT is malformed"),
        ({"DISCORD_TOKEN": "x", "SHARD_COUNT": "two"}, "SHARD_COUNT is malformed"),
        (
            {"DISCORD_TOKEN": "x", "SHARD_IDS": "0,1"},
            r"SHARD_IDS is malformed \(SHARD_COUNT is not set\)",
        ),
        (
            {"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": "2,4"},
            r"SHARD_IDS is malformed \(shard ids run from 0 to 3\)",
        ),
        (
            {"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": "-1"},
            r"SHARD_IDS is malformed \(shard ids run from 0 to 3\)",
        ),
        (
            {"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": "1,2,1"},
            r"SHARD_IDS is malformed \(a shard is listed twice\)",
        ),
        (
            {"DISCORD_TOKEN": "x", "SHARD_COUNT": "4", "SHARD_IDS": "1;2"},
            "SHARD_IDS is malformed",
        ),
    ],
)
def test_bad_settings_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError, match=expected):
        load_settings()


def test_python_m_bot_without_token_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0]


@pytest.mark.parametrize(
    ("env", "count", "ids"),
    [
        ({}, None, None),
        ({"SHARD_COUNT": ""}, None, None),
        ({"SHARD_COUNT": "4"}, 4, (0, 1, 2, 3)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": " 2, 3 "}, 4, (2, 3)),
        ({"SHARD_COUNT": "1", "SHARD_IDS": "0"}, 1, (0,)),
    ],
)
def test_shard_settings(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], count: int | None,
    ids: tuple[int, ...] | None,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    shards = load_settings().shards
    if count is None:
        assert shards is None
        return
    assert shards is not None and (shards.count, shards.ids) == (count, ids)
    # Discord's routing: a server's events go to shard (id >> 22) % count
    assert shards.owns(ids[0] << 22) and shards.owns_all == (len(ids) == count)


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "-2"}, "SHARD_COUNT"),
    ],
)
def test_python_m_bot_with_bad_shards_prints_one_line_and_exits_2(
    tmp_path: Path, env: dict[str, str], variable: str
) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SHARD_", "DISCORD_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path,
        env={**base, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", **env},
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"kortbord: {variable} is malformed")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///data/old.sqlite3", DatabaseUrl("sqlite", path=Path("data/old.sqlite3"))),
        ("sqlite:////srv/kortbord.sqlite3",
         DatabaseUrl("sqlite", path=Path("/srv/kortbord.sqlite3"))),
        ("postgresql://bot:pw@db:5432/kortbord",
         DatabaseUrl("postgresql", dsn="postgresql://bot:pw@db:5432/kortbord")),
        ("postgres://bot@/kortbord?host=/run/postgresql",
         DatabaseUrl("postgresql", dsn="postgres://bot@/kortbord?host=/run/postgresql")),
    ],
)
def test_database_url_wins_over_database_path(
    monkeypatch: pytest.MonkeyPatch, url: str, expected: DatabaseUrl
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", "/data/kortbord.sqlite3")
    monkeypatch.setenv("DATABASE_URL", url)
    settings = load_settings()
    assert settings.database == expected
    assert settings.database_setting == "DATABASE_URL"


def test_an_empty_database_url_means_database_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", "/data/kortbord.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "")
    settings = load_settings()
    assert settings.database == sqlite_file("/data/kortbord.sqlite3")
    assert settings.database_setting == "DATABASE_PATH"


def test_a_database_url_is_shown_without_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@db:5432/kortbord")
    assert load_settings().database.display == "postgresql://bot:***@db:5432/kortbord"
