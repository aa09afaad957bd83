"""Issue 14: the catalogs translate every message the code marks, with the same placeholders,
and the grammar helpers speak each language."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from bot.i18n import LANGUAGES, join, lang_of, number, ordinal, signed, tr, trn
from bot.i18n.catalogs import extract, problems, read

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture(scope="module")
def messages() -> Catalog:
    return extract()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(
    messages: Catalog, lang: str
) -> None:
    found = list(problems(read(lang), messages))
    assert not found, f"{len(found)} problems, first: " + "\n".join(found[:15])


def test_the_code_marks_a_few_hundred_messages(messages: Catalog) -> None:
    # a broken extractor (wrong keywords) finds nothing, and every catalog looks complete
    ids = {m.id for m in messages if m.id}
    assert len(ids) > 300
    assert "Your hand" in ids and ("{n} card", "{n} cards") in ids


@pytest.mark.parametrize("lang", TRANSLATED)
def test_command_names_are_names_discord_accepts(messages: Catalog, lang: str) -> None:
    catalog = read(lang)
    for message in messages:
        if isinstance(message.id, str) and NAME.match(message.id) and message.id.islower():
            entry = catalog.get(message.id)
            if entry is None or not entry.string:
                continue  # reported by the completeness test
            name = str(entry.string).lower().replace(" ", "-")
            assert NAME.match(name), (message.id, entry.string)


def test_a_discord_locale_picks_the_language() -> None:
    assert lang_of("sv-SE") == "sv" and lang_of("da") == "da" and lang_of("fi") == "fi"
    assert lang_of("en-US") == "en" and lang_of("nb-NO") == "en" and lang_of(None) == "en"
    # Discord names Norwegian "no" (it is Bokmål); the bot's catalog and stored code are "nb"
    assert lang_of("no") == "nb" and lang_of("nb") == "nb"


def test_lists_numbers_and_places_follow_each_language() -> None:
    names = ["Anna", "Bo", "Cem"]
    assert join("en", names) == "Anna, Bo, and Cem"
    assert join("sv", names) == "Anna, Bo och Cem"
    assert join("da", names) == "Anna, Bo og Cem"
    assert join("fi", names) == "Anna, Bo ja Cem"
    assert join("nb", names) == "Anna, Bo og Cem"
    assert number("en", 1000) == "1,000" and number("da", 1000) == "1.000"
    assert number("sv", 1000).replace("\xa0", " ") == "1 000"
    assert [ordinal("sv", n) for n in (1, 2, 3, 11, 21)] == ["1:a", "2:a", "3:e", "11:e", "21:a"]
    assert [ordinal("da", n) for n in (1, 2)] == ["1.", "2."]
    assert [ordinal("fi", n) for n in (1, 2)] == ["1.", "2."]
    assert number("fi", 1000).replace("\xa0", " ") == "1 000"
    assert [ordinal("nb", n) for n in (1, 2)] == ["1.", "2."]
    assert number("nb", 1000).replace("\xa0", " ") == "1 000"
    assert [ordinal("en", n) for n in (1, 2, 3, 4, 11, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "22nd"]
    assert signed("en", 8) == "+8" and signed("en", -4) == "−4" and signed("en", 0) == "0"


CARDS = {"sv": ("1 kort", "2 kort"), "da": ("1 kort", "2 kort"), "fi": ("1 kortti", "2 korttia"),
         "nb": ("1 kort", "2 kort")}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plurals_and_cards_in_each_language(lang: str) -> None:
    one, two = trn(lang, "{n} card", "{n} cards", 1), trn(lang, "{n} card", "{n} cards", 2)
    assert (one, two) == CARDS[lang]
    assert tr(lang, "Your hand") != "Your hand"


def test_signed_numbers_and_percentages_follow_each_language() -> None:
    """Issue 47: hints and reviews wrote +1.5 and 12% in every language; the minus is the
    minus sign (U+2212) the glossary asks for, not a hyphen."""
    from bot.i18n import MINUS, percent

    assert MINUS == "\u2212"
    assert [signed("en", x, 1) for x in (1.5, -1.25, 1234.56)] == ["+1.5", "−1.2", "+1,234.6"]
    assert [signed("sv", x, 1) for x in (1.5, -0.5)] == ["+1,5", "−0,5"]
    assert [signed("da", x, 1) for x in (1.5, -0.5, 1234.5)] == ["+1,5", "−0,5", "+1.234,5"]
    assert signed("sv", 0.04, 1) == "0,0" and signed("da", -0.04, 1) == "0,0"
    assert signed("sv", -4) == "−4" and signed("da", -0.4) == "0" and signed("da", 2.6) == "+3"
    assert number("da", -1000) == "−1.000"
    assert percent("en", 0.12) == "12%"
    assert percent("sv", 0.12) == percent("da", 0.12) == "12\xa0%"
    assert percent("da", 1) == "100\xa0%"
    # a hint's risk of exactly nothing is the negated score 0.0: never "-0 %"
    assert percent("sv", -0.0) == percent("sv", -0.001) == "0\xa0%" and percent("en", -0.0) == "0%"


def test_a_value_made_before_its_reader_is_known_is_written_in_the_readers_language() -> None:
    from bot.i18n import L, Later, percent

    chance = Later(percent, 0.2)
    assert tr("en", "about a {chance} chance of losing", chance=chance) == (
        "about a 20% chance of losing")
    assert tr("sv", "about a {chance} chance of losing", chance=chance) == (
        "ungefär 20\xa0% risk att förlora")
    assert L("about {chips} chips this hand", chips=Later(signed, 1.5, 1)).render("da") == (
        "omkring +1,5 jetoner i denne runde")
