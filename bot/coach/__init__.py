"""The coach (issue 34): hints for a person's move and reviews of their finished games, by the
expert's search from what their seat could see, nothing else.

Game-blind, as the table service: it asks a game's ``GameSpec.search`` and strategies, and
knows nothing of Discord (``bot.discord.coach`` shows its answers).
"""
