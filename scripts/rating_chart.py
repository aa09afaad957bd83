"""Draw docs/img/rating-history.png: the profile chart of a strong player over 40 rated
four-player games against a field of mixed skill, rated by bot.ratings exactly as the bot
rates a table (the finishing order is drawn from each player's hidden strength).

    .venv/bin/python scripts/rating_chart.py [OUT.png]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bot.ratings.chart import ChartWords, rating_chart
from bot.ratings.model import FRESH, rate, shown
from bot.storage import Skill


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img/rating-history.png")
    rng = random.Random(33)
    strength = {p: rng.gauss(0, 1) for p in range(1, 13)}
    strength[1] = 1.6
    held: dict[int, Skill] = {}
    history = [shown(FRESH.ordinal)]
    for _ in range(40):
        table = [1, *rng.sample(range(2, 13), 3)]
        order = sorted(table, key=lambda p: -(strength[p] + rng.gauss(0, 1.2)))
        held.update(rate([[p] for p in order], held))
        history.append(shown(held[1].ordinal))
    words = ChartWords(title="Anna — Dubb rating", x_label="Rated games", y_label="Rating")
    out.write_bytes(rating_chart(history, words))
    print(f"wrote {out}: from {history[0]} to {history[-1]} over {len(history) - 1} games")


if __name__ == "__main__":
    main()
