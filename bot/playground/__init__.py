"""The playground: the real bot against the fake Discord, played from a web page.

``python -m bot.playground`` (or ``scripts/play``) starts the fake Discord on a loopback port,
runs ``python -m bot`` against it, and serves a page on which people act as the fake's users:
everything the page does goes through the fake's ``Driver``, as a Discord client would.
"""
