"""The bot's own check of every option a command receives.

Discord's client only sends values inside what a command declares, but the API delivers what a
client sends, and declarations change between deploys; so every option is checked here again
and anything outside its range is refused with a clear private answer before anything changes.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.discord.errors import UserFacingError

TEXT_LIMIT = 100
"""The longest card or spread text a command takes (the declared ``max_length``)."""
MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 3600
"""Turn times a table may have (issue 8), besides 0 for no timer."""


def in_range(value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise UserFacingError(f"{what} must be from {low} to {high}. Nothing was changed.")
    return value


def one_of(value: int, allowed: Collection[int], what: str) -> int:
    if value not in allowed:
        choices = " or ".join(str(v) for v in sorted(allowed))
        raise UserFacingError(f"{what} must be {choices}. Nothing was changed.")
    return value


def turn_seconds(seconds: int) -> int:
    """A turn time a table may have: 0 (no timer) or ``MIN_TURN_SECONDS``..``MAX``."""
    if seconds != 0 and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise UserFacingError(f"A turn time is 0 (no timer) or {MIN_TURN_SECONDS} to "
                              f"{MAX_TURN_SECONDS} seconds.")
    return seconds


def text(value: str, what: str) -> str:
    """Typed text an option takes, at most ``TEXT_LIMIT`` characters."""
    if len(value) > TEXT_LIMIT:
        raise UserFacingError(f"That {what} is too long — at most {TEXT_LIMIT} characters. "
                              "Nothing was changed.")
    return value
