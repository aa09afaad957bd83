"""The daily's shared result picture (``bot.cardart.result``): a small PNG of a fixed size that
holds whatever words it is given, however long, and draws without a sparkline too."""

from __future__ import annotations

import io

from PIL import Image

from bot.cardart.result import HEIGHT, WIDTH, ResultCard, result_card


def _card(**changes: object) -> ResultCard:
    fields: dict[str, object] = dict(
        title="Dubb daily · 2026-01-01", score=1, score_text="+1", caption="against the expert",
        lines=["Streak: 3 days in a row.",
               "Better than 66% of the others who played this deal."],
        spark=[6, 5, 7, 3, 1], spark_label="Cards in your hand as each of your turns began")
    fields.update(changes)
    return ResultCard(**fields)  # type: ignore[arg-type]


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_the_picture_is_a_small_png_of_its_size() -> None:
    data = result_card(_card())
    image = _image(data)
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert len(data) < 16 * 1024


def test_the_score_is_coloured_by_its_sign_and_words_change_the_picture() -> None:
    up, down = result_card(_card()), result_card(_card(score=-1, score_text="−1"))
    assert up != down
    up_colours = {c for _, c in _image(up).convert("RGB").getcolors(1 << 16) or []}
    down_colours = {c for _, c in _image(down).convert("RGB").getcolors(1 << 16) or []}
    assert any(g > 200 and r < 150 for r, g, _ in up_colours - down_colours)
    assert any(r > 200 and g < 100 for r, g, _ in down_colours - up_colours)


def test_long_words_fit_and_no_sparkline_draws_too() -> None:
    long = "Sehr langes Wort " * 20
    data = result_card(_card(title=long, caption=long, lines=[long, long], spark=[]))
    assert _image(data).size == (WIDTH, HEIGHT)
    assert result_card(_card(spark=[4])) != result_card(_card(spark=[]))
