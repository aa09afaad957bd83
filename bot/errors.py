"""The one root of kortbord's own errors.

Every error the bot raises on purpose derives from ``KortbordError``, so a caller that wants
"anything kortbord refused" catches one class; the kinds below it say who caused it and where
its words live: ``RuleError`` (a move the rules forbid, ``bot.gamekit.contract``),
``TableError`` (a table refuses, ``bot.table.errors``), ``StoreError`` (the database,
``bot.storage.errors``), ``UserFacingError`` (an answer in the person's language,
``bot.discord.errors``), ``EventError``, ``ConfigError``. Nothing here imports the project, so
every floor may import it.
"""

from __future__ import annotations


class KortbordError(Exception):
    """Something kortbord itself refused or could not do."""
