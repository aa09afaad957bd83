"""Compositions: pictures decode and stay small, alt text names exactly the cards, highlight dims
exactly the other cards, long rows wrap, and the same input gives the same bytes."""

from __future__ import annotations

import io
from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageStat

from bot.cardart import (
    ALT_LIMIT,
    BACK,
    CARD_WIDTH,
    FAN,
    SPREAD,
    Group,
    Style,
    card_words,
    emoji_image,
    faces,
    hand_image,
    labels,
    palette,
    render,
    row_image,
)
from bot.cardart.layout import arrange
from bot.cards import make, make_joker, new_deck, rank, sorted_hand
from bot.games.tonk.spreads import sort_cards

MAX_BYTES = 100_000
TWO_PACKS = new_deck(decks=2, jokers=True)

hands = st.lists(st.sampled_from(TWO_PACKS), unique=True, max_size=36).map(sorted_hand)


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGBA")


def alt_cards(alt: str) -> list[str]:
    """The card phrases of an alt text, labels and separators taken off."""
    phrases = [p for row in alt.split(". ") for g in row.split("; ") for p in g.split(", ")]
    return [p.split(": ", 1)[-1] for p in phrases]


def tonk_table(spreads: int) -> list[Group]:
    deck = new_deck()
    groups = [Group(sort_cards(deck[i * 4 : i * 4 + 4]), f"S{i + 1}") for i in range(spreads)]
    return [*groups, Group([deck[-1]], "Discard"), Group([BACK], "Stock")]


@settings(max_examples=40, deadline=None)
@given(hands)
def test_hand_alt_text_names_exactly_the_cards(cards: list[int]) -> None:
    image = hand_image(cards)
    expected = [card_words(c) for c in cards] or ["no cards"]
    assert alt_cards(image.alt) == expected


@settings(max_examples=25, deadline=None)
@given(hands.filter(bool), st.data())
def test_highlight_dims_exactly_the_other_cards(cards: list[int], data: st.DataObject) -> None:
    legal = set(data.draw(st.lists(st.sampled_from(cards), unique=True)))
    rows = [[Group(run) for _, run in groupby(cards, key=rank)]]
    image = decode(render(rows, style=FAN, highlight=legal).data)
    assert image.tobytes() == decode(hand_image(cards, highlight=legal).data).tobytes()
    inset = round(CARD_WIDTH * 0.04)
    for p in arrange(rows, FAN, CARD_WIDTH).cards:
        strip = image.crop((p.x + inset, p.y + inset, p.x + p.shown - inset, p.y + CARD_WIDTH))
        # the strip of a lit card is mostly white card; a dimmed one has no white at all
        brightest = ImageStat.Stat(strip.convert("L")).extrema[0][1]
        assert (brightest > 240) == (p.card in legal), (p.card, brightest)


@st.composite
def any_rows(draw: st.DrawFn) -> list[list[Group]]:
    """Rows of groups as any screen could ask for: empty places, face-down cards, labels."""
    cards = st.sampled_from([*TWO_PACKS, BACK])
    group = st.builds(Group, st.lists(cards, max_size=6),
                      st.none() | st.sampled_from(["S1", "Discard", "Stock"]))
    return draw(st.lists(st.lists(group, min_size=1, max_size=8), min_size=1, max_size=3))


@settings(max_examples=60, deadline=None)
@given(any_rows(), st.sampled_from([FAN, SPREAD]), st.sampled_from([61, 96, CARD_WIDTH, 200]),
       st.booleans(), st.data())
