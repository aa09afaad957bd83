"""Turning game views into what Discord shows: embeds, components and plain-word event lines.

Nothing here changes a game; the public renderers only ever read public views and the public
form of events, so a hand can never reach a public message through them.
"""
