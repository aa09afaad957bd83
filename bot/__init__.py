"""kortbord: a Discord bot that plays card games in server channels (``bot.games.registry``)."""
