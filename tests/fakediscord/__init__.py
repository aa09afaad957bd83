"""A fake Discord (REST + gateway) for end-to-end tests of the unmodified discord.py client."""

from tests.fakediscord.driver import Driver, DriverError, InteractionFailed, InteractionResult
from tests.fakediscord.model import Channel, Guild, Role, StoredMessage, User
from tests.fakediscord.records import InteractionRecord, LogEntry, Ping, RestCall
from tests.fakediscord.server import FakeDiscord, FaultRule, RateLimitConfig

__all__ = [
    "Channel",
    "Driver",
    "DriverError",
    "FakeDiscord",
    "FaultRule",
    "Guild",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionResult",
    "LogEntry",
    "Ping",
    "RateLimitConfig",
    "RestCall",
    "Role",
    "StoredMessage",
    "User",
]
