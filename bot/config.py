"""Settings, read from the environment and an optional ``.env`` file (pydantic-settings)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.errors import KortbordError
from bot.storage import Shards
from bot.storage.url import DatabaseUrl, parse_database_url, sqlite_file

_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class ConfigError(KortbordError):
    """A setting is missing or malformed; the message is one line naming the variable."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    discord_token: SecretStr = Field(
        description="the bot token from the Discord developer portal", min_length=1
    )
    database_path: Path = Field(
        Path("./data/kortbord.sqlite3"), description="a file path for the SQLite database"
    )
    database_url: str | None = Field(
        None, description="postgresql://user:password@host:port/database or "
        "sqlite:///path/to/file",
    )
    discord_api_base: str | None = Field(
        None, description="an http(s) URL such as http://127.0.0.1:8765/api/v10"
    )
    discord_gateway_url: str | None = Field(
        None, description="a ws(s) URL such as ws://127.0.0.1:8765/"
    )
    discord_limits_scale: float = Field(
        1.0, gt=0, le=1,
        description="Discord's rate-limit windows times this, for a stand-in Discord that runs "
        "its limits faster (tests); 1 for Discord",
    )
    global_rate_limit: int = Field(
        50, ge=1, description="requests per second Discord allows the bot's token in all, over "
        "every process (Discord's 50 unless it granted the bot more), e.g. 50",
    )
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, description="a comma-separated list of guild ids, e.g. 123,456"
    )
    log_level: str = Field("INFO", description="one of " + ", ".join(_LEVELS))
    log_format: Literal["text", "json"] = Field(
        "text", description="text (discord.py's lines) or json (one JSON object per line)"
    )
    metrics_port: int | None = Field(
        None, ge=0, le=65535, description="a TCP port for /metrics, /healthz and /readyz, e.g. "
        "9464 (0: any free port; unset: no endpoint)",
    )
    metrics_host: str = Field(
        "127.0.0.1", min_length=1, description="the address /metrics listens on, e.g. "
        "127.0.0.1 (this machine only) or 0.0.0.0",
    )
    activity_port: int | None = Field(
        None, ge=0, le=65535, description="a TCP port for the Discord Activity's server, e.g. "
        "8080 (0: any free port; unset: no Activity)",
    )
    activity_host: str = Field(
        "127.0.0.1", min_length=1, description="the address the Activity's server listens on, "
        "e.g. 127.0.0.1 (behind a proxy on this machine) or 0.0.0.0",
    )
    client_secret: SecretStr | None = Field(
        None, description="the application's OAuth2 client secret from the Developer Portal, "
        "with which the Activity exchanges its sign-in codes",
    )
    card_emojis: bool = Field(
        True, description="true: upload the cards as the application's emojis when missing and "
        "show cards in text as them; false: show cards as letters (7♥)",
    )
    computer_pause: float = Field(
        1.5, ge=0, le=60,
        description="seconds a computer player waits before it moves, e.g. 1.5 (0 = at once)",
    )
    expert_rollouts: int = Field(
        200, ge=1, le=100_000,
        description="rollouts an expert computer player makes per decision, e.g. 200",
    )
    expert_cpu_ms: float = Field(
        150, gt=0, le=10_000,
        description="the CPU milliseconds an expert computer player may spend per decision, "
        "e.g. 150",
    )
    expert_workers: int | None = Field(
        None, ge=0, le=256,
        description="processes expert computer players think in, e.g. 1 (unset: one fewer "
        "than the machine's cores, at least one; 0: a thread of the bot's own process)",
    )
    shard_count: int | None = Field(
        None, ge=1, description="the number of shards of the whole bot, e.g. 4 (unset: no "
        "sharding)",
    )
    shard_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, description="this process's shards, comma-separated, each from 0 "
        "to SHARD_COUNT - 1, e.g. 0,1 (unset: all of them)",
    )

    @field_validator("dev_guild_ids", mode="before")
    @classmethod
    def _split_guild_ids(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _format(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("shard_count", "metrics_port", "activity_port", "client_secret",
                     mode="before")
    @classmethod
    def _no_count(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, value: list[int], info: ValidationInfo) -> list[int]:
        if not value:
            return value
        if "shard_count" not in info.data:
            # SHARD_COUNT itself is malformed, and reported as such
            return value
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("SHARD_COUNT is not set")
        if len(set(value)) != len(value):
            raise ValueError("a shard is listed twice")
        if not all(0 <= i < count for i in value):
            raise ValueError(f"shard ids run from 0 to {count - 1}")
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if not value.startswith(("ws://", "wss://")):
            raise ValueError("must start with ws:// or wss://")
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parse_database_url(value)
        return value.strip()

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in _LEVELS:
            raise ValueError("unknown level")
        return level

    @property
    def database(self) -> DatabaseUrl:
        """The database to use: ``DATABASE_URL`` when it is set (it wins over
        ``DATABASE_PATH``), else the SQLite file at ``DATABASE_PATH``."""
        if self.database_url is not None:
            return parse_database_url(self.database_url)
        return sqlite_file(self.database_path)

    @property
    def database_setting(self) -> str:
        """The variable that named the database, for messages."""
        return "DATABASE_URL" if self.database_url is not None else "DATABASE_PATH"

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs (``None``: the bot is not sharded): ``SHARD_IDS`` of
        ``SHARD_COUNT``, or all of them."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids or range(self.shard_count)
        return Shards(count=self.shard_count, ids=tuple(ids))

    @property
    def activity(self) -> bool:
        """Whether the Activity is served: its port and the client secret are both set."""
        return self.activity_port is not None and self.client_secret is not None

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def load_settings(**overrides: Any) -> Settings:
    """Read the settings, turning pydantic's report into one line about the first bad variable."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        error = exc.errors()[0]
        name = str(error["loc"][0]) if error["loc"] else "settings"
        field = Settings.model_fields.get(name)
        expected = field.description if field is not None and field.description else "a valid value"
        empty = error["type"] in ("too_short", "string_too_short") and not error.get("input")
        problem = "is not set" if error["type"] == "missing" or empty else "is malformed"
        # a validator's own reason (never the value itself, which may hold a password)
        reason = error.get("ctx", {}).get("error") if error["type"] == "value_error" else None
        if reason is not None:
            problem += f" ({reason})"
        raise ConfigError(f"{name.upper()} {problem}: expected {expected}") from None
