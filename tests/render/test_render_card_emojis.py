"""With the cards' emojis known, every text names the same cards in the same words in all five
languages — only each card's letters become its emoji — while labels and menu options keep the
letters and carry the card's emoji beside them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot import cards
from bot.cardart import BACK, EMOJI_FACES, emoji_name
from bot.cards import CardEmoji
from bot.discord.routing import RoutedSelect
from bot.discord.rows import Rows
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions, event_to_dict, public_form
from bot.games.dubb.face import render as dubb
from bot.games.tonk import Phase, Spread
from bot.games.tonk import event_to_dict as tonk_event_to_dict
from bot.games.tonk import public_form as tonk_public_form
from bot.games.tonk.face import render as tonk
from bot.i18n import LANGUAGES
from tests.engine.test_tonk_engine import make_table

SEATS = [Seat(1, "Anna"), Seat(2, "Bo"), Seat(3, "Cem")]
NAMES = {1: "Anna", 2: "Bo", 3: "Cem"}
EMOJIS = {cards.face_of(face): CardEmoji(emoji_name(face), 10**18 + i)
          for i, face in enumerate(EMOJI_FACES) if face != BACK}


@pytest.fixture
def both() -> Iterator[None]:
    yield
    cards.use_emojis({})


def in_both(make: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """What ``make(*args, **kwargs)`` gives with cards as letters, then as emojis."""
    cards.use_emojis({})
    letters = make(*args, **kwargs)
    cards.use_emojis(EMOJIS)
    return letters, make(*args, **kwargs)


def _components(view: Rows) -> list[Any]:
    return list(view.children)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_dubb_game_reads_the_same_but_for_the_cards(lang: str, both: None) -> None:
    rng = random.Random(5)
    game = DubbEngine.new(SEATS, DubbOptions(), seed=5)
    emojis_seen = 0
    while not game.is_over:
        player = game.to_move
        assert player is not None
        (text, _), (emoji_text, view) = in_both(dubb.hand_panel, game.public_view(),
                                                        game.private_view(player), NAMES, lang,
                                                        table_id=1, counter=0)
        assert cards.plain(emoji_text) == text
        emojis_seen += emoji_text.count("<:")
        for select in (c for c in _components(view) if isinstance(c, RoutedSelect)):
            assert all("<:" not in o.label for o in select.options)
            if select.custom_id.split(":")[3] == "play":
                assert all(o.emoji is not None and o.emoji.id for o in select.options)
        events = [public_form(event_to_dict(e)) for e in game.apply(
            player, rng.choice(game.legal_moves(player)))]
        lines, emoji_lines = in_both(dubb.describe, events, NAMES, lang)
        assert [cards.plain(line) for line in emoji_lines] == lines
        emojis_seen += sum(line.count("<:") for line in emoji_lines)
    assert emojis_seen > 100


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_tonk_panel_reads_the_same_but_for_the_cards(lang: str, both: None) -> None:
    table = make_table({1: "4c 8c 8s 8h 2d Kd", 2: "4s 5h 6d 8d Qh", 3: "As 2h 3d 4h 5d"},
                       phase=Phase.AFTER_DRAW, spreads=[(2, "5c 6c 7c")], discards="9h",
                       taken="Kd")
    letters, emojis = in_both(tonk.hand_panel, table.public_view(), table.private_view(1),
                               table_id=7, counter=3, names=NAMES, lang=lang)

    assert "<:" in emojis.content and cards.plain(emojis.content) != emojis.content
    # a run reads ♣5-6-7 in letters and as its three cards in emojis
    assert cards.plain(emojis.content).replace("5♣ 6♣ 7♣", "♣5-6-7") == letters.content
    options = {o.label: o.emoji for c in _components(emojis.view)
               if isinstance(c, RoutedSelect) for o in c.options}
    assert options.keys() == {o.label for c in _components(letters.view)
                              if isinstance(c, RoutedSelect) for o in c.options}
    assert all(e is not None and e.id for e in options.values())
    spread = next(e for e in tonk.describe([tonk_public_form(tonk_event_to_dict(e))
                                            for e in table.apply(1, _spread(table))],
                                           NAMES, lang))
    assert spread.count("<:") == 3


def _spread(table: Any) -> Spread:
    return next(m for m in table.legal_moves(1) if isinstance(m, Spread))
