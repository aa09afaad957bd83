"""kortbord: a Discord bot for the card games Dubb and Tonk."""
