"""Names that the table's words and its picture share."""

from __future__ import annotations


def hand_label(index: int) -> str:
    """What names the ``index``-th revealed hand both in words and over its cards in the
    picture (pictures draw no names, so the words say whose number it is)."""
    return f"#{index + 1}"
