"""Card faces: every one is drawn, all differ, and the corner index reads as the card.

The corner test is a small optical check independent of how a face is drawn: it finds the ink
blobs in the face's left strip (the part that shows in a fan), takes the first as the rank and
the second as the suit, and matches them against reference letters set straight from the shipped
font and against the four suit silhouettes. The rank and the suit must each match their own
reference best, the suit by shape alone (colour ignored: colour-blind safe).
"""

from __future__ import annotations

import math
from importlib import resources

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

from bot.cardart import BACK, CARD_WIDTH, face, faces
from bot.cardart.shapes import draw_suit
from bot.cards import RANK_NAMES, RANKS, SUITS, make, make_joker, new_deck, rank, suit

WIDTH = CARD_WIDTH
SMALL = 64
"""About the width a phone shows cards at when it fits a 12-card hand into 400 pixels."""
DECK = [*new_deck(), make_joker(0), make_joker(1), BACK]
NORM = (24, 32)
"""Size every blob and reference is brought to before comparing."""


def rgb(
    card: int, four_colour: bool = False, dimmed: bool = False, width: int = WIDTH
) -> Image.Image:
    return face(card, width, four_colour, dimmed).convert("RGB")


def ink_mask(image: Image.Image) -> Image.Image:
    """Pixels clearly darker than the white card, whatever their hue."""
    return image.convert("L").point(lambda v: 255 if v < 170 else 0)


def blobs(card: int, four_colour: bool = False, width: int = WIDTH) -> list[Image.Image]:
    """The ink blobs of the index, top to bottom: rows of ink separated by blank rows."""
    edge = round(width * 0.04)  # inside the rounded corner and the grey edge
    box = (edge, edge, round(width * 0.36), round(width * 1.3))
    strip = rgb(card, four_colour, width=width).crop(box)
    ink = ink_mask(strip)
    rows = [any(ink.getpixel((x, y)) for x in range(ink.width)) for y in range(ink.height)]
    runs: list[tuple[int, int]] = []
    for y, inked in enumerate(rows):
        if inked and (not runs or runs[-1][1] != y):
            runs.append((y, y + 1))
        elif inked:
            runs[-1] = (runs[-1][0], y + 1)
    found = []
    for top, bottom in runs:
        band = ink.crop((0, top, ink.width, bottom))
        box = band.getbbox()
        assert box is not None
        found.append(band.crop(box))
    return found


def normalised(mask: Image.Image) -> Image.Image:
    return mask.resize(NORM, Image.Resampling.BILINEAR)


def difference(a: Image.Image, b: Image.Image) -> float:
    """0 for the same shape: the share of pixels that differ once both are brought to one size,
    plus how much their proportions differ (a narrow J is no 3 however the pixels fall)."""
    pixels = ImageStat.Stat(ImageChops.difference(normalised(a), normalised(b))).mean[0] / 255
    proportions = abs(math.log((a.width / a.height) / (b.width / b.height)))
    return pixels + 0.25 * proportions


def reference_rank(name: str) -> Image.Image:
    path = resources.files("bot.cardart") / "fonts" / "DejaVuSansCondensed-Bold.ttf"
    font = ImageFont.truetype(str(path), 120)
    x0, y0, x1, y1 = font.getbbox(name)
    image = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(image).text((-x0, -y0), name, font=font, fill=255)
    return image


def reference_suit(s: int) -> Image.Image:
    image = Image.new("L", (240, 260), 0)
    draw_suit(ImageDraw.Draw(image), s, (0, 0, 240, 260), 255)
    box = image.getbbox()
    assert box is not None
    return image.crop(box)


RANK_REFS = {r: reference_rank(RANK_NAMES[r]) for r in RANKS}
SUIT_REFS = {s: reference_suit(s) for s in SUITS}


@pytest.mark.parametrize("four_colour", [False, True])
def test_every_face_renders_and_no_two_are_alike(four_colour: bool) -> None:
    seen: dict[bytes, int] = {}
    for card in DECK:
        image = face(card, WIDTH, four_colour)
        assert image.size == (WIDTH, round(WIDTH * 1.4))
        assert image.mode == "P"
        pixels = image.tobytes()
        assert pixels not in seen, f"{card} looks like {seen[pixels]}"
        seen[pixels] = card


def test_four_colour_scheme_recolours_diamonds_and_clubs_only() -> None:
    for card in new_deck():
        same = rgb(card).tobytes() == rgb(card, four_colour=True).tobytes()
        assert same == (suit(card) in (0, 1)), card


