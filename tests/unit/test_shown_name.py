"""Names shown to others (``shown_name``): Discord's markup in a name shows as typed, and a long
name is cut without splitting what a reader sees as one character."""

from __future__ import annotations

import re

import pytest

from bot.discord.common import NAME_LIMIT, shown_name

ZWSP = "\u200b"


@pytest.mark.parametrize("name", [
    "<#123456789012345678>",          # a channel link
    "</dubb start:123456789012345678>",  # a command to click
    "<:kortbord:123456789012345678>",  # a custom emoji
    "<a:spin:123456789012345678>",    # an animated one
    "<t:1700000000:R>",               # a time, "in 3 days"
    "<id:customize>",                 # a server guide link
])
def test_discord_markup_in_a_name_is_broken_as_a_mention_is(name: str) -> None:
    shown = shown_name(name)
    # Discord's markup starts "<" then one of these: no longer once the name is shown
    assert not re.search(r"<(?:[#/:]|a:|t:|id:)", shown), shown
    assert shown.replace(ZWSP, "") == name


def test_a_name_that_reads_as_a_numbered_list_shows_as_typed() -> None:
    assert shown_name("1. Anna") == "1\\. Anna"
    assert shown_name("12.5 kg") == "12.5 kg"  # not a list: no space after the dot


def test_mentions_and_markdown_stay_escaped() -> None:
    assert shown_name("@everyone") == f"@{ZWSP}everyone"
    assert shown_name("**Bo**") == "\\*\\*Bo\\*\\*"


@pytest.mark.parametrize(("name", "kept"), [
    ("🇸🇪" * 17, "🇸🇪" * 15),                        # flags: pairs of letters
    ("x" * 29 + "👨\u200d👩\u200d👧", "x" * 29),       # a family: joined people
    ("x" * 30 + "e\u0301z", "x" * 30),               # an accent after its letter
    ("x" * 30 + "👍🏽z", "x" * 30),                    # a skin tone after its hand
    ("x" * 30 + "1\ufe0f\u20e3", "x" * 30),          # a keycap
    ("x" * 40, "x" * 31),
])
def test_a_long_name_is_cut_between_characters(name: str, kept: str) -> None:
    assert shown_name(name) == kept + "…"
    assert len(shown_name(name)) <= NAME_LIMIT


def test_a_name_of_the_longest_length_is_kept_whole() -> None:
    assert shown_name("y" * NAME_LIMIT) == "y" * NAME_LIMIT
