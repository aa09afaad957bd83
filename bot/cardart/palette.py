"""The one fixed 256-colour palette every card picture uses, and the dimming of a colour.

Every face is drawn in full colour, then mapped once onto this palette; compositions then only
paste palette images onto a palette canvas and encode one byte per pixel, which keeps both the
render time and the PNG small. The palette holds, for each ink, a ramp from white to the ink
(the anti-aliased edges of an ink on a white card lie on that ramp), and the same ramps dimmed.
Index 0 is transparent: the table behind the cards is Discord's own background, light or dark.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

RGB = tuple[int, int, int]

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (24, 24, 28)
RED: RGB = (206, 22, 36)
BLUE: RGB = (18, 78, 196)
GREEN: RGB = (0, 122, 52)
INKS: tuple[RGB, ...] = (BLACK, RED, BLUE, GREEN)

TRANSPARENT = 0
STEPS = 31
"""Colours per ramp: white, 29 mixtures, the ink. 8 ramps of 31 fill 248 of the 255 entries."""

_DIM_TOWARDS: RGB = (70, 70, 76)
_DIM_KEEP = 0.42
"""A dimmed colour keeps this share of itself and takes the rest from a dark grey, so a dimmed
card reads as switched off on Discord's light and dark themes alike."""

_UNUSED: RGB = (255, 0, 255)
"""Fills index 0 and the spare entries: far from every colour drawn, so nothing maps to them."""


def _dim_channel(value: int, channel: int) -> int:
    return round(_DIM_KEEP * value + (1 - _DIM_KEEP) * _DIM_TOWARDS[channel])


def dim(colour: RGB) -> RGB:
    r, g, b = (_dim_channel(v, ch) for ch, v in enumerate(colour))
    return r, g, b


DIM_LUT: tuple[int, ...] = tuple(_dim_channel(v, ch) for ch in range(3) for v in range(256))
"""``Image.point`` table that dims an RGB image channel by channel (``dim`` is affine)."""


def mix(ink: RGB, share: float) -> RGB:
    """``share`` of ``ink`` on white: the colour of an edge pixel that ink partly covers."""
    r, g, b = (round(255 + share * (c - 255)) for c in ink)
    return r, g, b


def _ramp(ink: RGB) -> list[RGB]:
    return [mix(ink, i / (STEPS - 1)) for i in range(STEPS)]


def _colours() -> list[RGB]:
    """The 256 palette entries in index order."""
    ramps = [_ramp(ink) for ink in INKS]
    entries = [_UNUSED] + [c for r in ramps for c in r] + [dim(c) for r in ramps for c in r]
    return entries + [_UNUSED] * (256 - len(entries))


_FLAT = bytes(v for c in _colours() for v in c)
"""As bytes, not a list of ints: Pillow keeps what it is given in every palette image, and the
garbage collector walks a list's 768 entries in every collection that reaches it (the cached
faces' palettes were a quarter of what a full collection walked under load, issue 16)."""


@cache
def palette_image() -> Image.Image:
    """A 1×1 palette image carrying the palette, as ``Image.quantize`` wants it."""
    image = Image.new("P", (1, 1))
    image.putpalette(_FLAT)
    return image


def canvas(size: tuple[int, int]) -> Image.Image:
    """A transparent palette image to paste faces on."""
    image = Image.new("P", size, TRANSPARENT)
    image.putpalette(_FLAT)
    return image


def to_palette(rgb: Image.Image, opaque: Image.Image) -> Image.Image:
    """Map an RGB drawing onto the palette (nearest colour, no dithering: edges stay crisp);
    pixels where the ``"1"`` mask ``opaque`` is off become transparent."""
    mapped = rgb.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    mapped.paste(TRANSPARENT, mask=opaque.point(lambda v: 0 if v else 255, "1"))
    mapped.info["transparency"] = TRANSPARENT
    return mapped
