"""A hand panel at its largest stays within Discord's limits for a Components V2 message (issue
44): 40 components counted through every level and 4,000 characters of text, in all five
languages, with the cards as emojis (the longest text) and the Hint button the host adds — a
six-seat Dubb table without the 7-card hand limit (a long hand, two packs and jokers) and a
four-seat Tonk table with many spreads to hit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import discord
import pytest

from bot import cards
from bot.cardart import CardImage
from bot.cards import make, make_joker
from bot.discord.common import button
from bot.discord.layout import panel_layout
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.layouts import check_layout
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions
from bot.games.dubb.face import pictures as dubb_pictures
from bot.games.dubb.face import render as dubb
from bot.games.tonk import Phase
from bot.games.tonk.face import pictures as tonk_pictures
from bot.games.tonk.face import render as tonk
from bot.i18n import LANGUAGES, tr
from tests.engine.test_tonk_engine import make_table
from tests.render.test_render_card_emojis import EMOJIS

COMPONENTS_MAX = 40
TEXT_MAX = 4000
LONG = "W" * 32  # Discord's longest display name
NAMES = {p: f"{LONG[:-1]}{p}" for p in range(1, 7)}


@pytest.fixture(autouse=True)
def as_emojis() -> Iterator[None]:
    cards.use_emojis(EMOJIS)
    yield
    cards.use_emojis({})


def _count(components: list[dict[str, Any]]) -> int:
    return sum(1 + _count(c.get("components") or []) for c in components)


def _texts(components: list[dict[str, Any]]) -> int:
    return sum((len(c["content"]) if c.get("type") == 10 else 0)
               + _texts(c.get("components") or []) for c in components)


def _within_limits(game: str, text: str, view: discord.ui.View, image: CardImage,
                   lang: str) -> dict[str, Any]:
    """``view`` with the host's Hint button, as the layout a panel is sent as: checked by the
    fake's validation of layouts. Returns the container."""
    with suppress(ValueError):  # a full panel has no room for it (bot.discord.panels)
        view.add_item(button(game, 5, "hint", tr(lang, "Hint"), counter=9))
    components = panel_layout(text, view, image).to_components()
    form = FormErrors()
    check_layout(form, ("components",), components, (1, 9, 10, 12, 13, 14, 17))
    assert form.tree == {}, form.tree
    assert _count(components) <= COMPONENTS_MAX and _texts(components) <= TEXT_MAX
    [box] = components
    return box


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_six_seat_dubb_panel_with_a_long_hand_stays_within_the_limits(lang: str) -> None:
    hand = [make(r, s, d) for r in range(3, 15) for s in range(4) for d in (0, 1)][:60]
    hand += [make_joker(0, 0), make_joker(1, 1)]
    game = DubbEngine.from_position(
        [Seat(p, NAMES[p]) for p in NAMES],
        hands=[hand, *([make(2, s, d)] for s in range(2) for d in (0, 1)), [make(2, 2, 0)]],
        pile=[(2, [make(2, 3, 0)])],
        to_move=1,
        options=DubbOptions(decks=2, jokers=True, hand_limit=False),
    )
    public, private = game.public_view(), game.private_view(1)
    text, view = dubb.hand_panel(public, private, NAMES, lang, table_id=5, counter=9,
                                 notice=tr(lang, "🔔 Your turn."))
    box = _within_limits("dubb", text, view, dubb_pictures.hand_picture(public, private, lang),
                         lang)
    assert cards.display(hand[0]) in box["components"][0]["content"]  # the hand as emojis


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_tonk_panel_with_many_spreads_to_hit_stays_within_the_limits(lang: str) -> None:
    spreads = [(2, "2c 3c 4c"), (3, "2d 3d 4d"), (4, "2h 3h 4h"), (2, "2s 3s 4s"),
               (3, "9c 10c Jc"), (4, "9d 10d Jd"), (2, "9h 10h Jh"), (3, "9s 10s Js")]
    table = make_table({1: "5c 5d 5h 8s Qh Kh", 2: "Kc Kd Ks Ac Ad", 3: "6c 6d 6h 7c 7d",
                        4: "Qc Qd Qs 8c 8d"}, phase=Phase.AFTER_DRAW, spreads=spreads,
                       discards="Ah")
    public, private = table.public_view(), table.private_view(1)
    panel = tonk.hand_panel(public, private, table_id=5, counter=9, names=NAMES, lang=lang,
                            notice=tr(lang, "🔔 Your turn."))
    box = _within_limits("tonk", panel.content, panel.view,
                         tonk_pictures.hand_picture(public, private, lang), lang)
    hits = [o for c in box["components"] if c["type"] == 1 for s in c["components"]
            for o in s.get("options", []) if s.get("custom_id", "").split(":")[3] == "hit"]
    assert len(hits) >= 5  # every spread a card of the hand fits


def test_the_fullest_view_and_the_longest_text_a_panel_could_have_fit_one_layout() -> None:
    """Whatever a face returns: a view holds at most five rows of five, and the text is cut."""
    view = discord.ui.View(timeout=None)
    for n in range(25):
        view.add_item(discord.ui.Button(label=f"{n}", custom_id=f"kb:dubb:5:play:9:{n}",
                                        row=n // 5))
    image = CardImage(b"", "x" * 1024, 1, 1)
    box = _within_limits("dubb", "\n".join(["y" * 99] * 60), view, image, "en")
    assert _count([box]) == 1 + 1 + 1 + 5 * (1 + 5)
    assert [c["type"] for c in box["components"]] == [10, 12, 1, 1, 1, 1, 1]
