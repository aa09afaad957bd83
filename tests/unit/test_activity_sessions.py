"""Activity sessions (``bot.activity.sessions``): signed, bound to their fields, expiring; and
the scene's card ids and plain text."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from bot import cards
from bot.activity.scene import card_id, plain, plain_names
from bot.activity.sessions import LIFETIME, SessionError, Sessions


def test_a_session_reads_back_until_it_expires() -> None:
    now = [1_000_000.0]
    sessions = Sessions(SecretStr("the secret"), lambda: now[0])
    issued, token = sessions.issue(42, "Anna", "i-1", 7, 9, "sv")
    assert sessions.read(token) == issued
    assert issued.expires_at == 1_000_000 + LIFETIME
    assert "the secret" not in token
    now[0] += LIFETIME
    with pytest.raises(SessionError):
        sessions.read(token)


@pytest.mark.parametrize("damage", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
    lambda t: t.split(".")[0],
    lambda t: "e30." + t.split(".")[1],
    lambda t: "",
    lambda t: "not base64!.x",
])
def test_a_damaged_or_forged_session_is_refused(damage: object) -> None:
    sessions = Sessions(SecretStr("the secret"), lambda: 0.0)
    _, token = sessions.issue(42, "Anna", "i-1", 7, None, "en")
    with pytest.raises(SessionError):
        sessions.read(damage(token))  # type: ignore[operator]


def test_another_secret_reads_no_session() -> None:
    _, token = Sessions(SecretStr("one"), lambda: 0.0).issue(42, "Anna", "i-1", 7, None, "en")
    with pytest.raises(SessionError):
        Sessions(SecretStr("two"), lambda: 0.0).read(token)


def test_card_ids_and_plain_text() -> None:
    assert card_id(cards.make(10, cards.SPADES)) == "10S"
    assert card_id(cards.make(cards.QUEEN, cards.HEARTS, deck=1)) == "QH"
    assert card_id(cards.make_joker(1)) == "JK"
    assert plain(r"**Anna\_B** plays 7♥") == "Anna_B plays 7♥"


@pytest.mark.parametrize("name", [
    "__init__", "**star**", r"a\_b", r"C:\(x)", "1. Anna", "Dr. Who", "<@123456789012345678>",
    "<#123456789012345678>", "@everyone", "> q", "-# s", "a|b||c", "~~x~~", "`code`",
    "[a](http://x)",
])
def test_a_name_drawn_for_discord_comes_back_as_typed_on_the_page(name: str) -> None:
    # the page's lines are drawn for Discord with the names escaped (``plain_names``), the
    # lines' own bold around them; the page shows them as the player typed them
    escaped = plain_names(_seated(name))[1]
    assert plain(f"**{escaped}** plays 7♥") == f"{name} plays 7♥"
    assert plain(escaped) == name


def _seated(name: str) -> Any:
    return SimpleNamespace(engine=None, seats=[SimpleNamespace(player_id=1, name=name)])
