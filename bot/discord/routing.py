"""Persistent components: every button and select carries its route in its custom id.

A custom id reads ``kb:<game>:<table id>:<action>[:<move counter>[:<argument>]]`` for a button
and the same with ``ks:`` for a select, so a component keeps working after a restart, on any
message, without the bot keeping views in memory. The move counter is the table's counter when
the component was drawn: a click from an earlier turn (or the second of a double click) is
recognised as stale instead of being applied twice.

A click reaches its handler straight from ``on_interaction`` (``serve_component``), not through
discord.py's dynamic items: for those discord.py builds a view of the whole clicked message —
every row, select and option of a table or a hand panel — to find the one item, and runs the
item's callback in a task of its own, which no click here needs (issue 44: about 2 % of the
bot's CPU under load). ``RoutedButton`` and ``RoutedSelect`` are what the bot draws them with.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.discord.cycles import let_go
from bot.discord.errors import answer_error
from bot.i18n import N_, lang_of, tr
from bot.table.priority import PeopleFirst

_log = logging.getLogger(__name__)

_BODY = (
    r":(?P<game>[a-z]+):(?P<table>\d+):(?P<action>[a-z_]+)"
    r"(?::(?P<counter>\d+)(?::(?P<arg>[^:]{0,40}))?)?"
)
BUTTON_PREFIX, SELECT_PREFIX = "kb", "ks"
OPTIONS_MAX = 25
"""Options a select menu holds (Discord's limit)."""
_ROUTED = re.compile(f"(?:{BUTTON_PREFIX}|{SELECT_PREFIX}){_BODY}")


@dataclass(frozen=True, slots=True)
class Route:
    game: str
    table_id: int
    action: str
    counter: int | None = None
    arg: str | None = None

    def custom_id(self, prefix: str = BUTTON_PREFIX) -> str:
        parts = [prefix, self.game, str(self.table_id), self.action]
        if self.counter is not None:
            parts.append(str(self.counter))
            if self.arg is not None:
                parts.append(self.arg)
        return ":".join(parts)

    @classmethod
    def parse(cls, match: re.Match[str]) -> Route:
        counter = match["counter"]
        return cls(
            game=match["game"],
            table_id=int(match["table"]),
            action=match["action"],
            counter=int(counter) if counter is not None else None,
            arg=match["arg"],
        )


Handler = Callable[[discord.Interaction, Route, list[str]], Awaitable[None]]


class HasRouter(Protocol):
    router: Router


class Router:
    """Maps (game, action) to the cog method that handles it; a click is served before the
    bot's background work (``people``)."""

    def __init__(self, people: PeopleFirst | None = None) -> None:
        self._handlers: dict[tuple[str, str], Handler] = {}
        self._people = people or PeopleFirst()

    def register(self, game: str, action: str, handler: Handler) -> None:
        self._handlers[(game, action)] = handler

    async def dispatch(
        self, interaction: discord.Interaction, route: Route, values: list[str]
    ) -> None:
        self._people.serve()
        handler = self._handlers.get((route.game, route.action))
        try:
            if not _own_message(interaction):
                await interaction.response.send_message(_gone(interaction), ephemeral=True)
                return
            if handler is None:
                _log.warning("no handler for component %s", route.custom_id())
                await interaction.response.send_message(_gone(interaction), ephemeral=True)
                return
            await handler(interaction, route, values)
        except Exception as exc:  # every failure still gets an answer (never "interaction failed")
            await answer_error(interaction, exc)


def _own_message(interaction: discord.Interaction) -> bool:
    """A private panel answers only the person it was made for (only they can see it; a
    forged interaction is refused all the same)."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return True
    meta = message.interaction_metadata
    return meta is not None and meta.user.id == interaction.user.id


def _router_of(interaction: discord.Interaction) -> Router:
    client: Any = interaction.client
    return client.router


class RoutedButton:
    """A button that carries its route in its custom id, as the plain data discord.py would
    send for it (``bot.discord.rows``: no ``discord.ui`` item is built)."""

    __slots__ = ("custom_id", "disabled", "emoji", "label", "route", "row", "style")
    width = 1

    def __init__(
        self,
        route: Route,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | discord.PartialEmoji | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.route = route
        self.custom_id = route.custom_id()
        self.label = label
        self.style = style
        self.emoji = discord.PartialEmoji.from_str(emoji) if isinstance(emoji, str) else emoji
        self.disabled = disabled
        self.row = row

    def to_component_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": discord.ComponentType.button.value,
                                "style": self.style.value, "disabled": self.disabled}
        if self.label:
            data["label"] = self.label
        data["custom_id"] = self.custom_id
        if self.emoji:
            data["emoji"] = self.emoji.to_dict()
        return data


class RoutedSelect:
    """A select menu of strings that carries its route in its custom id, as plain data (as
    ``RoutedButton``)."""

    __slots__ = (
        "custom_id",
        "max_values",
        "min_values",
        "options",
        "placeholder",
        "route",
        "row",
    )
    width = 5

    def __init__(
        self,
        route: Route,
        options: list[discord.SelectOption],
        placeholder: str,
        *,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        if len(options) > OPTIONS_MAX:
            raise ValueError("maximum number of options already provided")
        self.route = route
        self.custom_id = route.custom_id(SELECT_PREFIX)
        self.options = options
        self.placeholder = placeholder
        self.row = row
        self.min_values = min_values
        self.max_values = max_values

    def to_component_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": discord.ComponentType.string_select.value, "custom_id": self.custom_id,
            "min_values": self.min_values, "max_values": self.max_values, "disabled": False,
            "required": True}
        if self.placeholder:
            data["placeholder"] = self.placeholder
        if self.options:
            data["options"] = [option.to_dict() for option in self.options]
        return data


GONE_TEXT = N_("That button isn't here any more. Nothing was changed.")


def _gone(interaction: discord.Interaction) -> str:
    return tr(lang_of(interaction.locale), GONE_TEXT)


def _on_message(interaction: discord.Interaction, custom_id: str, component_type: int) -> bool:
    """Whether the message really carries this component (Discord tells apps to check: a
    client can claim any custom id on any message it sees)."""
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        and int(getattr(getattr(child, "type", None), "value", -1)) == component_type
        for child in _every_component(message.components)
    )


def _every_component(components: Any) -> Iterator[Any]:
    """Every component at any depth: a layout's buttons sit in action rows inside a container,
    or beside a section's text."""
    for component in components:
        yield component
        yield from _every_component(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


async def serve_component(interaction: discord.Interaction) -> None:
    """Serve a click (``on_interaction``): a routed component of the clicked message goes to
    its handler; one the message does not carry — a client that missed an edit, or a forged
    custom id — is answered as gone and acts on nothing (discord.py would drop it unanswered,
    which shows the user "This interaction failed"); any other of the message's components is
    discord.py's own. What the click made leaves no cycle (``bot.discord.cycles``)."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    component_type = data.get("component_type")
    on_message = isinstance(component_type, int) and _on_message(interaction, custom_id,
                                                                  component_type)
    match = _ROUTED.fullmatch(custom_id) if on_message else None
    if on_message and match is None:
        return  # discord.py's own item (``cogs.meta``'s Ping again) answers it
    try:
        if match is None:
            try:
                await interaction.response.send_message(_gone(interaction), ephemeral=True)
            except discord.HTTPException:
                _log.warning("could not answer a component that is not on its message")
            return
        values = data.get("values")
        await _router_of(interaction).dispatch(
            interaction, Route.parse(match),
            [str(v) for v in values] if isinstance(values, list) else [])
    finally:
        let_go(interaction)
