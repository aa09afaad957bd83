"""Operator command lines: ``python -m bot.ops <command>`` (``bot.ops.__main__`` lists them).

The top of the import graph: a command may reach every package it needs (the games, the table
service, the ratings, storage), so none of those ever imports a package above it to run one.
The older names stay as thin aliases that forward here by module name, without importing it:
``python -m bot.storage copy|audit|rerate|backup|restore``, ``python -m bot.verify`` (the bot
tells players to run it) and ``python -m bot.sim``.
"""
