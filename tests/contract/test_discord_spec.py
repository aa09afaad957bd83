"""The contract check on its own: what it says of bodies and routes, without a fake."""

from __future__ import annotations

from tests.contract.accepted import ACCEPTED
from tests.contract.discord_spec import discord_spec

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def _row(*components: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(components)}


def test_a_message_as_discord_py_sends_it_passes() -> None:
    body = {
        "content": "Anna to play", "allowed_mentions": {"parse": [], "users": [1234]},
        "embeds": [{"title": "Dubb", "image": {"url": "attachment://table.png"}}],
        "attachments": [{"id": 0, "filename": "table.png", "description": "the table"}],
        "components": [_row({"type": 2, "style": 1, "label": "Your hand",
                             "custom_id": "dubb:hand:1"})],
        "message_reference": {"message_id": 123456789012345678},
    }

    assert discord_spec().check("POST", MESSAGES, body) == []


def test_integer_snowflakes_pass_only_by_the_accepted_list() -> None:
    assert [a.schema for a in ACCEPTED] == ["SnowflakeType"]
    assert all(a.reason for a in ACCEPTED)
    body = {"allowed_mentions": {"users": [1.5]}}

    assert discord_spec().check("POST", MESSAGES, body) == [
        "POST /channels/{channel_id}/messages (create_message): at "
        "body.allowed_mentions.users[0]: 1.5 is of none of the types 'string', 'integer'"
    ]


def test_the_message_follows_the_component_kind_that_fits() -> None:
    body = {"type": 7, "data": {"components": [_row(
        {"type": 3, "custom_id": "cards", "options": [{"label": "7♥"}]})]}}

    assert discord_spec().check("POST", CALLBACK, body) == [
        f"POST {CALLBACK} (create_interaction_response): at "
        "body.data.components[0].components[0].options[0]: 'value' is a required property"
    ]


def test_an_enumeration_names_its_values_and_a_long_value_is_cut() -> None:
    spec = discord_spec()
    style = spec.check("POST", MESSAGES, {"components": [_row(
        {"type": 2, "style": 9, "label": "x", "custom_id": "x"})]})
    long = spec.check("POST", MESSAGES, {"content": "x" * 4001})

    assert style[0].endswith("at body.components[0].components[0].style: 9 is not one of "
                             "1 (PRIMARY), 2 (SECONDARY), 3 (SUCCESS), 4 (DANGER), 5 (LINK), "
                             "6 (PREMIUM)")
    assert long[0].endswith("at body.content: '" + "x" * 59 + "… (4001 characters) is too long")


def test_routes_and_methods_the_description_lacks() -> None:
    spec = discord_spec()

    assert spec.check("GET", "/channels/{channel_id}/messages/{message_id}", None) == []
    assert spec.check("POST", "/channels/{channel_id}/messages/{message_id}", None) == [
        "POST /channels/{channel_id}/messages/{message_id}: Discord's API description has no "
        "POST for it"]
    assert spec.check("GET", "/channels/1/shuffle", None) == [
        "GET /channels/1/shuffle: Discord's API description has no such route"]