def test_copies_from_a_second_pack_share_the_face() -> None:
    assert face(make(7, 1, deck=1), WIDTH) is face(make(7, 1), WIDTH)
    assert face(make_joker(1, deck=1), WIDTH) is face(make_joker(1), WIDTH)


@pytest.mark.parametrize(("width", "four_colour"), [(WIDTH, False), (WIDTH, True), (SMALL, False)])
@pytest.mark.parametrize("card", new_deck(), ids=lambda c: f"{RANK_NAMES[c & 15]}{'shdc'[c >> 4]}")
def test_corner_reads_as_the_card(card: int, width: int, four_colour: bool) -> None:
    found = blobs(card, four_colour, width)
    assert len(found) >= 2, "the corner shows a rank and under it a suit"
    rank_blob, suit_blob = found[0], found[1]
    rank_scores = {r: difference(rank_blob, ref) for r, ref in RANK_REFS.items()}
    assert min(rank_scores, key=rank_scores.__getitem__) == rank(card), rank_scores
    suit_scores = {s: difference(suit_blob, ref) for s, ref in SUIT_REFS.items()}
    best = sorted(suit_scores, key=suit_scores.__getitem__)
    assert best[0] == suit(card), suit_scores
    # by shape alone (the masks ignore colour), with room to spare over the next likeliest suit
    assert suit_scores[best[1]] > 1.5 * suit_scores[best[0]], suit_scores


@pytest.mark.parametrize("four_colour", [False, True])
def test_nothing_but_the_index_shows_in_a_fanned_cards_strip(four_colour: bool) -> None:
    """Between the index column and ``CLEAR`` every face is plain card, so the strip a fan
    leaves of a card shows its index and nothing else."""
    edge = round(WIDTH * 0.04)
    box = (round(WIDTH * 0.33), edge, math.floor(WIDTH * faces.CLEAR), round(WIDTH * 1.4) - edge)
    for card in DECK[:-1]:
        assert ImageStat.Stat(rgb(card, four_colour).convert("L").crop(box)).extrema[0][0] >= 250


def test_jokers_spell_joker_down_the_corner() -> None:
    for card in (make_joker(0), make_joker(1)):
        found = blobs(card)
        assert len(found) >= 5
        refs = {ch: reference_rank(ch) for ch in "JOKER"}
        for blob, letter in zip(found[:5], "JOKER", strict=True):
            scores = {ch: difference(blob, ref) for ch, ref in refs.items()}
            assert min(scores, key=scores.__getitem__) == letter, scores


def index_colour(card: int, four_colour: bool) -> tuple[float, float, float]:
    """Mean colour of the rank's ink."""
    image = rgb(card, four_colour).crop((3, 3, round(WIDTH * 0.36), round(WIDTH * 0.36)))
    r, g, b = ImageStat.Stat(image, mask=ink_mask(image)).mean
    return r, g, b


def colour_name(colour: tuple[float, float, float]) -> str:
    r, g, b = colour
    if max(colour) < 90:
        return "black"
    if r > 1.8 * max(g, b):
        return "red"
    if b > 1.5 * max(r, g):
        return "blue"
    if g > 1.5 * max(r, b):
        return "green"
    return "other"


@pytest.mark.parametrize(
    ("four_colour", "expected"),
    [(False, ("black", "red", "red", "black")), (True, ("black", "red", "blue", "green"))],
)
def test_suit_colours(four_colour: bool, expected: tuple[str, ...]) -> None:
    for card in new_deck():
        assert colour_name(index_colour(card, four_colour)) == expected[suit(card)], card


def test_black_and_red_joker() -> None:
    assert colour_name(index_colour(make_joker(0), False)) == "black"
    assert colour_name(index_colour(make_joker(1), False)) == "red"


def test_jack_queen_king_differ_away_from_the_corner_too() -> None:
    """The centre of a court card (the big letter) tells J, Q and K apart without the index."""
    for s in SUITS:
        centre = (WIDTH // 2, WIDTH // 5, WIDTH, WIDTH * 6 // 5)
        centres = [rgb(make(r, s)).crop(centre).tobytes() for r in (11, 12, 13)]
        assert len(set(centres)) == 3


def test_dimmed_faces_are_darker_everywhere_on_the_card() -> None:
    for card in (make(2, 0), make(12, 1), make_joker(0), BACK):
        inside = (WIDTH // 10, WIDTH // 10, WIDTH * 9 // 10, WIDTH * 13 // 10)
        bright = ImageStat.Stat(rgb(card).convert("L").crop(inside))
        dim = ImageStat.Stat(rgb(card, dimmed=True).convert("L").crop(inside))
        assert dim.extrema[0][1] < 180
        assert dim.mean[0] < 0.8 * bright.mean[0]
