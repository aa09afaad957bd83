"""Requests the table service refuses. ``message`` is a short sentence meant for the user who
made the request (shown ephemerally); it never contains cards."""

from __future__ import annotations


class TableError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoTableError(TableError):
    def __init__(self) -> None:
        super().__init__("There is no game in this channel.")


class ChannelBusyError(TableError):
    """The channel already has a lobby or a game; ``message_id`` is its table message (if posted
    yet) so the reply can link to it."""

    def __init__(self, *, guild_id: int, channel_id: int, table_id: int, kind_label: str,
                 status: str, message_id: int | None) -> None:
        what = "lobby" if status == "lobby" else "game"
        where = (
            f" here: https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
            if message_id is not None else ""
        )
        super().__init__(f"This channel already has a {kind_label} {what}{where}.")
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.table_id = table_id
        self.message_id = message_id


class AlreadySeatedError(TableError):
    """One table per player per server: ``channel_id`` is where they sit."""

    def __init__(self, *, channel_id: int, table_id: int) -> None:
        super().__init__(
            f"You already sit at a table in <#{channel_id}>. Leave it before joining another."
        )
        self.channel_id = channel_id
        self.table_id = table_id


class AlreadyJoinedError(TableError):
    def __init__(self) -> None:
        super().__init__("You are already at this table.")


class NotSeatedError(TableError):
    def __init__(self) -> None:
        super().__init__("You are not at this table.")


class TableFullError(TableError):
    def __init__(self, limit: int) -> None:
        super().__init__(f"This table is full ({limit} players).")
        self.limit = limit


class NotHostError(TableError):
    def __init__(self, action: str) -> None:
        super().__init__(f"Only the host can {action}.")


class NotAllowedError(TableError):
    def __init__(self) -> None:
        super().__init__(
            "Only the host or a member who can manage messages can stop this table."
        )


class NotEnoughPlayersError(TableError):
    def __init__(self, needed: int) -> None:
        super().__init__(f"At least {needed} players are needed to start.")
        self.needed = needed


class GameStartedError(TableError):
    def __init__(self) -> None:
        super().__init__("The game has already started.")


class NotPlayingError(TableError):
    def __init__(self) -> None:
        super().__init__("The game has not started yet.")


class StaleMoveError(TableError):
    """The move was made against an earlier state (double click, old button, retry)."""

    def __init__(self, *, expected: int, actual: int | None) -> None:
        super().__init__("The table has moved on since then; nothing was changed.")
        self.expected = expected
        self.actual = actual


class InvalidOptionsError(TableError):
    pass
