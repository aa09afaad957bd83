"""Crash safety end to end: ``python -m bot`` is SIGKILLed at random moments while people play
Dubb and Tonk through the fake Discord, then started again.

Checked afterwards, from the database: every move a player saw acknowledged is in the move log
exactly where it was made (the counter its button carried) and by that player; each table's
stored state is exactly the replay of its move log, so nothing was applied twice or lost
half-way; every game can be played on to its end; each Tonk hand's ledger rows are exactly the
payments its result announced (none missing, none doubled) and sum to zero.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from dataclasses import dataclass, field

import pytest

from bot.fakediscord import Channel, Driver, FakeDiscord, User
from bot.fakediscord.driver import DriverError, InteractionFailed
from bot.fakediscord.model import StoredMessage
from bot.games.base import Seat
from bot.games.registry import GAMES
from bot.storage import Store
from tests.e2e.conftest import SubprocessBot, World

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KILL_POINTS = 100
DEADLINE = 1.0  # the fake's interaction deadline, shortened so a killed bot's clicks fail fast
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
    acknowledged: list[Seen] = field(default_factory=list)

    def table(self) -> StoredMessage | None:
        for message in reversed(self.driver.channel_messages(self.channel)):
            embeds = message.embeds
            if embeds and str(embeds[0].get("title", "")).startswith(self.game.capitalize()):
                return message
        return None

    def finished(self) -> bool:
        table = self.table()
        return table is not None and table.buttons() == []

    async def step(self) -> None:
        """One action by whoever can act; if nobody can, wait for the table to change."""
        table = self.table()
        assert table is not None
        if table.buttons() == []:
            return
        seen = (table.id, table.version)
        if not await self._act_on(table):
            await self.driver.wait_for(
                lambda: (lambda t: t is not None and (t.id, t.version) != seen)(self.table()),
                within=5 * DEADLINE, what="the table to change",
            )

    async def _act_on(self, table: StoredMessage) -> bool:
        if any(b.get("label") == "Deal next hand" for b in table.buttons()):
            return await self._act(next(iter(self.users.values())), table, "Deal next hand")
        mention = _MENTION.search(table.content or "")
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
            return await self._act(user, panel, None, select=discard)
        return False

    async def _act(
        self, user: User, message: StoredMessage, label: str | None,
        select: dict[str, object] | None = None,
    ) -> bool:
        """Click or select; True when the bot acknowledged a move."""
        if select is not None:
            custom_id = str(select["custom_id"])
            options = select["options"]
            assert isinstance(options, list)
            result = await self.driver.select(
                user, message, [options[0]["value"]], custom_id=custom_id
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


async def _play(players: list[Player], moves: int) -> None:
    """Players take turns until ``moves`` more moves were acknowledged in all."""
    target = sum(len(p.acknowledged) for p in players) + moves
    while sum(len(p.acknowledged) for p in players) < target:
        live = [p for p in players if not p.finished()]
        if not live:
            return
        await asyncio.gather(*(p.step() for p in live))


async def _open(
    driver: Driver, channel: Channel, game: str, users: list[User]
) -> Player:
    host, *guests = users
    await driver.slash(host, channel, f"{game} start")
    lobby = await driver.wait_for_message(channel, lambda m: m.button("Join") is not None)
    for guest in guests:
        await driver.click(guest, lobby, "Join")
    await driver.click(host, lobby, "Start")
    await driver.wait_for(
        lambda: any(_MENTION.search(m.content or "") for m in driver.channel_messages(channel)),
        what=f"the {game} game to start")
    return Player(driver, channel, game, {u.id: u for u in users})


async def _kill(bot: SubprocessBot) -> None:
    process = bot.process
    assert process is not None
    process.kill()
    await process.wait()
    bot.process = None


@pytest.mark.machine_speed
async def test_sigkill_at_random_moments_loses_and_doubles_nothing(
    subprocess_bot: SubprocessBot, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    rng = random.Random(20261129)
    fake.interaction_deadline = DEADLINE
    # a killed bot leaves clicks unanswered and edits unsent: that is the point of this test
    driver.allow_failed_interactions()
    driver.allow_rest_errors()
    # A restarted process does not know the buckets its predecessor emptied, so its first
    # edits in a busy channel get 429s, as they would on Discord (reported to the lead).
    driver.allow_rate_limits()
    subprocess_bot.errors_expected = True
    await subprocess_bot.start()

    dubb_channel = driver.add_channel(world.guild, "dubb-crash")
    tonk_channel = driver.add_channel(world.guild, "tonk-crash")
    extra = [driver.add_user(name) for name in ("Dag", "Eva")]
    players = [
        await _open(driver, dubb_channel, "dubb", [world.anna, world.bo, world.cem]),
        await _open(driver, tonk_channel, "tonk", [world.mod, *extra]),
    ]

    for _ in range(KILL_POINTS):
        # the kill comes right after the n-th acknowledgement, while other clicks are in flight
        with contextlib.suppress(InteractionFailed, DriverError, AssertionError, TimeoutError):
            await _play(players, rng.randint(1, 6))
        await _kill(subprocess_bot)
        await subprocess_bot.start()

    # every game can go on to its end (Tonk: the hand in play) after the last restart
    dubb, tonk = players
    while not dubb.finished():
        await _play([dubb], 1)
    hands = _hands_ended(tonk)
    while _hands_ended(tonk) == hands:
        await _play([tonk], 1)
    await subprocess_bot.stop()

    store = await Store.open(subprocess_bot.workdir / "kortbord.sqlite3")
    try:
        assert await _check_table(store, dubb, world.guild.id) == 0
        assert await _check_table(store, tonk, world.guild.id) >= 1
    finally:
        await store.close()
    assert sum(len(p.acknowledged) for p in players) >= KILL_POINTS


def _hands_ended(player: Player) -> int:
    table = player.table()
    return 0 if table is None else table.text.count("is over")


async def _check_table(store: Store, player: Player, guild_id: int) -> int:
    """Checks one table; returns how many of its hands (Tonk) ended with payments."""
    table_ids = {s.table_id for s in player.acknowledged}
    assert len(table_ids) == 1
    table_id = table_ids.pop()
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
    seats = [Seat(s["player_id"], s["name"]) for s in start["seats"]]
    engine = kind.new_engine(seats, kind.validate_options(start["options"]), start["seed"])
    announced: dict[int, list[tuple[int, int, int, str]]] = {}
    for record in records[1:]:
        engine.apply(record.player_id, kind.moves.from_dict(record.move))
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
    assert {h: sorted(rows) for h, rows in written.items()} == {
        h: rows for h, rows in announced.items() if rows
    }
    nets: dict[int, int] = {}
    for entry in ledger:
        nets[entry.payer_id] = nets.get(entry.payer_id, 0) - entry.amount
        nets[entry.payee_id] = nets.get(entry.payee_id, 0) + entry.amount
    assert sum(nets.values()) == 0
    return len(written)
