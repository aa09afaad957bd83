"""Committed deals end to end through the fake Discord: a Dubb game's table shows the deal's
commitment from its first message on, and once the game is over `/dubb history export:` attaches
its public record, which verifies with ``python -m bot.verify`` from that file alone and fails
once a move in it is edited; a Tonk table shows, between hands, the secret of the hand just over
and the commitment to the next."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.deals import commitment
from bot.fakediscord import Driver, StoredMessage
from bot.games.tonk import Drop, Move, Phase, TonkEngine
from tests.e2e import tonk_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, table_id_of
from tests.e2e.exported import files_of, verifies_and_tampering_fails

# a whole game to its end: about deals and their record, not about the rate limits
pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]
MAX_TURNS = 400
MAX_HANDS = 8
"""Enough hands that three of them are played, not over at their deal."""
DIGEST = re.compile(r"`([0-9a-f]{64})`")
COMMITTED = re.compile(r"Hand (\d+)'s deal is committed to: `([0-9a-f]{64})`")
REVEALED = re.compile(r"Hand (\d+) is over; its secret: `([0-9a-f]{64})`")


async def test_a_dubb_game_commits_to_its_deal_and_verifies_from_its_export(
    bot: BotRunner, driver: Driver, world: World, tmp_path: Path
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    table_id = table_id_of(table.table)
    public = [e.text for e in driver.log if e.audience is None]
    first = next(t for t in public if DIGEST.search(t))
    shown = DIGEST.search(first)
    assert shown is not None
    early = await driver.slash(world.bo, world.channel, "dubb history", {"table": table_id})
    assert early.ephemeral and "still being played" in early.content
    assert early.message is not None and not early.message.attachments
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS
    last = [e.text for e in driver.log if e.audience is None][-1]

    exported = await driver.slash(world.bo, world.channel, "dubb history", {"export": True})
    files = files_of(exported)
    assert list(files) == [f"history-dubb-{world.guild.id}-table-{table_id}.json"]
    records = await verifies_and_tampering_fails(files[next(iter(files))], tmp_path,
                                                 "dubb.json", payment=False)
    record = records[0]
    assert record["table"] == table_id and record["status"] == "finished"
    assert record["hands"][0]["commitment"] == shown.group(1)
    assert record["hands"][0]["key"] in last

    # a table of another game, or of no game here: a short private answer and no file
    other = await driver.slash(world.bo, world.channel, "tonk history", {"table": table_id})
    assert other.ephemeral and "no Tonk table" in other.content
    assert other.message is not None and not other.message.attachments
    nothing = await driver.slash(world.bo, world.channel, "kortbord verify", {"table": 999_999})
    assert nothing.ephemeral and "no table #999999" in nothing.content


def _fair_deal_lines(table: StoredMessage) -> tuple[dict[int, str], dict[int, str]]:
    """The hands the table shows committed to, and those it shows the secret of."""
    return ({int(h): c for h, c in COMMITTED.findall(table.text)},
            {int(h): k for h, k in REVEALED.findall(table.text)})


def _drop(t: TonkEngine, p: int) -> Move:
    return Drop() if t.phase is Phase.START else tonk_table.plain(t, p)


async def test_a_tonk_table_reveals_each_hand_and_commits_to_the_next(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """Each table between hands shows that hand's secret, which hashes to the commitment the
    table showed before it, and the next hand's commitment: the lines are worked out once a
    hand (``TableController._fair_deal``), never left from an earlier one. The deals are the
    bot's own (a seeded table commits to nothing), so now and then a hand ends at its deal
    (T-rule "Tonk on the deal": 49 or 50 points dealt) and its table is never shown in play:
    hands are played until three were seen in play and over."""
    play = await tonk_table.open_table(bot, driver, world.channel, world.anna, [world.bo])
    committed: dict[int, str] = {}
    revealed: dict[int, str] = {}
    seen_in_play = 0
    for hand in range(1, MAX_HANDS + 1):
        if hand > 1:
            await play.deal("buttons")
        coming, shown = _fair_deal_lines(play.table)
        if list(shown) == [hand]:
            over = play.table  # over at its deal
        else:
            # in play: its commitment, and the last hand's secret still
            assert list(coming) == [hand]
            assert shown == ({hand - 1: revealed[hand - 1]} if hand > 1 else {})
            assert committed.get(hand, coming[hand]) == coming[hand]
            committed[hand] = coming[hand]
            over = await play.play_hand(_drop, "buttons")
            seen_in_play += 1
        coming, revealed = _fair_deal_lines(over)
        assert list(revealed) == [hand] and list(coming) == [hand + 1]
        if hand in committed:
            key = bytes.fromhex(revealed[hand])
            assert commitment(key, play.table_id, hand) == committed[hand]
        committed.update(coming)
        if seen_in_play == 3:
            break
    assert seen_in_play == 3
    assert len(set(committed.values())) == len(committed) >= 4
