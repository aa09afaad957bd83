"""The game-blind table service: between the Discord layer and storage, one lock per channel,
engines in memory; and the two things that drive tables without a user: turn timers and computer
players."""

from bot.table.errors import (
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
from bot.table.service import ApplyResult, TableService, TableSnapshot

__all__ = [
    "AlreadyJoinedError",
    "AlreadySeatedError",
    "ApplyResult",
    "ChannelBusyError",
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
