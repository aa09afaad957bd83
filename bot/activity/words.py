"""The Activity page's own words (its headings, buttons and screen-reader labels), by the key the
page reads them under from a scene's ``words``. The page shows no word of its own: each is here,
in the catalogs, and sent in the person's language."""

from __future__ import annotations

from functools import cache

from bot.i18n import N_, tr, trn

WORDS: dict[str, str] = {
    "loading": N_("Opening the table…"),
    "authorizing": N_("Waiting for your permission in Discord…"),
    "authorize": N_("kortbord needs your permission to know who you are before it can seat you."),
    "retry": N_("Try again"),
    "connecting": N_("Connecting to the table…"),
    "reconnecting": N_("The connection dropped. Connecting again…"),
    "expired": N_("Your session ran out. Opening the table again…"),
    "failed": N_("Something went wrong. Close the Activity and open it again."),
    "table": N_("Table"),
    "seats": N_("Players"),
    "piles": N_("On the table"),
    "participants": N_("In the Activity"),
    "latest": N_("Latest"),
    "result": N_("Result"),
    "your_hand": N_("Your hand"),
    "your_turn": N_("Your turn"),
    "actions": N_("Your moves"),
    "no_moves": N_("Nothing to do until it's your turn."),
    "pick_hint": N_("Pick cards and play them, or drag a card onto the pile."),
    "no_move_with_these": N_("There is no move with just these cards."),
    "not_there": N_("That card can't go there."),
    "time_left": N_("Time left"),
    "you": N_("you"),
    "computer": N_("computer player"),
    "host": N_("host"),
    "face_down": N_("face down"),
    "clear": N_("Clear the selection"),
    "drop_here": N_("Drop a card here to play it"),
}
"""Key → message (English, the catalogs' key)."""

COUNTS: dict[str, tuple[str, str]] = {
    "cards": ("{n} card", "{n} cards"),
}
"""Key → a count's singular and plural. The page gets each as ``key.one`` and ``key.other``
with ``{n}`` left in, and picks the form with the browser's CLDR plural rules: every language
the bot speaks has just those two forms. (The messages are the catalogs' already, from
``bot.i18n.cards``.)"""


@cache
def words(lang: str) -> dict[str, str]:
    """Every word of the page in ``lang``."""
    found = {key: tr(lang, message) for key, message in WORDS.items()}
    for key, (one, other) in COUNTS.items():
        # n="{n}" keeps the placeholder for the page to fill with the number in its own script
        found[f"{key}.one"] = trn(lang, one, other, 1, n="{n}")
        found[f"{key}.other"] = trn(lang, one, other, 2, n="{n}")
    return found
