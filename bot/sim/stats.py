"""Figures for strategy comparisons: seat line-ups that cancel seat advantage, and running means
with 95% confidence intervals.

A comparison runs many independent units (a game, or a hand). For each unit every strategy
gets one value — the share of its seats that lost, or its chips per seat — so the values of one
strategy are independent across units even when it holds several seats of the same unit, and
the interval is the normal one for a mean of independent values (the runs have thousands of units,
so the normal approximation is sound).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations

Z95 = 1.959964
"""The two-sided 95% quantile of the standard normal distribution."""


def lineups(names: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Every distinct seating of ``names`` cycled to ``seats`` long (``smart,greedy`` at four seats
    is S G S G), in a fixed order. Using each in turn puts every strategy in every seat, and
    before and after every other strategy, equally often."""
    if not names or len(names) > seats:
        raise ValueError(f"give 1 to {seats} strategy names, not {len(names)}")
    base = tuple(names[i % len(names)] for i in range(seats))
    return sorted(set(permutations(base)))


class Mean:
    """Running mean and variance of independent values (Welford's method)."""

    __slots__ = ("_m2", "mean", "n")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (x - self.mean)

    def merge(self, other: Mean) -> None:
        """Add every value ``other`` holds (Chan et al.'s pairwise update), so that runs made
        in parts add up to the run made whole."""
        n = self.n + other.n
        if not other.n:
            return
        delta = other.mean - self.mean
        self._m2 += other._m2 + delta * delta * self.n * other.n / n
        self.mean += delta * other.n / n
        self.n = n

    @classmethod
    def of(cls, n: int, mean: float, half_width: float) -> Mean:
        """The running figures of ``n`` values with this mean and 95% half-width (what a
        report that kept only those gives back)."""
        m = cls()
        m.n, m.mean = n, mean
        m._m2 = (half_width / Z95) ** 2 * n * (n - 1) if n > 1 else 0.0
        return m

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval of the mean (0 below two values)."""
        if self.n < 2:
            return 0.0
        return Z95 * math.sqrt(self._m2 / (self.n - 1) / self.n)

    def ci95(self, digits: int = 5) -> list[float]:
        h = self.half_width
        return [round(self.mean - h, digits), round(self.mean + h, digits)]
