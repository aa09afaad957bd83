"""Tonk on Discord: every wrong action gets a short private answer and changes nothing."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot import cards
from bot.fakediscord import Driver
from bot.games.tonk import DrawDiscard, DrawStock, HandEnd, Phase, Spread, is_spread
from bot.games.tonk.spreads import hits_on
from tests.e2e.conftest import BotRunner, World
from tests.e2e.tonk_table import (
    POLICY_FOR,
    RULE_CODE,
    aim_out,
    counter_of,
    find_seed,
    open_table,
    seats_of,
)

pytestmark = pytest.mark.e2e


def _refused(why: str) -> str:
    """How a move the rules do not allow is answered: the rule in words, never its number."""
    return f"That isn't allowed: {why}. Nothing was changed."


def _typed(chosen: object) -> str:
    return " ".join(cards.text(c) for c in chosen)  # type: ignore[attr-defined]


async def test_out_of_turn_moves_and_spectators_clicks_are_refused(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.anna, world.bo, world.cem]
    play = await open_table(bot, driver, world.channel, world.anna, users[1:],
                            seed=find_seed(seats_of(users), [HandEnd.DROP_CAUGHT]))
    engine = await play.engine()
    waiting = next(u for u in users if u.id != engine.to_move)
    before = await play.state()

    for answer in (
        await driver.click(waiting, play.table, "Draw from stock"),
        await driver.slash(waiting, world.channel, "tonk knock"),
        await driver.slash(waiting, world.channel, "tonk draw", {"source": "discard"}),
        await driver.slash(waiting, world.channel, "tonk end"),
    ):
        assert answer.ephemeral and answer.content == _refused("it is not your turn")
    panel = await driver.click(waiting, play.table, "Your hand")
    assert panel.message is not None and "Waiting for" in panel.message.shown
    assert [b["label"] for b in panel.message.buttons()] == ["Refresh"]

    spectator = world.mod
    for answer in (
        await driver.click(spectator, play.table, "Your hand"),
        await driver.click(spectator, play.table, "Draw from stock"),
        await driver.slash(spectator, world.channel, "tonk knock"),
        await driver.slash(spectator, world.channel, "tonk discard", {"card": "Ks"}),
        await driver.slash(spectator, world.channel, "tonk hand"),
    ):
        assert answer.ephemeral and answer.content == "You're not playing at this table."
    joined = await driver.click(spectator, play.table, "Rules")
    assert joined.ephemeral and "Tonk in a nutshell" in joined.content
    late = await driver.slash(spectator, world.channel, "tonk join")
    assert late.ephemeral and late.content == _refused("players join between hands")
    assert await play.state() == before

    final = await play.play_hand(POLICY_FOR[HandEnd.DROP_CAUGHT], "buttons")
    between = await play.state()
    deal = await driver.click(spectator, final, "Deal next hand")
    assert deal.ephemeral and deal.content == "You're not playing at this table."
    leave = await driver.click(spectator, final, "Leave")
    assert leave.ephemeral and leave.content == "You're not at this table."
    assert await play.state() == between


async def test_dropping_after_drawing_bad_spreads_and_hits_and_throwing_back_the_taken_card(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """T5 and T6: each refused with the rule in words, the table untouched."""
    users = [world.anna, world.bo, world.cem]
    # the first player lays a spread in the first turn, so there is a spread to hit
    seed = find_seed(seats_of(users), [HandEnd.OUT_BY_DISCARD],
                     needs=lambda moves: isinstance(moves[1], Spread), tries=20000)
    play = await open_table(bot, driver, world.channel, world.anna, users[1:], seed=seed)
    engine = await play.engine()
    first = engine.to_move
    while (await play.engine()).to_move == first:
        engine = await play.engine()
        assert engine.to_move is not None
        await play.play(aim_out(engine, engine.to_move), "buttons")
    engine = await play.engine()
    assert engine.spreads and engine.to_move is not None
    mover = play.users[engine.to_move]
    await play.play(DrawDiscard(), "commands")
    engine = await play.engine()
    taken = engine.taken_discard
    assert taken is not None
    hand = engine.hand(mover.id)
    before = await play.state()

    knock = await driver.slash(mover, world.channel, "tonk knock")
    assert knock.content == _refused("you can drop only at the start of your turn, before "
                                     "drawing")
    again = await driver.slash(mover, world.channel, "tonk draw", {"source": "stock"})
    assert again.content == _refused("you have drawn already this turn")
    throw_back = await driver.slash(mover, world.channel, "tonk discard",
                                    {"card": cards.text(taken)})
    assert throw_back.content.startswith(
        "That isn't allowed: you may not discard the card you just took from the discard "
        "pile")
    no_spread = next(t for t in combinations(hand, 3) if not is_spread(t))
    bad_spread = await driver.slash(mover, world.channel, "tonk spread",
                                    {"cards": _typed(no_spread)})
    assert bad_spread.content.startswith("That isn't allowed: a spread is a book")
    target = engine.spreads[0]
    misfit = next(c for c in hand if not hits_on((c,), target.cards))
    bad_hit = await driver.slash(mover, world.channel, "tonk hit",
                                 {"cards": cards.text(misfit), "spread": target.label})
    assert bad_hit.content == _refused(
        f"those cards do not fit {target.label}: a book holds at most four of a rank, a run "
        "grows by consecutive cards of its suit")
    nowhere = await driver.slash(mover, world.channel, "tonk hit",
                                 {"cards": cards.text(hand[0]), "spread": "S9"})
    assert nowhere.content == _refused("there is no spread S9 on the table")
    not_held = next(c for c in cards.new_deck() if c not in hand and c not in target.cards)
    phantom = await driver.slash(mover, world.channel, "tonk discard",
                                 {"card": cards.text(not_held)})
    assert phantom.content.startswith("You don't hold")
    nonsense = await driver.slash(mover, world.channel, "tonk spread", {"cards": "zz"})
    assert "is not a card" in nonsense.content
    for answer in (knock, again, throw_back, bad_spread, bad_hit, nowhere, phantom, nonsense):
        assert answer.ephemeral and not RULE_CODE.search(answer.content)
    assert await play.state() == before
    # the panel shows the same thing: the taken card is not among the discards it offers
    panel = await driver.slash(mover, world.channel, "tonk hand")
    assert panel.message is not None
    discard_select = next(s for s in panel.message.selects()
                          if s["custom_id"].split(":")[3] == "discard")
    assert str(taken) not in [o["value"] for o in discard_select["options"]]
    assert "so you may not discard it this turn" in panel.message.shown


async def test_a_stale_panel_refreshes_itself_and_an_old_table_button_is_refused(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.anna, world.bo]
    play = await open_table(bot, driver, world.channel, world.anna, users[1:],
                            seed=find_seed(seats_of(users), [HandEnd.STOCK_OUT]))
    engine = await play.engine()
    mover = play.users[engine.to_move or 0]
    old_counter = counter_of(play.table)
    old_panel = await driver.click(mover, play.table, "Your hand")
    assert old_panel.message is not None
    # a restart forgets which panels are open, so the newer one cannot retire it (issue 36)
    await bot.restart()
    await play.play(DrawStock(), "commands")  # the same move made another way
    before = await play.state()

    stale = await driver.click(mover, old_panel.message, "Draw from stock")
    assert stale.type == 7 and "moved on" in old_panel.message.shown
    assert "Discard a card (ends your turn)…" in [s.get("placeholder")
                                                  for s in old_panel.message.selects()]
    old_button = f"kb:tonk:{play.table_id}:draw_stock:{old_counter}"
    refused = await driver.click(mover, play.table, old_button, allow_stale=True)
    assert refused.ephemeral and "isn't here any more" in refused.content
    assert await play.state() == before


async def test_a_double_click_draws_one_card(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    users = [world.anna, world.bo, world.cem]
    play = await open_table(bot, driver, world.channel, world.anna, users[1:],
                            seed=find_seed(seats_of(users), [HandEnd.STOCK_OUT]))
    counter = await play.counter()
    engine = await play.engine()
    mover = play.users[engine.to_move or 0]
    stock = engine.stock_size
    panel = await driver.click(mover, play.table, "Your hand")
    assert panel.message is not None
    one, two = await driver.double_click(mover, panel.message, "Draw from stock")
    assert {one.type, two.type} == {7}
    assert await play.counter() == counter + 1
    engine = await play.engine()
    assert engine.stock_size == stock - 1 and engine.phase is Phase.AFTER_DRAW
    assert len(engine.hand(mover.id)) == 6
