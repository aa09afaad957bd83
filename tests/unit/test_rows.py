"""Buttons and menus as plain data (``bot.discord.rows``, ``bot.discord.routing``): what they
send is what discord.py's own view and items send for the same components."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord.routing import Route, RoutedButton, RoutedSelect
from bot.discord.rows import Rows

EMOJI = discord.PartialEmoji(name="c7h", id=9)


def _plain(kind: str, n: int, row: int | None) -> RoutedButton | RoutedSelect:
    route = Route("dubb", 5, f"a{n}", 3, str(n))
    if kind == "button":
        return RoutedButton(route, f"Play {n}", discord.ButtonStyle.primary, row=row,
                            emoji=EMOJI if n % 2 else None, disabled=n == 3)
    return RoutedSelect(route, [discord.SelectOption(label="7♥", value="7h", emoji=EMOJI),
                                discord.SelectOption(label="8♥", value="8h", default=True)],
                        f"Pick {n}…", row=row, max_values=2 if n % 2 else 1)


def _discord_py(item: RoutedButton | RoutedSelect) -> discord.ui.Item[discord.ui.View]:
    if isinstance(item, RoutedButton):
        return discord.ui.Button(label=item.label, style=item.style, custom_id=item.custom_id,
                                 emoji=item.emoji, disabled=item.disabled, row=item.row)
    return discord.ui.Select(custom_id=item.custom_id, placeholder=item.placeholder,
                             options=item.options, row=item.row, min_values=item.min_values,
                             max_values=item.max_values)


ARRANGEMENTS: list[list[tuple[str, int | None]]] = [
    [],
    [("button", None)] * 7,  # a row of five, then two
    [("select", None), ("button", None), ("select", None), ("button", None)],
    [("button", 2), ("button", None), ("select", 1), ("button", 0), ("button", None)],
    # the first row with room, not the last one used: a button goes back to row 0
    [("button", None), ("select", 1), ("button", 3), ("button", None)],
    [("select", None)] * 5,
    [("button", 4)] * 5 + [("button", None)] * 20,
]


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_rows_place_and_send_items_as_discord_pys_view_does(
        arrangement: list[tuple[str, int | None]]) -> None:
    items = [_plain(kind, n, row) for n, (kind, row) in enumerate(arrangement)]
    rows, view = Rows(), discord.ui.View(timeout=None)
    for item in items:
        rows.add_item(item)
        view.add_item(_discord_py(item))

    assert rows.to_components() == view.to_components()
    assert rows.children == items


def _overflow(add: list[tuple[str, int | None]], extra: tuple[str, int | None]) -> None:
    rows = Rows()
    for n, (kind, row) in enumerate(add):
        rows.add_item(_plain(kind, n, row))
    with pytest.raises(ValueError):
        rows.add_item(_plain(extra[0], 99, extra[1]))


def test_rows_refuse_what_a_view_refuses() -> None:
    _overflow([("button", None)] * 25, ("button", None))  # a 26th item
    _overflow([("button", 1)] * 5, ("button", 1))  # a sixth button in a row
    _overflow([("button", 1)], ("select", 1))  # a menu takes a row of its own
    _overflow([("select", None)] * 5, ("button", None))  # no row with room
    _overflow([], ("button", 5))  # a message has five rows
    with pytest.raises(ValueError):
        RoutedSelect(Route("dubb", 5, "play"), [discord.SelectOption(label=str(n))
                                                for n in range(26)], "Play…")


def test_emptied_rows_send_nothing_and_take_items_again() -> None:
    rows = Rows().add_item(_plain("select", 0, None)).add_item(_plain("button", 1, None))
    rows.clear_items()
    assert rows.children == [] and rows.to_components() == []
    rows.add_item(_plain("select", 2, None))
    assert [r["components"][0]["type"] for r in rows.to_components()] == [3]


async def test_discord_py_sends_rows_where_it_sends_a_view() -> None:
    # discord.py's message parameters take them as a view: their rows, no layout flag, and
    # nothing for discord.py to store (every component is routed by its custom id)
    rows = Rows().add_item(_plain("button", 0, None))
    with discord.http.handle_message_parameters(content="x", view=rows) as params:  # type: ignore[arg-type]
        payload: Any = params.payload
    assert payload["components"] == rows.to_components()
    assert "flags" not in payload or not payload["flags"] & (1 << 15)
    assert rows.is_finished() and not rows.is_dispatchable()
