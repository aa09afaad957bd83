"""The PNG writer: any palette picture comes back from a PNG decoder (Pillow's) pixel for pixel,
with its palette and its transparent index, and decodes the same as Pillow's own encoding."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.cardart import palette, png


def picture(width: int, height: int, pixels: bytes) -> Image.Image:
    image = Image.frombytes("P", (width, height), pixels)
    image.putpalette(palette.palette_image().getpalette())
    return image


@st.composite
def pictures(draw: st.DrawFn) -> Image.Image:
    width = draw(st.integers(1, 60))
    height = draw(st.integers(1, 40))
    pixels = draw(st.binary(min_size=width * height, max_size=width * height))
    return picture(width, height, pixels)


def read(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


@settings(max_examples=60, deadline=None)
@given(pictures())
def test_a_palette_picture_decodes_pixel_for_pixel(image: Image.Image) -> None:
    decoded = read(png.encode(image, palette.TRANSPARENT))
    assert decoded.mode == "P"
    assert decoded.size == image.size
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()
    assert decoded.info["transparency"] == palette.TRANSPARENT


@settings(max_examples=20, deadline=None)
@given(pictures())
def test_it_decodes_as_pillows_own_encoding_does(image: Image.Image) -> None:
    ours = read(png.encode(image, palette.TRANSPARENT)).convert("RGBA")
    buffer = io.BytesIO()
    image.save(buffer, "PNG", transparency=palette.TRANSPARENT)
    theirs = read(buffer.getvalue()).convert("RGBA")
    assert ours.tobytes() == theirs.tobytes()


def test_only_index_zero_is_transparent() -> None:
    image = picture(3, 1, bytes([0, 1, 200]))
    alpha = read(png.encode(image, 0)).convert("RGBA").getchannel("A").tobytes()
    assert alpha == bytes([0, 255, 255])


def test_a_picture_without_a_palette_is_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (2, 2)), palette.TRANSPARENT)


@settings(max_examples=30, deadline=None)
@given(pictures())
def test_a_framed_picture_is_the_picture_right_of_its_first_column(image: Image.Image) -> None:
    framed = palette.canvas((image.width + 1, image.height))
    framed.paste(image, (1, 0))
    assert png.encode_framed(framed, palette.TRANSPARENT) == png.encode(image,
                                                                       palette.TRANSPARENT)


def test_a_framed_picture_with_anything_in_its_first_column_is_refused() -> None:
    framed = picture(3, 2, bytes([0, 1, 2, 5, 1, 2]))
    with pytest.raises(ValueError, match="first column"):
        png.encode_framed(framed, palette.TRANSPARENT)
