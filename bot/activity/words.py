"""The Activity page's own words (its headings, buttons and screen-reader labels), by the key the
page reads them under from a scene's ``words``. The page shows no word of its own: each is here,
in the catalogs, and sent in the person's language."""

from __future__ import annotations

from functools import cache

from bot.i18n import N_, tr

WORDS: dict[str, str] = {
    "loading": N_("Opening the table…"),
    "authorizing": N_("Waiting for your permission in Discord…"),
    "connecting": N_("Connecting to the table…"),
    "reconnecting": N_("The connection dropped. Connecting again…"),
    "expired": N_("Your session ran out. Opening the table again…"),
    "failed": N_("Something went wrong. Close the Activity and open it again."),
    "table": N_("Table"),
    "seats": N_("Players"),
    "piles": N_("On the table"),
    "latest": N_("Latest"),
    "result": N_("Result"),
    "your_hand": N_("Your hand"),
    "your_turn": N_("Your turn"),
    "actions": N_("Your moves"),
    "no_moves": N_("Nothing to do until it's your turn."),
    "time_left": N_("Time left"),
    "cards": N_("Cards"),
    "you": N_("you"),
    "computer": N_("computer player"),
    "host": N_("host"),
    "face_down": N_("face down"),
    "selected": N_("selected"),
    "clear": N_("Clear the selection"),
    "drop_here": N_("Drop a card here to play it"),
}
"""Key → message (English, the catalogs' key)."""


@cache
def words(lang: str) -> dict[str, str]:
    """Every word of the page in ``lang``."""
    return {key: tr(lang, message) for key, message in WORDS.items()}
