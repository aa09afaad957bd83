"""The reference cycles discord.py leaves behind, broken once nothing uses them (issue 16).

CPython frees an object the moment nothing points at it, unless it sits in a cycle: then it
waits for the cyclic garbage collector, which walks the young objects each time some 700 were
made and stalls the event loop while it does. Under load almost all of the bot's garbage came
from the cycles below, made per click or per write: about 5,600 objects a second, and the
collections they caused were about half the time the loop spent in passes over 5 ms. Each is
broken here, where the bot knows the object's work is done, so it is freed at once
(``tests/e2e/test_request_budget.py`` plays a game with the collector off and finds none of
them left for it):

- an interaction and its ``response`` point at each other, so the interaction, its message,
  member and components all waited for the collector (``let_go``);
- a view and its items point at each other, and so do a layout's Sections and their
  accessories: the views the bot sends, and the one discord.py builds of the clicked message
  for a routed component (``empty_view``);
- a file attached to a request: ``discord.File.close`` puts the file's own ``close`` back on
  the file as an attribute, a bound method pointing at its own file (``pictures.attachment``).
"""

from __future__ import annotations

import contextlib

import discord
from discord.ui.view import BaseView


def empty_view(view: object) -> None:
    """Empty a view that is sent or done with: nothing uses it again (components are routed by
    their custom ids), and emptied it no longer points at its items, which point at it. A
    layout's containers and rows hold items the same way, each emptied too; a Section's
    accessory is no child it can clear, and points back at its Section, so each item lets go
    of its parent as well. Anything else (nothing, or the bot's own layouts, plain data:
    ``bot.discord.layout.Layout``, ``bot.discord.rows.Rows``) holds no cycle."""
    if isinstance(view, BaseView):
        for item in list(view.walk_children()):
            clear = getattr(item, "clear_items", None)
            if clear is not None:
                clear()
            item._parent = None
        view.clear_items()


def let_go(interaction: discord.Interaction) -> None:
    """Break an interaction's cycle with its ``response`` once it has been served: nothing may
    answer it after this (its response would raise, not answer twice)."""
    # discord.py caches ``response`` in this slot, and the response keeps ``_parent``; a
    # discord.py that renames either fails that test rather than leak quietly
    response = getattr(interaction, "_cs_response", None)
    if response is not None:
        with contextlib.suppress(AttributeError):
            del response._parent
