"""PNG files of the palette pictures, written directly: the five chunks a palette picture needs,
its pixels compressed by ISA-L's deflate.

Encoding was the bot's largest single cost per move under load (issue 16): zlib's fastest level
spent about 0.5 ms on a 12-card hand, Pillow's writer some more around it. ISA-L (python-isal,
the deflate that xopen and cutadapt use) does the same job in about 0.1 ms and compresses these
flat pictures a little better. Any PNG decoder reads the result: it is a plain, non-interlaced
8-bit palette PNG (filter type 0 on every row) whose index 0 is transparent.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache

from isal import isal_zlib
from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_LEVEL = 1
"""ISA-L's level 1: as small as its levels 2 and 3 on these pictures, at a third of the time of
level 3 (``scripts/bench_cards.py``)."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _colours(palette: bytes, transparent: int) -> bytes:
    """The PLTE and tRNS chunks: every picture shares one palette, so they are made once."""
    alpha = bytes([255] * transparent + [0])
    return _chunk(b"PLTE", palette) + _chunk(b"tRNS", alpha)


def encode(image: Image.Image, transparent: int) -> bytes:
    """``image`` (mode ``"P"``) as a PNG file whose palette index ``transparent`` shows the
    background through."""
    if image.mode != "P":
        raise ValueError(f"a palette picture is needed, not mode {image.mode}")
    width, height = image.size
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    return _file(framed.tobytes(), width, height, image, transparent)


def encode_framed(framed: Image.Image, transparent: int) -> bytes:
    """A picture drawn one column to the right of its place in ``framed`` (mode ``"P"``), as a
    PNG file of the picture alone: ``framed``'s first column, all index 0, is not part of it.

    Each row of a PNG starts with its filter type, 0 (the row as it is) being best for palette
    pictures: a picture drawn so (``compose`` does) has its rows ready to compress as Pillow
    hands them over, without being copied into a wider image first."""
    if framed.mode != "P":
        raise ValueError(f"a palette picture is needed, not mode {framed.mode}")
    width, height = framed.size
    if framed.crop((0, 0, 1, height)).getextrema() != (0, 0):
        raise ValueError("the first column of a framed picture must be all index 0")
    return _file(framed.tobytes(), width - 1, height, framed, transparent)


def _file(rows: bytes, width: int, height: int, image: Image.Image, transparent: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    palette = bytes(image.getpalette() or ())
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _colours(palette, transparent),
        _chunk(b"IDAT", isal_zlib.compress(rows, _LEVEL)),
        _chunk(b"IEND", b""),
    ))
