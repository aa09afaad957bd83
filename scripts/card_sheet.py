"""Render the whole deck into one PNG sheet for a person to look at (not a test).

    .venv/bin/python scripts/card_sheet.py [--width PX] [--out FILE]

The sheet shows every face, both jokers, the back and the empty place in the two-colour and the
four-colour scheme, a row of dimmed faces, and a highlighted 12-card hand as it comes out and
scaled to 400 pixels wide (about what a phone shows), on Discord's dark and light backgrounds.
It goes to the system's temporary directory unless ``--out`` says otherwise: it is generated,
so keep it out of the repository.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cardart import BACK, CARD_WIDTH, face, hand_image
from bot.cardart.faces import EMPTY, height_for
from bot.cards import SUITS, make, make_joker, rank, sorted_hand

DARK = (49, 51, 56, 255)
LIGHT = (255, 255, 255, 255)
GAP = 8
PHONE_WIDTH = 400


def face_rows(width: int, four_colour: bool) -> list[list[Image.Image]]:
    def rgba(card: int, dimmed: bool = False) -> Image.Image:
        return face(card, width, four_colour, dimmed).convert("RGBA")

    rows = [[rgba(make(r, s)) for r in range(2, 15)] for s in SUITS]
    rows.append([rgba(c) for c in (make_joker(0), make_joker(1), BACK, EMPTY)])
    rows.append([rgba(c, dimmed=True) for c in (make(12, 0), make(7, 1), make(10, 2),
                                                make(14, 3), make_joker(1), BACK)])
    return rows


def hand_pictures(width: int, four_colour: bool) -> list[Image.Image]:
    cards = sorted_hand([make(r, s) for r, s in [(2, 0), (5, 1), (5, 3), (7, 2), (9, 0), (10, 1),
                                                   (10, 3), (11, 2), (12, 0), (13, 1), (14, 3)]]
                        + [make_joker(0)])
    legal = {c for c in cards if rank(c) in (5, 10)}
    image = Image.open(io.BytesIO(hand_image(cards, highlight=legal, four_colour=four_colour,
                                             card_width=width).data)).convert("RGBA")
    small = image.resize((PHONE_WIDTH, round(image.height * PHONE_WIDTH / image.width)),
                         Image.Resampling.LANCZOS)
    return [image, small]


def block(card_width: int, four_colour: bool) -> Image.Image:
    rows = face_rows(card_width, four_colour)
    hands = hand_pictures(card_width, four_colour)
    height = height_for(card_width)
    width = max(13 * (card_width + GAP), *(h.width for h in hands)) + GAP
    total = len(rows) * (height + GAP) + 2 * sum(h.height + GAP for h in hands) + 3 * GAP + 20
    sheet = Image.new("RGBA", (width, total), DARK)
    draw = ImageDraw.Draw(sheet)
    draw.text((GAP, 4), "four-colour" if four_colour else "two-colour", fill=LIGHT)
    y = 20
    for row in rows:
        for i, image in enumerate(row):
            sheet.alpha_composite(image, (GAP + i * (card_width + GAP), y))
        y += height + GAP
    for background in (DARK, LIGHT):
        draw.rectangle((0, y, width, y + sum(h.height + GAP for h in hands) + GAP),
                       fill=background)
        y += GAP
        for hand in hands:
            sheet.alpha_composite(hand, (GAP, y))
            y += hand.height + GAP
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=CARD_WIDTH)
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "kortbord-card-sheet.png")
    args = parser.parse_args()
    two, four = block(args.width, False), block(args.width, True)
    sheet = Image.new("RGBA", (two.width + four.width, max(two.height, four.height)), DARK)
    sheet.alpha_composite(two, (0, 0))
    sheet.alpha_composite(four, (two.width, 0))
    sheet.convert("RGB").save(args.out)
    print(args.out)

if __name__ == "__main__":
    main()
