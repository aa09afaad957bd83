"""Tonk on Discord: the lobby, a restart mid-hand, joining and leaving between hands and the
T11 forfeit mid-hand, and the ledger command (per server, paged, per player, per table)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot import cards
from bot.fakediscord import Driver, User
from bot.games.tonk import Discard, DrawStock, HandEnd, Phase, Reason
from bot.games.tonk.face import ledger
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card, row_buttons
from tests.e2e.tonk_table import (
    POLICY_FOR,
    RULE_CODE,
    TonkPlay,
    field_value,
    find_seed,
    open_table,
    payments_announced,
    seats_of,
    standings_shown,
    table_message,
    title,
)

pytestmark = pytest.mark.e2e


async def test_the_lobby_shows_the_options_and_the_cut_is_shown_when_the_table_starts(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    opened = await driver.slash(world.anna, world.channel, "tonk start",
                                {"stake": 5, "no_upcard": True, "hit_lock": True})
    assert not opened.ephemeral  # the lobby itself answers
    lobby = await driver.wait_for_message(world.channel, lambda m: title(m).startswith("Tonk"))
    assert title(lobby) == "Tonk — waiting for players"
    assert "stake 5 chips, no upcard, hit lock" in lobby.text
    alone = await driver.click(world.anna, lobby, "Start")
    assert alone.ephemeral and "At least 2 players" in alone.content
    await driver.click(world.bo, lobby, "Join")
    not_host = await driver.click(world.bo, lobby, "Start")
    assert not_host.ephemeral and "Only the host" in not_host.content
    await driver.click(world.anna, lobby, "Start")
    table = await driver.wait_for_message(
        world.channel, lambda m: title(m) == "Tonk — hand 1")
    latest = field_value(table, "Latest")
    assert latest.startswith("Cut for deal: ")
    assert "no upcard" in latest and field_value(table, "Discard pile") == "empty"
    assert "Take" not in [b["label"] for b in table.buttons()]  # nothing to take (no upcard)


async def test_a_restart_mid_hand_and_the_old_buttons_finish_the_hand_paid_once(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.anna, world.bo, world.cem]
    seed = find_seed(seats_of(users), [HandEnd.DROP_WON],
                     needs=lambda moves: isinstance(moves[0], DrawStock) and len(moves) > 6)
    play = await open_table(bot, driver, world.channel, world.anna, users[1:], seed=seed)
    table_before = play.table
    engine = await play.engine()
    mover = play.users[engine.to_move or 0]
    panel = await driver.click(mover, play.table, "Your hand")
    assert panel.message is not None
    drew = await driver.click(mover, panel.message, "Draw from stock")
    assert drew.type == 7
    await play.settle()

    await bot.restart()
    engine = await play.engine()
    assert engine.phase is Phase.AFTER_DRAW and engine.to_move == mover.id
    choice = POLICY_FOR[HandEnd.DROP_WON](engine, mover.id)
    assert isinstance(choice, Discard)
    select = next(s for s in panel.message.selects()
                  if s["placeholder"] == "Discard a card (ends your turn)…")
    discarded = await driver.select(mover, panel.message, [str(choice.card)],
                                    custom_id=select["custom_id"])
    assert discarded.type == 7 and "You discarded" in panel.message.shown
    await play.settle()
    # the latest lines of the hand came back from the move log
    latest = field_value(play.table, "Latest").splitlines()
    name = mover.global_name
    assert latest[-2:] == [f"{name} drew from the stock",
                           f"{name} discarded {cards.display(choice.card)}"]
    assert latest[0].startswith("Cut for deal")
    # the turn passed to another person: the table moved down to ping them
    assert table_message(driver, world.channel) is not table_before
    await driver.wait_for(lambda: table_before.deleted, what="the old table message gone")
    final = await play.play_hand(POLICY_FOR[HandEnd.DROP_WON], "buttons")
    assert title(final) == "Tonk — hand 1 over"

    announced = payments_announced(final)
    assert bot.bot is not None
    entries = await bot.bot.service.ledger_entries(world.guild.id, "tonk", limit=None)
    names = {u.id: u.global_name for u in users}
    written = sorted((names[e.payer_id], names[e.payee_id], e.amount) for e in entries)
    assert written == sorted((a, b, n) for a, b, n, _ in announced)
    assert len(entries) == 2 and all(e.reason == Reason.DROP_WON.value for e in entries)


async def test_leaving_mid_hand_forfeits_and_players_join_and_leave_between_hands(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """T11: the leaver pays the stake to each other player and the hand is thrown in; T1:
    between hands players join (at the right of the next dealer) and leave freely."""
    users = [world.anna, world.bo, world.cem]
    seed = find_seed(seats_of(users), [HandEnd.STOCK_OUT])
    play = await open_table(bot, driver, world.channel, world.anna, users[1:], seed=seed,
                            options={"stake": 2})
    engine = await play.engine()
    await play.play(POLICY_FOR[HandEnd.STOCK_OUT](engine, engine.to_move or 0), "buttons")

    left = await driver.slash(world.bo, world.channel, "tonk leave")
    assert left.ephemeral and left.content == (
        "You left during the hand and forfeited it: you paid 2 chips to each other player.")
    final = await play.settle()
    assert title(final) == "Tonk — hand 1 over"
    assert "Bo left during the hand and forfeited it." in card(final)["description"]
    assert payments_announced(final) == [("Bo", "Anna", 2, "forfeit"), ("Bo", "Cem", 2, "forfeit")]
    assert "Bo — **" in field_value(final, "Hands revealed")  # the forfeited hand is shown too
    del play.users[world.bo.id]

    joined = await driver.click(world.mod, final, "Join")
    assert joined.ephemeral and joined.content == "You joined the table."
    play.users[world.mod.id] = world.mod
    final = await play.settle()
    assert "Moderator Maja" in card(final)["description"]
    await play.deal("buttons", world.mod)
    engine = await play.engine()
    assert set(engine.hand_players) == {world.anna.id, world.cem.id, world.mod.id}
    await play.play_hand(POLICY_FOR[HandEnd.DROP_CAUGHT], "buttons")

    free = await driver.click(world.cem, play.table, "Leave")
    assert free.ephemeral and free.content == "You left the table."
    del play.users[world.cem.id]
    await play.settle()
    await play.deal("commands", world.anna)
    engine = await play.engine()
    assert set(engine.hand_players) == {world.anna.id, world.mod.id}
    await driver.slash(world.anna, world.channel, "tonk leave")
    closed = await play.settle()
    assert title(closed) == "Tonk — table closed"
    assert [b["label"] for b in row_buttons(closed)] == ["Play again", "Replay", "Review"]
    assert "Anna left during the hand and forfeited it." in card(closed)["description"]

    assert bot.bot is not None
    entries = await bot.bot.service.ledger_entries(world.guild.id, "tonk", limit=None)
    net: Counter[int] = Counter()
    for e in entries:
        net[e.payee_id] += e.amount
        net[e.payer_id] -= e.amount
    assert sum(net.values()) == 0
    forfeits = [e for e in entries if e.reason == Reason.FORFEIT.value]
    assert {(e.payer_id, e.payee_id, e.amount) for e in forfeits} == {
        (world.bo.id, world.anna.id, 2), (world.bo.id, world.cem.id, 2),
        (world.anna.id, world.mod.id, 2)}

    # the finished table says how it went: hands played and each player's net at it
    how = field_value(closed, "How it went")
    assert how.startswith("3 hands played. Net at this table: ")
    for user in (world.anna, world.bo, world.cem, world.mod):
        assert f"{user.global_name} {net[user.id]:+d}".replace("+0", "0").replace("-", "−") in how
    # and one Section per player who was dealt in, with their net and rating change, though
    # the closed table seats nobody any more (issue 44)
    seats = field_value(closed, "Players").splitlines()
    assert len(seats) == 4 and all(" · rating " in line for line in seats), seats
    for user in (world.anna, world.bo, world.cem, world.mod):
        shown = f"**{user.global_name}** · net {net[user.id]:+d} · "
        assert any(line.startswith(shown.replace("+0", "0").replace("-", "−"))
                   for line in seats), seats
    assert len([b for b in closed.buttons() if b["label"] == "Profile"]) == 4
    again = await driver.click(world.anna, closed, "Play again")
    assert not again.ephemeral  # the new lobby itself answers
    lobby = await driver.wait_for_message(
        world.channel, lambda m: title(m) == "Tonk — waiting for players")
    assert "stake 2 chips" in lobby.text


async def _quick_hand(bot: BotRunner, driver: Driver, channel: object, users: list[User]
                      ) -> TonkPlay:
    seed = find_seed(seats_of(users), [HandEnd.DROP_CAUGHT])
    play = await open_table(bot, driver, channel, users[0], users[1:],  # type: ignore[arg-type]
                            seed=seed)
    await play.play_hand(POLICY_FOR[HandEnd.DROP_CAUGHT], "buttons")
    return play


async def test_the_ledger_is_per_server_paged_per_player_and_per_table(
    bot: BotRunner, driver: Driver, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = await _quick_hand(bot, driver, world.channel, [world.anna, world.bo, world.cem])
    other_guild = driver.add_guild("Elsewhere")
    other_channel = driver.add_channel(other_guild, "cards")
    dora, eli = (driver.add_user(n, guilds=[other_guild]) for n in ("Dora", "Eli"))
    driver.join(world.anna, other_guild)
    away = await _quick_hand(bot, driver, other_channel, [dora, eli])

    here = await driver.slash(world.anna, world.channel, "tonk ledger")
    there = await driver.slash(world.anna, other_channel, "tonk ledger")
    assert here.message is not None and there.message is not None
    assert set(standings_shown(here.message)) == {"Anna", "Bo", "Cem"}
    assert set(standings_shown(there.message)) == {"Dora", "Eli"}
    assert not here.ephemeral and "this server" in title(here.message)

    private = await driver.slash(world.bo, world.channel, "tonk ledger", {"private": True})
    assert private.ephemeral and private.message is not None
    assert standings_shown(private.message) == standings_shown(here.message)

    mine = await driver.slash(world.cem, world.channel, "tonk ledger", {"player": world.anna})
    assert mine.message is not None
    lines = ((card(mine.message) or {}).get("description") or "").splitlines()
    announced = payments_announced(home.table)
    about_anna = [p for p in announced if "Anna" in p[:2]]
    assert len(lines) == len(about_anna) and all("Table " in line for line in lines)
    nobody = await driver.slash(world.cem, world.channel, "tonk ledger", {"player": dora})
    assert nobody.message is not None and "no Tonk ledger entries here" in nobody.message.text

    per_table = await driver.slash(world.cem, world.channel, "tonk ledger", {"table": True})
    assert per_table.message is not None
    assert title(per_table.message) == f"Tonk ledger — table {home.table_id}"
    assert standings_shown(per_table.message) == standings_shown(here.message)
    none_yet = driver.add_channel(world.guild, "empty")
    missing = await driver.slash(world.cem, none_yet, "tonk ledger", {"table": True})
    assert missing.ephemeral and "no Tonk table in this channel" in missing.content
    assert away.table_id != home.table_id

    monkeypatch.setattr(ledger, "PAGE_SIZE", 2)
    paged = await driver.slash(world.anna, world.channel, "tonk ledger")
    assert paged.message is not None
    assert len(standings_shown(paged.message)) == 2
    assert "Page 1 of 2" in paged.message.text
    turned = await driver.click(world.bo, paged.message, "Next ▶")
    assert turned.type == 7 and "Page 2 of 2" in paged.message.text
    assert len(standings_shown(paged.message)) == 1
    back = await driver.click(world.cem, paged.message, "◀ Previous")
    assert back.type == 7 and "Page 1 of 2" in paged.message.text


@pytest.mark.machine_speed  # two whole hands to the stock's end; about the ledger, not the limits
async def test_a_new_season_starts_the_ledger_from_zero_and_the_old_one_stays_readable(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    home = await _quick_hand(bot, driver, world.channel, [world.anna, world.bo, world.cem])
    first = await driver.slash(world.anna, world.channel, "tonk ledger")
    assert first.message is not None
    season_one = {name: row[0] for name, row in standings_shown(first.message).items()}
    assert any(season_one.values())

    refused = await driver.slash(world.mod, world.channel, "tonk season new")
    assert refused.ephemeral and "Manage Server" in refused.content
    boss = driver.add_user("Sara", admin=True)
    started = await driver.slash(boss, world.channel, "tonk season new")
    assert started.ephemeral and started.content.startswith("Season 2 of the Tonk ledger")

    now = await driver.slash(world.anna, world.channel, "tonk ledger")
    assert now.message is not None
    assert title(now.message) == "Tonk ledger — this server, season 2"
    assert standings_shown(now.message) == {}
    old = await driver.slash(world.anna, world.channel, "tonk ledger", {"season": 1})
    assert old.message is not None
    assert title(old.message) == "Tonk ledger — this server, season 1"
    assert {n: row[0] for n, row in standings_shown(old.message).items()} == season_one
    missing = await driver.slash(world.anna, world.channel, "tonk ledger", {"season": 3})
    assert missing.ephemeral and "no season 3" in missing.content

    # the next hand is paid into season 2 only; nothing is deleted, and it all sums to zero
    await home.deal("buttons")
    await home.play_hand(POLICY_FOR[HandEnd.STOCK_OUT], "buttons")
    now = await driver.slash(world.anna, world.channel, "tonk ledger")
    assert now.message is not None
    season_two = {name: row[0] for name, row in standings_shown(now.message).items()}
    assert any(season_two.values()) and sum(season_two.values()) == 0
    old = await driver.slash(world.anna, world.channel, "tonk ledger", {"season": 1})
    assert old.message is not None
    assert {n: row[0] for n, row in standings_shown(old.message).items()} == season_one
    assert bot.bot is not None
    all_time = await bot.bot.store.balances(world.guild.id, "tonk")
    assert sum(b.net for b in all_time) == 0
    by_name = {b.name: b.net for b in all_time}
    for name in by_name:
        assert by_name[name] == season_one.get(name, 0) + season_two.get(name, 0)


async def test_start_takes_the_servers_default_stake_unless_one_is_given(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    assert bot.bot is not None
    await bot.bot.preferences.update_server(
        world.guild.id, games={"tonk": {"options": {"stake": 25}}})
    await driver.slash(world.anna, world.channel, "tonk start")
    lobby = await driver.wait_for_message(world.channel, lambda m: title(m).startswith("Tonk"))
    assert "stake 25 chips" in lobby.text
    await driver.click(world.anna, lobby, "Cancel")
    other = driver.add_channel(world.guild, "cards")
    await driver.slash(world.bo, other, "tonk start", {"stake": 3})
    chosen = await driver.wait_for_message(other, lambda m: title(m).startswith("Tonk"))
    assert "stake 3 chips" in chosen.text


async def test_history_lists_finished_tables_with_their_summary(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    home = await _quick_hand(bot, driver, world.channel, [world.anna, world.bo])
    stopped = await driver.slash(world.anna, world.channel, "tonk stop")
    assert stopped.ephemeral
    listed = await driver.slash(world.bo, world.channel, "tonk history")
    assert listed.ephemeral and listed.message is not None
    text = listed.message.text
    assert f"#{home.table_id}" in text and "1 hand played. Net at this table:" in text
    assert not RULE_CODE.search(text)
