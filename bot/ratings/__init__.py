"""Skill ratings (issue 33; docs/ratings.md): openskill's Weng–Lin ratings with the
Plackett–Luce model, per server, per game and per season, derived from the move log.

A game says how a table ranks its players (``GameSpec.standings``); this package decides which
tables count, rates them (``model``), rebuilds every rating from the move log (``rerate``),
reads leaderboards and profiles (``board``), draws a profile's chart (``chart``) and gives other
features a player's strength (``strengths``). Nothing here imports discord.
"""
