"""People playing a Dubb or Tonk table through what they see on Discord, and the check of that
table in the database afterwards (used by the crash and the shard tests)."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field

from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.model import StoredMessage
from bot.games.registry import GAMES
from bot.storage import Store
from bot.table.fairdeal import deals_of, engine_from_start
from tests.e2e import table_card

_MENTION = re.compile(r"<@(\d+)>")


@dataclass
class Seen:
    """A move a player saw acknowledged: made from a component drawn at ``counter``."""

    table_id: int
    counter: int
    player_id: int


@dataclass
class Player:
    """Plays one channel's table through what its players see, nothing else."""

    driver: Driver
    channel: Channel
    game: str
    users: dict[int, User]
    patience: float = 5.0
    """Seconds to wait for the table to change when nobody here can act."""
    acknowledged: list[Seen] = field(default_factory=list)

    def table(self) -> StoredMessage | None:
        for message in reversed(self.driver.channel_messages(self.channel)):
            if table_card.title(message).startswith(self.game.capitalize()):
                return message
        return None

    def finished(self) -> bool:
        table = self.table()
        return table is not None and _over(table)

    async def step(self) -> None:
        """One action by whoever can act; if nobody can, wait for the table to change."""
        table = self.table()
        if table is None:
            # a bot killed after sweeping away a table message it never recorded, before posting
            # the table again, posts it once it is back: people wait for it as they would
            await self.driver.wait_for(lambda: self.table() is not None, within=self.patience,
                                       what="the table to be posted again")
            table = self.table()
        assert table is not None
        if _over(table):
            return
        seen = (table.id, table.version)
        if not await self._act_on(table):
            await self.driver.wait_for(
                lambda: (lambda t: t is not None and (t.id, t.version) != seen)(self.table()),
                within=self.patience, what="the table to change",
            )

    async def _act_on(self, table: StoredMessage) -> bool:
        if any(b.get("label") == "Deal next hand" for b in table.buttons()):
            return await self._act(next(iter(self.users.values())), table, "Deal next hand")
        mention = _MENTION.search(table_card.turn_line(table))
        if mention is None:
            return False
        user = self.users[int(mention.group(1))]
        panel = await self.driver.click(user, table, "Your hand")
        if panel.message is None or not panel.ephemeral:
            return False
        return await self._choose(user, panel.message)

    async def _choose(self, user: User, panel: StoredMessage) -> bool:
        buttons = [b.get("label") for b in panel.buttons()]
        selects = panel.selects()
        if self.game == "dubb" and selects:
            return await self._act(user, panel, None, select=selects[0])
        for label in ("Draw", "Pass", "Draw from stock", "End the hand"):
            if label in buttons:
                return await self._act(user, panel, label)
        discard = next((s for s in selects if "Discard" in s.get("placeholder", "")), None)
        if discard is not None:
            # the last card listed, the highest: a hand kept low ends with payments (discarding
            # the lowest left every hand at 50 and a three-way tie, no payments, in a fifth)
            return await self._act(user, panel, None, select=discard, option=-1)
        return False

    async def _act(
        self, user: User, message: StoredMessage, label: str | None,
        select: dict[str, object] | None = None, option: int = 0,
    ) -> bool:
        """Click or select; True when the bot acknowledged a move."""
        if select is not None:
            custom_id = str(select["custom_id"])
            options = select["options"]
            assert isinstance(options, list)
            result = await self.driver.select(
                user, message, [options[option]["value"]], custom_id=custom_id
            )
        else:
            assert label is not None
            custom_id = str(message.button(label)["custom_id"])
            result = await self.driver.click(user, message, label)
        parts = custom_id.split(":")
        moved = "moved on" not in result.content and "Not allowed" not in result.content
        if len(parts) >= 5 and moved and not result.failed:
            self.acknowledged.append(Seen(int(parts[2]), int(parts[4]), user.id))
            return True
        return False


async def play_moves(players: list[Player], moves: int) -> None:
    """Players take turns until ``moves`` more moves were acknowledged in all."""
    target = sum(len(p.acknowledged) for p in players) + moves
    while sum(len(p.acknowledged) for p in players) < target:
        live = [p for p in players if not p.finished()]
        if not live:
            return
        await asyncio.gather(*(p.step() for p in live))


