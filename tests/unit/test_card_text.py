"""Cards in text: letters until the application's emojis are known, then the emojis; labels stay
letters and carry the emoji beside them; a text too long with emojis falls back to letters
rather than being cut inside one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import cards
from bot.cardart import EMOJI_FACES, emoji_name
from bot.cardart.faces import BACK
from bot.cards import CardEmoji, make, make_joker
from bot.discord.common import cut
from bot.discord.emojis import card_emoji
from bot.games.dubb.face import render as dubb
from bot.games.tonk.face import render as tonk


@pytest.fixture
def emojis() -> Iterator[dict[int, CardEmoji]]:
    known = {cards.face_of(face): CardEmoji(emoji_name(face), 10**18 + i)
             for i, face in enumerate(EMOJI_FACES) if face != BACK}
    cards.use_emojis(known)
    yield known
    cards.use_emojis({})


def test_letters_while_no_emoji_is_known() -> None:
    assert cards.display(make(7, 1)) == "7♥"
    assert cards.emoji(make(7, 1)) is None
    assert card_emoji(make(7, 1)) is None


def test_emoji_markup_once_known_for_either_pack(emojis: dict[int, CardEmoji]) -> None:
    seven = emojis[cards.face_of(make(7, 1))]

    assert cards.display(make(7, 1)) == f"<:7_of_hearts:{seven.id}>"
    assert cards.display(make(7, 1, deck=1)) == cards.display(make(7, 1))
    assert cards.display(make_joker(1)).startswith("<:red_joker:")
    assert cards.letters(make(7, 1)) == "7♥"
    emoji = card_emoji(make(7, 1))
    assert emoji is not None and (emoji.name, emoji.id) == ("7_of_hearts", seven.id)


def test_plain_writes_emojis_back_as_letters(emojis: dict[int, CardEmoji]) -> None:
    text = "Anna played " + cards.display_many([make(7, 1), make(7, 0), make_joker(0)])

    assert cards.plain(text) == "Anna played 7♥ 7♠ 🃏"
    assert cards.plain("<:someone_else:123456789012345678>") == (
        "<:someone_else:123456789012345678>")


def test_a_text_too_long_with_emojis_is_cut_in_letters(emojis: dict[int, CardEmoji]) -> None:
    hand = cards.new_deck()[:40]
    text = "Your hand: " + cards.display_many(hand)

    assert len(text) > 1024
    shown = cut(text, 1024)
    assert shown == "Your hand: " + " ".join(cards.letters(c) for c in hand)
    assert "<:" not in cut(text * 20, 1024)


def test_tonk_text_shows_emojis_and_labels_letters(emojis: dict[int, CardEmoji]) -> None:
    run = [make(5, 3), make(6, 3), make(7, 3)]

    assert tonk.spread_text(run) == " ".join(cards.display(c) for c in run)
    assert tonk.spread_text(run, cards.letters) == "♣5-6-7"
    assert tonk.cards_text(run, cards.letters) == "5♣ 6♣ 7♣"


def test_tonk_run_in_letters_without_emojis() -> None:
    assert tonk.spread_text([make(5, 3), make(6, 3), make(7, 3)]) == "♣5-6-7"


def test_dubb_hand_text_is_emojis(emojis: dict[int, CardEmoji]) -> None:
    hand = [make(7, 1), make(7, 0), make(9, 2)]

    text = dubb.hand_text(hand, "en")

    assert text == (f"{cards.display(make(7, 0))} {cards.display(make(7, 1))} · "
                    f"{cards.display(make(9, 2))}")