def test_pixels_are_those_of_every_whole_face_pasted_in_turn(
    rows: list[list[Group]], style: Style, width: int, four_colour: bool, data: st.DataObject
) -> None:
    """Only the parts of a face that can show are pasted (issue 16): the picture must be the one
    that pasting every whole face with its mask, left to right, top to bottom, gives."""
    shown = [c for row in rows for g in row for c in g.cards]
    highlight = data.draw(st.none() | st.sets(st.sampled_from(shown or [BACK])))
    image = render(rows, style=style, highlight=highlight, four_colour=four_colour,
                   card_width=width)
    layout = arrange(rows, style, width)
    lit = None if highlight is None else set(highlight)
    if lit is not None and set(shown) - {faces.EMPTY} <= lit:
        lit = None  # every card bright is no highlight at all
    expected = palette.canvas((layout.width, layout.height))
    for p in layout.cards:
        dimmed = lit is not None and p.card != faces.EMPTY and p.card not in lit
        expected.paste(faces.face(p.card, width, four_colour, dimmed), (p.x, p.y),
                       faces.mask(p.card, width))
    for text, x, y in layout.labels:
        expected.paste(labels.label_image(text, width), (x, y))
    decoded = Image.open(io.BytesIO(image.data))
    assert decoded.mode == "P"
    assert decoded.tobytes() == expected.tobytes()


def test_no_highlight_dims_nothing_and_an_empty_one_dims_everything() -> None:
    cards = sorted_hand(new_deck()[:12])
    lit = decode(hand_image(cards).data)
    dark = decode(hand_image(cards, highlight=set()).data)
    assert ImageStat.Stat(dark.convert("L")).mean[0] < ImageStat.Stat(lit.convert("L")).mean[0]
    assert lit.tobytes() == decode(hand_image(cards, highlight=set(cards)).data).tobytes()


def test_the_same_cards_drawn_again_are_the_picture_kept() -> None:
    cards = sorted_hand(new_deck()[:12])
    elsewhere = set(new_deck()[12:20])  # highlighted cards not in the picture change nothing
    first = hand_image(cards, highlight=set(cards[:3]))
    assert hand_image(list(cards), highlight=set(cards[:3]) | elsewhere) is first
    assert hand_image(cards, highlight=set(cards) | elsewhere) is hand_image(cards)
    assert hand_image(cards, highlight=set(cards[:4])).data != first.data


@pytest.mark.parametrize("count", [0, 1, 5, 12, 25, 30, 40, 108])
def test_hands_of_any_size_decode_and_stay_small(count: int) -> None:
    cards = sorted_hand(TWO_PACKS[:count])
    image = hand_image(cards, highlight=set(cards[::2]), four_colour=True)
    assert len(image.data) <= MAX_BYTES
    decoded = decode(image.data)
    assert decoded.size == (image.width, image.height)
    assert image.width <= FAN.max_width * CARD_WIDTH + 10


def test_a_twelve_card_hand_is_one_line_and_thirty_cards_two() -> None:
    height = faces.height_for(CARD_WIDTH)
    # twelve ranks, so twelve groups: the widest twelve cards can be
    twelve = hand_image(sorted_hand(new_deck()[::4][:12]))
    assert height <= twelve.height < 2 * height
    assert twelve.width < 7 * CARD_WIDTH
    thirty = hand_image(sorted_hand(new_deck()[:30]))
    assert 2 * height <= thirty.height < 3 * height


