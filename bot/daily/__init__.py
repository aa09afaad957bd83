"""The daily deal (issue 46): one committed deal a day per game, the same for every person on
every server, played against the game's computers and scored against the expert in the same
seat (``docs/daily.md``). Nothing here knows Discord or names a game: a game says what its daily
is with ``DailyRules`` on its ``GameSpec``."""
