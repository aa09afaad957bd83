"""An animated GIF of pictures drawn one by one (a table's replay, move by move).

GIF rather than animated WebP: every Discord client animates a GIF attachment. The frames are
made small enough to upload many: each is shrunk to one size, laid on the table's felt and
mapped to one palette shared by all frames (so Pillow's writer stores only the part of each
frame that changed since the one before), and a long game keeps an even sample of its frames.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.cardart.compose import CardImage
from bot.cardart.text import line_mask

FRAME_WIDTH = 480
"""Pixels: the cards stay readable in a chat's preview, which shows about this width."""
FRAME_HEIGHT = 300
MAX_FRAMES = 160
"""Frames at most (a whole game of four seats is some fifty to a hundred moves); a longer game
keeps an even sample, its first and last frames always."""
COLOURS = 64
PAUSE_MS = 700
"""How long each move stays on screen."""
LAST_MS = 4000
"""The final table stays longer before the replay starts again."""
FELT = (30, 90, 60)
CAPTION = 24
"""Pixels at the top of each frame for its caption (which move it shows), above the cards."""
CAPTION_SIZE = 16
CAPTION_INK = (235, 240, 235)
SAMPLE = 12
"""Frames the shared palette is chosen from."""


def sampled(count: int, cap: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` frames to keep: all of them, or ``cap`` spread evenly, the first and
    the last included."""
    if count <= cap:
        return list(range(count))
    return sorted({round(i * (count - 1) / (cap - 1)) for i in range(cap)})


def _frame(picture: CardImage | None, caption: str, size: tuple[int, int]) -> Image.Image:
    canvas = Image.new("RGB", size, FELT)
    if caption:
        canvas.paste(CAPTION_INK, (8, (CAPTION - CAPTION_SIZE) // 2), line_mask(caption,
                                                                              CAPTION_SIZE))
    if picture is None:
        return canvas
    with Image.open(io.BytesIO(picture.data)) as opened:
        image = opened.convert("RGBA")
    room = (size[0], size[1] - CAPTION)
    scale = min(room[0] / image.width, room[1] / image.height, 1.0)
    if scale < 1.0:
        image = image.resize((max(1, round(image.width * scale)),
                              max(1, round(image.height * scale))), Image.Resampling.LANCZOS)
    canvas.paste(image, ((room[0] - image.width) // 2,
                         CAPTION + (room[1] - image.height) // 2), image)
    return canvas


def animate(pictures: Sequence[CardImage | None], captions: Sequence[str] | None = None, *,
            width: int = FRAME_WIDTH, height: int = FRAME_HEIGHT) -> bytes:
    """An endlessly looping GIF of ``pictures`` in order (``None``: nothing on the table then,
    the bare felt), each under its caption, shown ``PAUSE_MS`` and the last ``LAST_MS``. At
    least one picture."""
    if not pictures:
        raise ValueError("a replay needs at least one frame")
    captions = captions or [""] * len(pictures)
    frames = [_frame(p, c, (width, height)) for p, c in zip(pictures, captions, strict=True)]
    # one palette for all, from a sample: identical pixels stay identical between frames
    step = max(1, len(frames) // SAMPLE)
    chosen = frames[::step][:SAMPLE]
    montage = Image.new("RGB", (width, height * len(chosen)))
    for i, frame in enumerate(chosen):
        montage.paste(frame, (0, i * height))
    palette = montage.quantize(COLOURS, method=Image.Quantize.MEDIANCUT)
    mapped = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [PAUSE_MS] * (len(mapped) - 1) + [LAST_MS]
    out = io.BytesIO()
    mapped[0].save(out, format="GIF", save_all=True, append_images=mapped[1:], loop=0,
                   duration=durations, optimize=False, disposal=1)
    return out.getvalue()
