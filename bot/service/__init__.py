"""The table service: between the cogs and storage, one lock per channel, engines in memory."""

from bot.service.errors import (
    AlreadyJoinedError,
    AlreadySeatedError,
    ChannelBusyError,
    GameStartedError,
    InvalidOptionsError,
    NoTableError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotHostError,
    NotPlayingError,
    NotSeatedError,
    StaleMoveError,
    TableError,
    TableFullError,
)
from bot.service.kinds import GameKind
from bot.service.tables import ApplyResult, TableService, TableSnapshot

__all__ = [
    "AlreadyJoinedError",
    "AlreadySeatedError",
    "ApplyResult",
    "ChannelBusyError",
    "GameKind",
    "GameStartedError",
    "InvalidOptionsError",
    "NoTableError",
    "NotAllowedError",
    "NotEnoughPlayersError",
    "NotHostError",
    "NotPlayingError",
    "NotSeatedError",
    "StaleMoveError",
    "TableError",
    "TableFullError",
    "TableService",
    "TableSnapshot",
]
