"""discord.py extensions, one per game plus shared ones: interaction in, service call, render."""
