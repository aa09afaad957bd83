"""Tonk on Discord, end to end: a table of three plays five hands for stakes — with buttons only
and with slash commands only — reaching a tonk out, an out by discard, a won drop, a caught
drop and a stock-out; after every hand the ledger matches the payments the table announced,
and no message ever shows a card it should not."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.fakediscord import Driver, User
from bot.games.tonk import DealNextHand, Discard, HandEnd, TonkOptions
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card
from tests.e2e.tonk_table import (
    POLICY_FOR,
    TonkPlay,
    Way,
    find_seed,
    open_table,
    payments_announced,
    seats_of,
    standings_shown,
    title,
    uses_every_kind_of_move,
)

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

ENDING_WORDS = {
    HandEnd.TONK_OUT: "tonked out",
    HandEnd.OUT_BY_DISCARD: "went out by discarding",
    HandEnd.DROP_WON: "and won",
    HandEnd.DROP_CAUGHT: "caught by",
    HandEnd.STOCK_OUT: "The stock ran out",
}


async def _ledger_matches(play: TonkPlay, asker: User, nets: Counter[str],
                          payments: int) -> None:
    """`/tonk ledger` shows, for everyone, the sum of what the table announced; the server's
    entries are exactly the announced payments and sum to zero."""
    answer = await play.driver.slash(asker, play.channel, "tonk ledger")
    assert not answer.ephemeral and answer.message is not None
    shown = standings_shown(answer.message)
    assert {name: row[0] for name, row in shown.items()} == {
        name: nets[name] for name in shown
    }
    assert set(shown) >= {name for name, n in nets.items() if n}
    assert sum(row[0] for row in shown.values()) == 0
    assert play.runner.bot is not None
    guild_id = play.channel.guild_id
    entries = await play.runner.bot.service.ledger_entries(guild_id, "tonk", limit=None)
    assert len(entries) == payments
    net: Counter[int] = Counter()
    for e in entries:
        net[e.payee_id] += e.amount
        net[e.payer_id] -= e.amount
    assert sum(net.values()) == 0


async def _play_plan(play: TonkPlay, plan: list[HandEnd], way: Way, stake: int) -> None:
    nets: Counter[str] = Counter()
    payments = 0
    users = list(play.users.values())
    for n, ending in enumerate(plan):
        if n:
            await play.deal(way, users[n % len(users)])
        final = await play.play_hand(POLICY_FOR[ending], way)
        assert title(final) == f"Tonk — hand {n + 1} over"
        assert ENDING_WORDS[ending] in card(final)["description"]
        announced = payments_announced(final)
        assert announced and all(amount % stake == 0 for _, _, amount, _ in announced)
        for payer, payee, amount, _ in announced:
            nets[payer] -= amount
            nets[payee] += amount
        payments += len(announced)
        await _ledger_matches(play, users[n % len(users)], nets, payments)


async def test_three_players_play_five_hands_with_buttons_only(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.anna, world.bo, world.cem]
    plan = [HandEnd.TONK_OUT, HandEnd.OUT_BY_DISCARD, HandEnd.DROP_WON, HandEnd.DROP_CAUGHT,
            HandEnd.STOCK_OUT]
    seed = find_seed(seats_of(users), plan, needs=uses_every_kind_of_move)
    play = await open_table(bot, driver, world.channel, world.anna, users[1:], seed=seed)
    await _play_plan(play, plan, "buttons", stake=1)
    assert uses_every_kind_of_move(play.made)
    # every move after the first of a turn was made on the panel, which changed in place
    assert play.in_place >= len(play.made) // 2
    assert play.scanner.checked > len(play.made)
    # one ping per turn at most (a turn passes at a discard or a deal), none left over; a
    # player playing from their open panel is told by it instead (issue 32,
    # test_quiet_turns.py), so the first turn, before any panel was open, is the one sure ping
    turns = sum(isinstance(m, Discard | DealNextHand) for m in play.made) + 1
    assert 1 <= len(driver.pings()) <= turns
    await driver.wait_for(
        lambda: not any("your turn" in m.text for m in driver.channel_messages(world.channel)),
        what="the last ping to be removed between hands",
    )


async def test_three_players_play_five_hands_with_slash_commands_only(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.cem, world.anna, world.bo]
    plan = [HandEnd.DROP_CAUGHT, HandEnd.STOCK_OUT, HandEnd.TONK_OUT, HandEnd.DROP_WON,
            HandEnd.OUT_BY_DISCARD]
    options = TonkOptions(stake=3)
    seed = find_seed(seats_of(users), plan, options, needs=uses_every_kind_of_move)
    play = await open_table(bot, driver, world.channel, world.cem, users[1:], seed=seed,
                            options={"stake": 3}, way="commands")
    await _play_plan(play, plan, "commands", stake=3)
    assert uses_every_kind_of_move(play.made)
    assert play.scanner.checked > len(play.made)
