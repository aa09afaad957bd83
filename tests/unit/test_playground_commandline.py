"""Reading a typed slash command as Discord's client does, against synced definitions."""

from __future__ import annotations

from typing import Any

import pytest

from bot.playground.commandline import (
    CommandLineError,
    leaves,
    options_for,
    parse,
    suggest,
)

COMMANDS: list[dict[str, Any]] = [
    {"type": 1, "name": "cards", "description": "Card games", "options": [
        {"type": 1, "name": "start", "description": "Open a table", "options": [
            {"type": 4, "name": "computers", "description": "Computer players"},
            {"type": 5, "name": "jokers", "description": "Play with jokers"},
            {"type": 4, "name": "decks", "description": "Packs",
             "choices": [{"name": "one pack", "value": 1}, {"name": "two packs", "value": 2}]},
        ]},
        {"type": 1, "name": "play", "description": "Play cards", "options": [
            {"type": 3, "name": "cards", "description": "Which", "required": True,
             "autocomplete": True},
        ]},
        {"type": 1, "name": "stats", "description": "Statistics", "options": [
            {"type": 6, "name": "player", "description": "Whose"},
        ]},
    ]},
    {"type": 1, "name": "ping", "description": "Pong"},
    {"type": 2, "name": "Context menu"},
]
LEAVES = leaves(COMMANDS)
PEOPLE = {"anna": "ANNA", "bo": "BO"}


def _user(name: str) -> str | None:
    return PEOPLE.get(name.lower())


def _options(text: str) -> dict[str, Any]:
    return options_for(parse(text, LEAVES), _user, lambda _: None)


def test_leaves_are_every_chat_command_and_subcommand() -> None:
    assert [leaf.path for leaf in LEAVES] == ["cards play", "cards start", "cards stats", "ping"]


def test_values_run_until_the_next_option_and_take_the_declared_types() -> None:
    assert _options("/cards start computers:2 jokers:true decks:2 ") == {
        "computers": 2, "jokers": True, "decks": 2,
    }
    assert _options("/cards play cards:7h 7s ") == {"cards": "7h 7s"}
    assert _options("/cards stats player:@Anna ") == {"player": "ANNA"}
    assert _options("/ping ") == {}


@pytest.mark.parametrize(("text", "says"), [
    ("/cards start computers:two ", "whole number"),
    ("/cards start jokers:maybe ", "True or False"),
    ("/cards play ", "needs cards:"),
    ("/cards stats player:Cem ", "nobody here"),
    ("/cards start size:3 ", "does not know 'size:3'"),
    ("/cards start computers:1 computers:2 ", "given twice"),
    ("/nothing ", "Unknown command"),
])
def test_what_the_client_would_not_send_is_explained(text: str, says: str) -> None:
    with pytest.raises(CommandLineError, match=says):
        _options(text)


def test_while_focused_a_value_stays_raw_and_unreadable_others_are_left_out() -> None:
    parsed = parse("/cards start computers:x decks:2", LEAVES)
    assert options_for(parsed, _user, lambda _: None, focused="decks") == {"decks": "2"}


def test_the_pop_up_offers_commands_then_options_then_values() -> None:
    commands = suggest("/cards s", LEAVES)
    assert commands.mode == "commands"
    assert [s.label for s in commands.items] == ["/cards start", "/cards stats"]
    assert commands.items[0].text == "/cards start "

    options = suggest("/cards start ", LEAVES)
    assert options.mode == "options"
    assert [s.text for s in options.items] == [
        "/cards start computers:", "/cards start jokers:", "/cards start decks:",
    ]
    after = suggest("/cards start computers:2 de", LEAVES)
    assert [s.text for s in after.items] == ["/cards start computers:2 decks:"]

    choices = suggest("/cards start decks:t", LEAVES)
    assert choices.mode == "values"
    assert [(s.label, s.text) for s in choices.items] == [("two packs", "/cards start decks:2 ")]
    assert [s.label for s in suggest("/cards start jokers:", LEAVES).items] == ["True", "False"]
    people = suggest("/cards stats player:a", LEAVES, ["Anna", "Bo"])
    assert [s.text for s in people.items] == ["/cards stats player:@Anna "]


def test_an_autocomplete_option_is_left_to_the_bot() -> None:
    found = suggest("/cards play cards:7", LEAVES)
    assert found.mode == "values" and found.items == []
    assert found.autocomplete is not None
    assert (found.autocomplete.name, found.autocomplete.raw) == ("cards", "7")
    assert "/cards play cards:7"[found.autocomplete.start:] == "7"
    assert suggest("/cards start computers:1 ", LEAVES).autocomplete is None