async def open_game(
    driver: Driver, channel: Channel, game: str, users: list[User],
    options: dict[str, object] | None = None, *, patience: float = 5.0,
) -> Player:
    """Open a ``game`` table in ``channel`` (slash command ``options``), seat ``users`` (the
    first is the host) and start it; returns once the game shows."""
    host, *guests = users
    await driver.slash(host, channel, f"{game} start", dict(options or {}))
    lobby = await driver.wait_for_message(channel, lambda m: m.button("Join") is not None)
    for guest in guests:
        await driver.click(guest, lobby, "Join")
    started = await driver.click(host, lobby, "Start")
    player = Player(driver, channel, game, {u.id: u for u in users}, patience)
    # a person is called to move, or (Tonk) the first hand is already over
    await driver.wait_for(lambda: _started(player.table()),
                          what=f"the {game} game to start ({started.content})")
    return player




def _started(table: StoredMessage | None) -> bool:
    labels = [] if table is None else [b.get("label") for b in table.buttons()]
    return bool(labels) and "Start" not in labels


def hands_ended(player: Player) -> int:
    table = player.table()
    return 0 if table is None else table.text.count("is over")


async def check_table(store: Store, player: Player, guild_id: int) -> int:
    """Checks one table from the database: its move log has no gap or repeat and holds every
    acknowledged move, by its player, where it was made; its stored state is the replay of the
    log; its ledger rows are exactly the payments each hand announced (none missing, none
    doubled) and sum to zero. Returns how many of its hands (Tonk) ended: a hand may end with
    no payments (a draw on the deal, or every player tied for lowest when the stock ran out,
    T10), and its ledger rows are then checked to be none."""
    tables = [t.id for t in await store.tables_of_guild(guild_id)
              if t.channel_id == player.channel.id]
    assert len(tables) == 1, "one table was played in the channel"
    table_id = tables[0]
    assert {s.table_id for s in player.acknowledged} <= {table_id}
    records = await store.moves(table_id)
    seqs = [r.seq for r in records]
    assert seqs == list(range(len(records))), "the move log has a gap or a repeat"
    by_seq = {r.seq: r for r in records}
    for seen in player.acknowledged:
        row = by_seq.get(seen.counter + 1)
        assert row is not None, f"acknowledged move at {seen.counter} is missing"
        assert row.player_id == seen.player_id

    kind = GAMES[player.game]
    start = records[0].move
    record = await store.table(table_id)
    assert record is not None
    engine = engine_from_start(kind, start, deals_of(record))
    announced: dict[int, list[tuple[int, int, int, str]]] = {}
    for record in records:
        if record.seq > 0:
            engine.apply(record.player_id, kind.moves.from_dict(record.move))
        # the start's events too: Tonk's first hand can end on the deal (tonk on the deal)
        for event in record.events:
            if event.get("type") == "hand_ended":
                announced[event["hand_number"]] = sorted(
                    (p["payer"], p["payee"], p["amount"], p["reason"]) for p in event["payments"]
                )
    state = await store.table_state(table_id)
    assert state is not None
    assert json.loads(state) == json.loads(json.dumps(engine.to_stored()))

    ledger = await store.ledger_entries(guild_id, table_id=table_id)
    written: dict[int, list[tuple[int, int, int, str]]] = {}
    for entry in ledger:
        written.setdefault(entry.hand_no, []).append(
            (entry.payer_id, entry.payee_id, entry.amount, entry.reason)
        )
    paid = {h: sorted(rows) for h, rows in written.items()}
    expected = {h: rows for h, rows in announced.items() if rows}
    assert paid == expected, f"table {table_id}: ledger {paid} != announced {expected}"
    nets: dict[int, int] = {}
    for entry in ledger:
        nets[entry.payer_id] = nets.get(entry.payer_id, 0) - entry.amount
        nets[entry.payee_id] = nets.get(entry.payee_id, 0) + entry.amount
    assert sum(nets.values()) == 0
    return len(announced)


def _over(table: StoredMessage) -> bool:
    """A finished table offers only Play again and Replay; a closed one nothing."""
    labels = [b.get("label") for b in table.buttons()]
    return not labels or "Play again" in labels
