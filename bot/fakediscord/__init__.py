"""A fake Discord (REST + gateway) for end-to-end tests of the unmodified discord.py client."""

from bot.fakediscord.driver import Driver, DriverError, InteractionFailed, InteractionResult
from bot.fakediscord.model import Channel, Guild, Role, StoredMessage, User
from bot.fakediscord.records import InteractionRecord, LogEntry, Ping, RestCall
from bot.fakediscord.server import FakeDiscord, FaultRule, RateLimitConfig

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
