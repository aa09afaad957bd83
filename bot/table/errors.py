"""Requests the table service refuses. ``message`` is a short message for the user who made the
request, said in their language when it is shown (``bot.i18n.L``): what went wrong, and what
they can do. It never contains cards."""

from __future__ import annotations

from bot.errors import KortbordError
from bot.i18n import DEFAULT, L


class TableError(KortbordError):
    def __init__(self, message: L) -> None:
        super().__init__(message.render(DEFAULT))
        self.message = message


class NoTableError(TableError):
    def __init__(self) -> None:
        super().__init__(L("There is no game in this channel."))


class ChannelBusyError(TableError):
    """The channel already has a lobby or a game; ``message_id`` is its table message (if posted
    yet) so the reply can link to it."""

    def __init__(self, *, guild_id: int, channel_id: int, table_id: int, kind_label: str,
                 status: str, message_id: int | None) -> None:
        link = (None if message_id is None
                else f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}")
        if status == "lobby":
            message = (L("This channel already has a {game} lobby: {link}. Join it, or start "
                         "yours in another channel.", game=kind_label, link=link)
                       if link else
                       L("This channel already has a {game} lobby. Join it, or start yours "
                         "in another channel.", game=kind_label))
        else:
            message = (L("This channel already has a {game} game: {link}. Start yours in "
                         "another channel.", game=kind_label, link=link)
                       if link else
                       L("This channel already has a {game} game. Start yours in another "
                         "channel.", game=kind_label))
        super().__init__(message)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.table_id = table_id
        self.message_id = message_id


class AlreadySeatedError(TableError):
    """One table per player per server: ``channel_id`` is where they sit."""

    def __init__(self, *, channel_id: int, table_id: int) -> None:
        super().__init__(L("You already sit at a table in <#{channel}>. Leave it before you "
                           "join another.", channel=channel_id))
        self.channel_id = channel_id
        self.table_id = table_id


class AlreadyJoinedError(TableError):
    def __init__(self) -> None:
        super().__init__(L("You're already at this table."))


class NotSeatedError(TableError):
    def __init__(self) -> None:
        super().__init__(L("You're not at this table."))


class TableFullError(TableError):
    def __init__(self, limit: int) -> None:
        super().__init__(L("This table is full: it seats {limit}.", limit=limit))
        self.limit = limit


class NotHostError(TableError):
    def __init__(self) -> None:
        super().__init__(L("Only the host can do that."))


class NotAllowedError(TableError):
    def __init__(self) -> None:
        super().__init__(L("Only the host, or a member who can manage messages, can stop this "
                           "table."))


class NotEnoughPlayersError(TableError):
    def __init__(self, needed: int) -> None:
        super().__init__(L("At least {needed} players are needed to start. Wait for someone to "
                           "join, or add a computer player.", needed=needed))
        self.needed = needed


class GameStartedError(TableError):
    def __init__(self) -> None:
        super().__init__(L("The game has already started."))


class NotPlayingError(TableError):
    def __init__(self) -> None:
        super().__init__(L("The game hasn't started yet."))


class StaleMoveError(TableError):
    """The move was made against an earlier state (double click, old button, retry)."""

    def __init__(self, *, expected: int, actual: int | None) -> None:
        super().__init__(L("That button is from an earlier turn: the table has moved on. "
                           "Nothing was changed."))
        self.expected = expected
        self.actual = actual


class InvalidOptionsError(TableError):
    pass
