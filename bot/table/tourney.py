"""The arithmetic of an event (a tournament across tables): how many tables of what size, who
sits where, what a finished table scores, and the standings with their tie-breaks.

Pure functions, no storage and no Discord, so the rules docs/events.md states are tested here
directly:

- **Tables**: as many as ``ceil(players / seats)``, sized as evenly as possible (sizes differ
  by at most one), fewer tables when a table would seat fewer than the game allows.
- **Round 1** is balanced by strength: players in order of strength (then of registration)
  are dealt to the tables like cards, back and forth (1, 2, 3, 3, 2, 1, …), so every table
  gets a similar mix.
- **Later rounds** are Swiss-style: players in order of points so far (then strength, then
  registration) fill the tables one after another, so similar scores meet.
- **A table scores** ``seats - place`` points for each player who stayed (``seats``: the
  event's seats per table; players tied for a place share the better one), and 0 for each who
  left, was removed by the turn timer or never sat down.
- **Standings** order by points, then Buchholz (the sum of the final points of everyone a
  player sat with, once per table shared), then first places; players equal on all three
  share their rank (listed in registration order).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Score:
    """One player's result at one table."""

    player_id: int
    place: int
    points: int
    left: bool
    """They left, were removed by the turn timer, or never sat down: withdrawn from later
    rounds."""

    def to_dict(self) -> dict[str, int | bool]:
        return {"player": self.player_id, "place": self.place, "points": self.points,
                "left": self.left}

    @classmethod
    def from_dict(cls, data: Mapping[str, int | bool]) -> Score:
        return cls(int(data["player"]), int(data["place"]), int(data["points"]),
                   bool(data["left"]))


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: int
    rank: int
    points: int
    buchholz: int
    wins: int
    tables: int
    withdrawn: bool


def table_sizes(players: int, seats: int, least: int) -> list[int]:
    """Table sizes for ``players`` at tables of ``seats``, largest first; a table never seats
    fewer than ``least`` (a table may then seat more than ``seats``). Empty when there are
    fewer players than ``least``."""
    if players < least:
        return []
    count = math.ceil(players / seats)
    while count > 1 and players // count < least:
        count -= 1
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def _snake(count: int) -> Iterator[int]:
    while True:
        yield from range(count)
        yield from reversed(range(count))


def _fill(order: Sequence[int], sizes: Sequence[int], snake: bool) -> list[list[int]]:
    """``order`` seated at tables of ``sizes``: one table after another, or (``snake``) dealt
    back and forth over the tables that still have room."""
    tables: list[list[int]] = [[] for _ in sizes]
    if snake:
        turns = _snake(len(sizes))
        for player in order:
            i = next(turns)
            while len(tables[i]) >= sizes[i]:
                i = next(turns)
            tables[i].append(player)
        return tables
    at = 0
    for i, size in enumerate(sizes):
        tables[i] = list(order[at:at + size])
        at += size
    return tables


def first_round(players: Sequence[int], strengths: Mapping[int, float],
                sizes: Sequence[int]) -> list[list[int]]:
    """Round 1: balanced by strength. ``players`` in registration order."""
    seq = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-strengths.get(p, 0.0), seq[p]))
    return _fill(order, sizes, snake=True)


def swiss_round(players: Sequence[int], points: Mapping[int, int],
                strengths: Mapping[int, float], sizes: Sequence[int]) -> list[list[int]]:
    """A later round: similar scores meet. ``players`` in registration order."""
    seq = {p: i for i, p in enumerate(players)}
    order = sorted(players,
                   key=lambda p: (-points.get(p, 0), -strengths.get(p, 0.0), seq[p]))
    return _fill(order, sizes, snake=False)


def score_table(places: Iterable[Sequence[int]], seated: Sequence[int], left: Iterable[int],
                seats: int) -> list[Score]:
    """What one table scores. ``places``: the game's order, first place first, tied players
    together; ``seated``: everyone the event seated there; ``left``: who left or was removed
    (everyone in ``seated`` whom ``places`` does not name never sat down)."""
    gone = set(left)
    ranked: set[int] = set()
    scores: list[Score] = []
    place = 1
    for group in places:
        stayed = [p for p in group if p in seated and p not in gone and p not in ranked]
        for player in stayed:
            scores.append(Score(player, place, max(seats - place, 0), False))
            ranked.add(player)
        place += len(stayed)
    last = [p for p in seated if p not in ranked]
    scores += [Score(p, place, 0, True) for p in last]
    return scores


def points_of(results: Iterable[Sequence[Score]]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for table in results:
        for score in table:
            totals[score.player_id] = totals.get(score.player_id, 0) + score.points
    return totals


def withdrawn(results: Iterable[Sequence[Score]]) -> set[int]:
    return {s.player_id for table in results for s in table if s.left}


def standings(players: Sequence[int], results: Sequence[Sequence[Score]]) -> list[Standing]:
    """Everyone registered (``players``, in registration order), best first."""
    points = points_of(results)
    gone = withdrawn(results)
    buchholz = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    tables = dict.fromkeys(players, 0)
    for table in results:
        for score in table:
            if score.player_id not in buchholz:
                continue
            tables[score.player_id] += 1
            if score.place == 1 and not score.left:
                wins[score.player_id] += 1
            buchholz[score.player_id] += sum(points.get(o.player_id, 0) for o in table
                                             if o.player_id != score.player_id)
    seq = {p: i for i, p in enumerate(players)}

    def key(p: int) -> tuple[int, int, int]:
        return (-points.get(p, 0), -buchholz[p], -wins[p])

    order = sorted(players, key=lambda p: (key(p), seq[p]))
    out: list[Standing] = []
    for i, player in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1]) == key(player) else i + 1
        out.append(Standing(player, rank, points.get(player, 0), buchholz[player],
                            wins[player], tables[player], player in gone))
    return out