def test_an_empty_hand_shows_an_empty_place() -> None:
    image = hand_image([])
    assert image.alt == "no cards"
    decoded = decode(image.data)
    assert decoded.size == (image.width, image.height)
    # hollow: the middle of the outline is transparent
    assert decoded.getpixel((image.width // 2, image.height // 2))[3] == 0


@pytest.mark.parametrize("spreads", [6, 10])
def test_tonk_table_decodes_stays_small_and_names_its_groups(spreads: int) -> None:
    groups = tonk_table(spreads)
    image = row_image(groups, four_colour=True)
    assert len(image.data) <= MAX_BYTES
    decode(image.data)
    assert image.alt.startswith("S1: ")
    assert "; Discard: " in image.alt and image.alt.endswith("; Stock: face-down card")
    assert alt_cards(image.alt) == [card_words(c) for g in groups for c in g.cards]


def test_dubb_streak_and_revealed_hands() -> None:
    deck = new_deck()
    plays = [deck[i : i + 2] for i in range(0, 12, 2)]
    streak = row_image(plays, highlight=set(plays[-1]))
    assert alt_cards(streak.alt) == [card_words(c) for p in plays for c in p]
    assert streak.alt.count("; ") == len(plays) - 1
    revealed = render([[Group(sort_cards(deck[i : i + 5]))] for i in range(0, 20, 5)], style=FAN)
    assert revealed.alt.count(". ") == 3
    height = faces.height_for(CARD_WIDTH)
    assert 4 * height <= revealed.height < 5 * height
    for image in (streak, revealed):
        assert len(image.data) <= MAX_BYTES
        decode(image.data)


def test_groups_stand_apart_on_a_table_and_overlap_in_a_hand() -> None:
    rows = [[Group(new_deck()[0:3]), Group(new_deck()[13:16])]]
    spread = arrange(rows, SPREAD, CARD_WIDTH).cards
    assert spread[3].x > spread[2].x + CARD_WIDTH
    fan = arrange(rows, FAN, CARD_WIDTH).cards
    within, between = fan[1].x - fan[0].x, fan[3].x - fan[2].x
    assert within < between < CARD_WIDTH
    # the strip a group's last card shows holds nothing but the corner index
    assert between <= faces.CLEAR * CARD_WIDTH


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=20),
       st.sampled_from([FAN, SPREAD]), st.integers(min_value=48, max_value=220))
def test_rows_wrap_within_the_width_and_keep_every_card(
    sizes: list[int], style: Style, width: int
) -> None:
    deck = iter(TWO_PACKS * 6)
    groups = [Group([next(deck) for _ in range(n)]) for n in sizes]
    layout = arrange([groups], style, width)
    pad = layout.cards[0].x
    assert layout.width <= style.max_width * width + 2 * pad
    placed = [p.card for p in layout.cards if p.card != faces.EMPTY]
    assert placed == [c for g in groups for c in g.cards]
    assert sum(p.card == faces.EMPTY for p in layout.cards) == sizes.count(0)


def test_labels_are_short_ascii_only() -> None:
    Group([1], "S10")
    for bad in ("Åsa", "", "a" * (labels.MAX_LABEL + 1), "tab\there", "🃏"):
        with pytest.raises(ValueError):
            Group([1], bad)


def test_same_input_same_bytes_even_after_the_caches_are_dropped() -> None:
    cards = sorted_hand(TWO_PACKS[:20])
    first = hand_image(cards, highlight=set(cards[:5]))
    table = row_image(tonk_table(6))
    faces._face.cache_clear()
    faces._mask.cache_clear()
    labels.label_image.cache_clear()
    assert hand_image(cards, highlight=set(cards[:5])).data == first.data
    assert row_image(tonk_table(6)).data == table.data


def test_four_colour_changes_the_picture() -> None:
    cards = [make(5, 2), make(5, 3)]
    assert hand_image(cards).data != hand_image(cards, four_colour=True).data


def test_alt_text_stays_within_discords_limit() -> None:
    cards = TWO_PACKS * 2
    image = hand_image(cards, group_by=None)
    assert len(image.alt) <= ALT_LIMIT
    shown = image.alt.rsplit(" and ", 1)
    assert shown[1] == f"{len(cards) - len(shown[0].split(', '))} more cards"


def test_card_words() -> None:
    assert card_words(make(7, 1)) == "7 of hearts"
    assert card_words(make(12, 0, deck=1)) == "queen of spades"
    assert card_words(make(14, 3)) == "ace of clubs"
    assert card_words(make_joker(1)) == "joker"
    assert card_words(BACK) == "face-down card"


def test_emoji_image_is_a_small_square_png() -> None:
    for card in (make(10, 2), make_joker(0), BACK):
        data = emoji_image(card)
        assert len(data) <= 256 * 1024
        image = decode(data)
        assert image.size == (128, 128)
        assert image.getpixel((0, 0))[3] == 0, "transparent around the card"
        assert image.getpixel((64, 64))[3] == 255
