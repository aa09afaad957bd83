"""The bot's own check of every option a command receives.

Discord's client only sends values inside what a command declares, but the API delivers what a
client sends, and declarations change between deploys; so every option is checked here again
and anything outside its range is refused with a clear private answer before anything changes.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.discord.errors import UserFacingError
from bot.i18n import L

TEXT_LIMIT = 100
"""The longest card or spread text a command takes (the declared ``max_length``)."""
MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 3600
"""Turn times a table may have (issue 8), besides 0 for no timer."""


def in_range(value: int, low: int, high: int, what: L) -> int:
    """``what`` names the option for the answer ("The stake")."""
    if not low <= value <= high:
        raise UserFacingError("{what} must be from {low} to {high}. Nothing was changed.",
                              what=what, low=low, high=high)
    return value


def one_of(value: int, allowed: Collection[int], what: L) -> int:
    if value not in allowed:
        low, high = min(allowed), max(allowed)
        raise UserFacingError("{what} must be from {low} to {high}. Nothing was changed.",
                              what=what, low=low, high=high)
    return value


def turn_seconds(seconds: int) -> int:
    """A turn time a table may have: 0 (no timer) or ``MIN_TURN_SECONDS``..``MAX``."""
    if seconds != 0 and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise UserFacingError("A turn time is 0 (no timer) or {low} to {high} seconds. "
                              "Nothing was changed.", low=MIN_TURN_SECONDS, high=MAX_TURN_SECONDS)
    return seconds


def text(value: str) -> str:
    """Typed text an option takes, at most ``TEXT_LIMIT`` characters."""
    if len(value) > TEXT_LIMIT:
        raise UserFacingError("That text is too long: at most {limit} characters. Nothing "
                              "was changed.", limit=TEXT_LIMIT)
    return value
