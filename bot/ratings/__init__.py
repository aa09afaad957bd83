"""Skill ratings (issue 33; docs/ratings.md): openskill's Weng–Lin ratings with the
Plackett–Luce model, per server, per game and per season, derived from the move log.

A game says how a table ranks its players (``GameSpec.standings``); this package decides which
tables count and ranks them (``results``, for the live table and for the rebuild from the move
log, ``bot.ops.rerate``), rates them (``model``), reads leaderboards and profiles (``board``),
draws a profile's chart (``chart``) and gives other features a player's strength
(``strengths``). Nothing here imports discord.
"""
