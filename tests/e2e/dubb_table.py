"""Helpers for end-to-end Dubb tests: read the public table as a player would, and play turns
through buttons or slash commands."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot import cards
from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.model import StoredMessage
from tests.e2e import table_card

_COUNTER = re.compile(r"^kb:dubb:(\d+):draw:(\d+)$")
_MENTION = re.compile(r"<@(\d+)>")
_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|🃏")


def table_message(driver: Driver, channel: Channel) -> StoredMessage:
    """The channel's Dubb table (lobby or game): the newest public message titled Dubb."""
    for message in reversed(driver.channel_messages(channel)):
        if title(message).startswith("Dubb"):
            return message
    raise AssertionError("no Dubb table in the channel")


async def wait_table(driver: Driver, channel: Channel) -> StoredMessage:
    """The channel's Dubb table, once the bot has posted it (it answers the command first)."""
    return await driver.wait_for_message(channel, lambda m: title(m).startswith("Dubb"))


def title(message: StoredMessage) -> str:
    """The title of a table (a layout) or of an answer (an embed)."""
    if message.embeds:
        return str(message.embeds[0].get("title", ""))
    return table_card.title(message)


def counter_of(message: StoredMessage) -> int | None:
    """The move counter the table's buttons carry (None once the game is over)."""
    for button in message.buttons():
        m = _COUNTER.match(button.get("custom_id", ""))
        if m:
            return int(m.group(2))
    return None


def table_id_of(message: StoredMessage) -> int:
    for component in message.interactive_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) >= 3 and parts[1] == "dubb":
            return int(parts[2])
    raise AssertionError("no Dubb component on the message")


def to_move(message: StoredMessage) -> int | None:
    # a layout's turn line, or the content of a table posted in the old layout
    m = _MENTION.search(table_card.turn_line(message) or message.content or "")
    return int(m.group(1)) if m else None


def card_tokens(text: str) -> set[str]:
    return set(_CARD.findall(text))


@dataclass
class DubbTable:
    driver: Driver
    channel: Channel
    players: dict[int, User]
    moves_made: int = 0
    panels: dict[int, StoredMessage] = field(default_factory=dict)

    @property
    def table(self) -> StoredMessage:
        return table_message(self.driver, self.channel)

    async def wait_counter(self, at_least: int) -> StoredMessage:
        def ready() -> StoredMessage | None:
            message = table_message(self.driver, self.channel)
            counter = counter_of(message)
            over = title(message).endswith("game over")
            return message if over or (counter is not None and counter >= at_least) else None

        return await self.driver.wait_for(ready, what=f"the table at move {at_least}")

    def over(self) -> bool:
        return title(self.table).endswith("game over")

    async def turn_by_buttons(self) -> None:
        """The player to move opens their hand from the table and makes the first listed play,
        or draws, or passes — all by clicking."""
        table = self.table
        counter = counter_of(table)
        assert counter is not None
        user = self.players[to_move(table) or 0]
        panel = await self.driver.click(user, table, "Your hand")
        assert panel.ephemeral and panel.message is not None
        message = panel.message
        if message.selects():
            select = message.selects()[0]
            result = await self.driver.select(
                user, message, [select["options"][0]["value"]], custom_id=select["custom_id"]
            )
        elif any(b.get("label") == "Draw" for b in message.buttons()):
            result = await self.driver.click(user, message, "Draw")
        else:
            result = await self.driver.click(user, message, "Pass")
        # the panel updated in place (6: acknowledged first on a busy machine, then edited)
        assert result.type in (6, 7), result.content
        await self.wait_counter(counter + 1)

    async def turn_by_commands(self, legal_plays: Iterable[str] | None = None) -> list[str]:
        """The player to move looks at `/dubb hand`, asks autocomplete for plays and plays the
        first, or uses `/dubb draw`, or `/dubb pass`. Returns the autocomplete values."""
        table = self.table
        counter = counter_of(table)
        assert counter is not None
        user = self.players[to_move(table) or 0]
        hand = await self.driver.slash(user, self.channel, "dubb hand")
        assert hand.ephemeral
        choices = await self.driver.autocomplete(
            user, self.channel, "dubb play", {"cards": ""}, focused="cards"
        )
        values = [c["value"] for c in choices]
        if values:
            result = await self.driver.slash(user, self.channel, "dubb play", {"cards": values[0]})
        elif "Draw" in hand.message.text if hand.message else False:
            result = await self.driver.slash(user, self.channel, "dubb draw")
        else:
            result = await self.driver.slash(user, self.channel, "dubb pass")
        assert result.ephemeral and not result.content.startswith("Not allowed"), result.content
        await self.wait_counter(counter + 1)
        return values


async def pings_off(driver: Driver, channel: Channel, users: Iterable[User]) -> None:
    """Each of ``users`` turns their pings off: a turn no longer posts the table anew, so every
    move edits it in place."""
    for user in users:
        off = await driver.slash(user, channel, "kortbord pings", {"choice": "off"})
        assert off.ephemeral


async def open_table(
    driver: Driver, channel: Channel, host: User, guests: Iterable[User], **options: object
) -> DubbTable:
    """`/dubb start` by ``host``, Join by each guest, Start by the host."""
    opened = await driver.slash(host, channel, "dubb start", dict(options) or None)
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await wait_table(driver, channel)
    players = {host.id: host}
    for guest in guests:
        joined = await driver.click(guest, lobby, "Join")
        assert joined.ephemeral and "joined" in joined.content, joined.content
        players[guest.id] = guest
    started = await driver.click(host, lobby, "Start")
    assert started.ephemeral, started.content
    table = DubbTable(driver, channel, players)
    await table.wait_counter(0)
    await driver.wait_for(lambda: to_move(table.table) is not None, what="the first turn")
    return table


async def cards_seen(service: object, table_id: int) -> tuple[set[str], dict[int, set[str]]]:
    """Replays a finished or running game from its move log: the cards that were ever played in
    public, and for each player every card that was ever in their hand (as displayed)."""
    from bot.gamekit.contract import Seat
    from bot.games.dubb import move_from_dict
    from bot.games.registry import GAMES
    from bot.table.fairdeal import deals_of, engine_from_start

    records = await service.moves(table_id)  # type: ignore[attr-defined]
    start = records[0].move
    seats = [Seat(s["player_id"], s["name"]) for s in start["seats"]]
    record = await service.store.table(table_id)  # type: ignore[attr-defined]
    game = engine_from_start(GAMES["dubb"], start, deals_of(record))
    held = {s.player_id: {cards.display(c) for c in game.hand(s.player_id)} for s in seats}
    public: set[str] = set()
    for record in records[1:]:
        for event in game.apply(record.player_id, move_from_dict(record.move)):
            if type(event).__name__ == "Played":
                public.update(cards.display(c) for c in event.cards)  # type: ignore[attr-defined]
            elif type(event).__name__ == "DrawPlayed":
                public.add(cards.display(event.card))  # type: ignore[attr-defined]
        for s in seats:
            held[s.player_id].update(cards.display(c) for c in game.hand(s.player_id))
    return public, held
