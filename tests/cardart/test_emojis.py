"""The cards as application emojis: which faces, their names (what a screen reader reads) and
their pictures, within Discord's limits."""

from __future__ import annotations

import io
import re

from PIL import Image, ImageStat

from bot.cardart import BACK, EMOJI_FACES, emoji_image, emoji_name
from bot.cards import make, make_joker, new_deck

EMOJI_BYTES = 256 * 1024
"""Discord's limit on an emoji's picture."""
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGBA")


def test_the_faces_are_the_52_cards_both_jokers_and_the_back() -> None:
    assert len(EMOJI_FACES) == 55
    assert set(EMOJI_FACES) == {*new_deck(jokers=True), BACK}


def test_names_read_as_words_and_keep_discords_rules() -> None:
    names = [emoji_name(face) for face in EMOJI_FACES]

    assert len(set(names)) == len(names), "one emoji per face"
    assert all(NAME.fullmatch(name) for name in names)
    assert emoji_name(make(7, 1)) == "7_of_hearts"
    assert emoji_name(make(12, 0)) == "queen_of_spades"
    assert emoji_name(make(10, 3)) == "10_of_clubs"
    assert emoji_name(make(14, 2)) == "ace_of_diamonds"
    assert emoji_name(make_joker(0)) == "black_joker"
    assert emoji_name(make_joker(1)) == "red_joker"
    assert emoji_name(BACK) == "face_down_card"


def test_the_second_pack_shares_the_first_packs_names() -> None:
    assert emoji_name(make(7, 1, deck=1)) == emoji_name(make(7, 1))
    assert emoji_name(make_joker(1, deck=1)) == emoji_name(make_joker(1))


def test_every_picture_is_a_small_square_png_with_something_on_it() -> None:
    for face in EMOJI_FACES:
        data = emoji_image(face)
        image = decode(data)

        assert len(data) <= EMOJI_BYTES
        assert image.size == (128, 128)
        assert image.getpixel((0, 0))[3] == 0, "transparent beside the card"
        assert image.getpixel((64, 64))[3] == 255


def test_a_cards_emoji_is_its_corner_drawn_large() -> None:
    """At some 22 pixels high, text's emoji size, the rank must fill much of the picture: the
    corner's ink reaches down most of the height, a whole card's index only its top third."""
    for card in (make(7, 1), make(10, 2), make(12, 0)):
        image = decode(emoji_image(card))
        ink = _ink_rows(image)
        assert ink[0] < 16 and ink[-1] > 100, (card, ink[0], ink[-1])


def test_the_two_colours_differ_where_the_suits_do() -> None:
    heart, spade = decode(emoji_image(make(7, 1))), decode(emoji_image(make(7, 0)))
    red = ImageStat.Stat(heart).mean[0] - ImageStat.Stat(heart).mean[2]
    black = ImageStat.Stat(spade).mean[0] - ImageStat.Stat(spade).mean[2]
    assert red > black


def _ink_rows(image: Image.Image) -> list[int]:
    """The rows holding dark or red ink (the rank and suit), top to bottom."""
    rows = []
    for y in range(image.height):
        for x in range(image.width):
            r, g, b, a = image.getpixel((x, y))
            if a == 255 and (r + g + b < 200 or (r > 150 and g < 90)):
                rows.append(y)
                break
    return rows
