"""A fake Discord (REST + gateway) for end-to-end tests of the unmodified discord.py client."""

from bot.fakediscord.driver import Driver, DriverError, InteractionFailed, InteractionResult
from bot.fakediscord.faults import FaultRule
from bot.fakediscord.forgery import InteractionRejected
from bot.fakediscord.model import Channel, Guild, Role, StoredMessage, User
from bot.fakediscord.ratelimit import RateLimitConfig, RateLimiter, RouteLimit
from bot.fakediscord.records import InteractionRecord, LogEntry, Ping, RateLimitHit, RestCall
from bot.fakediscord.server import FakeDiscord

__all__ = [
    "Channel",
    "Driver",
    "DriverError",
    "FakeDiscord",
    "FaultRule",
    "Guild",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionRejected",
    "InteractionResult",
    "LogEntry",
    "Ping",
    "RateLimitConfig",
    "RateLimitHit",
    "RateLimiter",
    "RestCall",
    "Role",
    "RouteLimit",
    "StoredMessage",
    "User",
]
