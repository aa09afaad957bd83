"""A message's buttons and menus as plain data, in action rows.

The bot routes every component by its custom id (``bot.discord.routing``), so nothing it draws
needs what a discord.py ``View`` is for — waiting for clicks, timeouts, a store of live views.
Yet one was built for every table write, panel and answer (a future for its stop, a
dictionary of weights, each item a ``discord.ui`` object with its own underlying component),
then walked to serialise it and emptied again: about a quarter of drawing a table write
(``scripts/bench_layout.py``: a table 114 → 84 µs, a lobby 80 → 55 µs without), and garbage that
a thousand lobbies opened at once paid for again in the collector (issues 44 and 49).
``Rows`` keeps only what is sent: the items in discord.py's order and rows, each item its own
plain data (``RoutedButton``, ``RoutedSelect``). discord.py accepts it wherever it accepts a
view, and asks it only for its components.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any, Protocol, Self

ITEMS_MAX = 25
ROW_WIDTH = 5
ROWS_MAX = 5


class Item(Protocol):
    """Anything a row holds: ``width`` 1 for a button, 5 for a menu; ``row`` the one asked
    for (``None``: the first with room)."""

    @property
    def width(self) -> int: ...

    @property
    def row(self) -> int | None: ...

    def to_component_dict(self) -> Any: ...


class SentAsView:
    """What discord.py asks of a view it sends (``view=``), for components kept as plain data:
    their components, and that there is nothing to store, since every component is routed by
    its custom id (``bot.discord.routing``). ``Rows`` here and ``bot.discord.layout.Layout``."""

    __discord_ui_view__ = True
    timeout: float | None = None

    def is_finished(self) -> bool:
        # nothing to wait for: discord.py stores no view of it
        return True

    def is_dispatchable(self) -> bool:
        return False


class Rows(SentAsView):
    """Items placed in rows as discord.py's ``View`` places them: an item with a ``row`` in that
    row, any other in the first row with room for it, the rows sent in order. Its ``add_item``
    raises ``ValueError`` where a view's would (a 26th item, a full row, a sixth row)."""

    def __init__(self) -> None:
        self._items: list[tuple[int, Any]] = []
        self._weights = [0] * ROWS_MAX

    @property
    def children(self) -> list[Any]:
        return [item for _, item in self._items]

    def add_item(self, item: Item) -> Self:
        if len(self._items) >= ITEMS_MAX:
            raise ValueError("maximum number of children exceeded")
        width, row = item.width, item.row
        if row is None:
            row = next((at for at, weight in enumerate(self._weights)
                        if weight + width <= ROW_WIDTH), None)
            if row is None:
                raise ValueError("could not find open space for item")
        elif not 0 <= row < ROWS_MAX:
            raise ValueError(f"there is no row {row}")
        elif self._weights[row] + width > ROW_WIDTH:
            raise ValueError(f"item would not fit at row {row}")
        self._weights[row] += width
        self._items.append((row, item))
        return self

    def clear_items(self) -> Self:
        self._items.clear()
        self._weights = [0] * ROWS_MAX
        return self

    def to_components(self) -> list[dict[str, Any]]:
        placed = sorted(self._items, key=lambda placed: placed[0])
        return [{"type": 1, "components": [item.to_component_dict() for _, item in group]}
                for _, group in groupby(placed, key=lambda placed: placed[0])]

    def has_components_v2(self) -> bool:
        return False
