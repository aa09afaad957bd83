"""A profile's rating-history chart: matplotlib's Agg renderer, off screen, to PNG bytes.

Drawn on a figure of its own (matplotlib's object interface, never ``pyplot``'s global state),
so several charts may be drawn at once on the executor's threads. Sized for a phone: Discord
shows an embed's image about 400 px wide there, so the figure is 800×450 px with type large
enough to read at half that size.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ratings.model import OFFSET

WIDTH, HEIGHT, DPI = 8.0, 4.5, 100
LINE, START, GRID = "#3b6fd8", "#8a8a8a", "#d9d9d9"


@dataclass(frozen=True, slots=True)
class ChartWords:
    """What the chart says, in the reader's language."""

    title: str
    x_label: str
    y_label: str


def _plain(text: str) -> str:
    """Text shown as typed: matplotlib reads ``$…$`` as mathematics (a name may hold a $)."""
    return text.replace("$", r"\$")


def rating_chart(ratings: Sequence[int], words: ChartWords) -> bytes:
    """The shown rating before the first rated game and after each one, as a line over the
    games' numbers, as PNG bytes."""
    # matplotlib is imported here, on the first chart, not when the bot starts: it is 40 % of
    # the process's import time, and most processes never draw a profile
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    games = list(range(len(ratings)))
    axes.axhline(OFFSET, color=START, linewidth=1.5, linestyle="--", zorder=1)
    axes.plot(games, list(ratings), color=LINE, linewidth=3, marker="o" if len(games) <= 40
              else None, markersize=7, zorder=2)
    axes.set_title(_plain(words.title), fontsize=20, loc="left")
    axes.set_xlabel(_plain(words.x_label), fontsize=16)
    axes.set_ylabel(_plain(words.y_label), fontsize=16)
    axes.tick_params(labelsize=15)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    axes.grid(True, color=GRID, linewidth=1)
    axes.set_xlim(0, max(1, len(games) - 1))
    low, high = min(*ratings, OFFSET), max(*ratings, OFFSET)
    margin = max(10.0, (high - low) * 0.1)
    axes.set_ylim(low - margin, high + margin)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()
