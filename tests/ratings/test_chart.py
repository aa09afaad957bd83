"""The profile's chart is a real picture, and its alt text reads in each language."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.ratings.chart import ChartWords, rating_chart


def test_the_chart_is_a_png_a_phone_can_show() -> None:
    png = rating_chart([1000, 1069, 1040, 1101], ChartWords("$Anna$ — Dubb", "Games", "Rating"))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (800, 450)
    # not blank: the line and the labels are drawn
    assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 20


@pytest.mark.parametrize(("lang", "start"), [
    ("en", "Chart of Bo's Dubb rating: from 1000 to 1069 over 1 rated game."),
    ("sv", "Diagram över rating i Dubb för Bo: från 1000 till 1069 under 1 ratingparti."),
    ("da", "Diagram over rating i Dubb for Bo: fra 1000 til 1069 over 1 ratingspil."),
])
def test_the_alt_text_is_in_the_readers_language(lang: str, start: str) -> None:
    from bot.i18n import trn

    text = trn(lang, "Chart of {name}'s {game} rating: from {start} to {end} over {n} rated "
               "game.", "Chart of {name}'s {game} rating: from {start} to {end} over {n} rated "
               "games.", 1, name="Bo", game="Dubb", start="1000", end="1069")
    assert text == start
