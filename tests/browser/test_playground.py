"""The playground in a real browser: people play the real bot by typing commands, pressing
buttons and picking from menus, and see only what Discord would show them."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Locator, expect

from tests.browser.conftest import Playground
from tests.browser.pages import PlaygroundPage, version_of, wait_changed

pytestmark = pytest.mark.browser

_HAND_LINE = re.compile(r"^Your hand \(\d+\):.*$", re.MULTILINE)
_STANDING = re.compile(r"^\d+\. (.+?) ([+−]\d+) · 1 hand played", re.MULTILINE)


def _hand_line(panel: Locator) -> str:
    """The panel's hand line, from its layout's text (a panel has no ``content``)."""
    found = _HAND_LINE.search(panel.locator(".container .text-display").first.inner_text())
    assert found, panel.inner_text()
    return found.group(0)


def _dubb_over(page: PlaygroundPage) -> Locator:
    return page.table("Dubb").filter(has=page.page.locator(".container .heading",
                                                            has_text="game over"))


def _move(anna: PlaygroundPage, game: str, panel: Locator, act: Callable[[], None]) -> None:
    """Anna makes a move from her panel with ``act``; returns once her panel has answered and
    the public table has changed since (nothing else edits it during her turn: it shows her
    move).

    Her panel is the answer to her click and comes first; the bot edits the table after it, as
    Discord's rate limits allow. Until then the table still names her, so a turn that looked at
    the table as soon as her panel changed saw her turn again on the old table and pressed its
    Your hand just as the edit replaced it — and when her move had ended the game, the edit
    (game over) took the button away for good."""
    table_version = version_of(anna.table(game))
    panel_version = version_of(panel)
    act()
    wait_changed(anna.panels().last, panel_version)
    wait_changed(anna.table(game), table_version)


def _dubb_turn(anna: PlaygroundPage) -> str | None:
    """Anna opens her hand from the table and makes the first play in the menu, or draws, or
    passes. Returns the hand she saw, or None when it was not her turn after all."""
    table = anna.table("Dubb")
    table_version = version_of(table)
    panel = anna.open_panel(table)
    hand = _hand_line(panel)
    menu = panel.locator("select:enabled")
    draw = panel.get_by_role("button", name="Draw", exact=True)
    pass_ = panel.get_by_role("button", name="Pass", exact=True)
    if menu.count():
        _move(anna, "Dubb", panel, lambda: menu.first.select_option(index=1))
    elif draw.count():
        _move(anna, "Dubb", panel, draw.click)
    elif pass_.count():
        _move(anna, "Dubb", panel, pass_.click)
    else:
        # the table still showed her turn while the bot was editing it: wait for the edit
        wait_changed(anna.table("Dubb"), table_version)
        return None
    return hand


def test_a_dubb_game_against_two_computers_played_by_clicks(
    playground: Playground, browser: BrowserContext
) -> None:
    anna = PlaygroundPage(browser, playground.url, "Anna", "general")
    bo = PlaygroundPage(browser, playground.url, "Bo", "general")

    # what people write is shown as Discord shows it: markdown, and never as HTML
    bo.say('**Good luck** <img src=x onerror="window.pwned=1"> `<b>x</b>`')
    said = anna.messages().filter(has_text="Good luck").last
    expect(said.locator("strong")).to_have_text("Good luck")
    expect(said.locator(".content")).to_contain_text('<img src=x onerror="window.pwned=1">')
    expect(said.locator("code")).to_have_text("<b>x</b>")
    assert said.locator("img, b").count() == 0
    assert anna.page.evaluate("window.pwned") is None

    anna.choose_suggestion("/dubb st", "/dubb start")
    expect(anna.page.locator("#input")).to_have_value("/dubb start ")
    anna.page.locator("#input").press_sequentially("computers:2")
    anna.page.locator("#input").press("Enter")
    lobby = anna.table("Dubb")
    expect(lobby).to_contain_text("Astrid")
    expect(lobby).to_contain_text("Bertil")
    lobby.get_by_role("button", name="Start", exact=True).click()

    hands: list[str] = []
    while True:
        expect(anna.my_turn("Dubb").or_(_dubb_over(anna))).to_be_visible()
        if _dubb_over(anna).count():
            break
        hand = _dubb_turn(anna)
        if hand is not None:
            hands.append(hand)

    final = anna.table("Dubb")
    for name in ("Anna", "Astrid", "Bertil"):
        expect(final.locator(".container")).to_contain_text(name)
    # a finished game offers Play again and Replay, and no move; each seat its Profile
    expect(final.locator(".row").get_by_role("button")).to_have_text(
        ["Play again", "Replay", "Review"])
    expect(final.locator(".section").get_by_role("button")).to_have_text(["Profile"] * 3)
    assert hands, "Anna never had a turn"
    expect(anna.panels().first).to_contain_text("Only you can see this")

    # Bo watched the whole game live in the same channel, and never saw Anna's panel
    expect(bo.table("Dubb").locator(".container .heading")).to_contain_text("game over")
    expect(bo.panels()).to_have_count(0)
    seen = bo.seen_text()
    assert "Dubb — in play" in seen
    assert "Your hand (" not in seen
    assert [h for h in hands if h in seen] == []
    assert anna.errors == [] and bo.errors == []


def _tonk_turn(anna: PlaygroundPage, turns_done: int) -> bool:
    """Anna's turn from her panel: draw from the stock, then discard — the first time by typing
    /tonk discard and picking the bot's first suggestion, later from the panel's menu; from her
    third turn on, drop instead. False when it was not her turn after all."""
    table = anna.table("Tonk")
    table_version = version_of(table)
    panel = anna.open_panel(table)
    drop = panel.get_by_role("button", name=re.compile(r"^Drop \("))
    draw = panel.get_by_role("button", name="Draw from stock", exact=True)
    if turns_done >= 2 and drop.count():
        _move(anna, "Tonk", panel, drop.click)
        return True
    if not draw.count():
        wait_changed(anna.table("Tonk"), table_version)
        return False
    _move(anna, "Tonk", panel, draw.click)
    if turns_done == 0:
        table_version = version_of(anna.table("Tonk"))
        anna.choose_suggestion("/tonk discard card:", "")
        expect(anna.page.locator("#input")).to_have_value(re.compile(r"^/tonk discard card:\S+"))
        before = anna.panels().count()
        anna.page.locator("#input").press("Enter")
        expect(anna.panels()).to_have_count(before + 1)
        wait_changed(anna.table("Tonk"), table_version)
        return True
    panel = anna.panels().last
    discard = panel.locator("select", has=anna.page.locator("option", has_text="Discard"))
    expect(discard).to_have_count(1)
    _move(anna, "Tonk", panel, lambda: discard.select_option(index=1))
    return True


def test_a_tonk_hand_against_a_computer_and_the_ledger_shows_the_payments(
    playground: Playground, browser: BrowserContext
) -> None:
    anna = PlaygroundPage(browser, playground.url, "Anna", "general")
    bo = PlaygroundPage(browser, playground.url, "Bo", "general")
    bo.page.set_viewport_size({"width": 390, "height": 844})  # a phone
    anna.open_channel("card-table")

    anna.type_command("/tonk start computers:1")
    lobby = anna.table("Tonk")
    expect(lobby).to_contain_text("Astrid")
    lobby.get_by_role("button", name="Start", exact=True).click()

    turns = 0
    while True:
        between_hands = anna.table("Tonk").filter(
            has=anna.page.get_by_role("button", name="Deal next hand"))
        expect(anna.my_turn("Tonk").or_(between_hands)).to_be_visible()
        if between_hands.count():
            break
        turns += _tonk_turn(anna, turns)

    anna.type_command("/tonk ledger")
    title = anna.page.locator(".container .heading", has_text="Tonk ledger")
    standings = anna.page.locator("#messages article.message").filter(has=title).last
    expect(standings).to_contain_text("1 hand played")
    rows = dict(_STANDING.findall(standings.locator(".container").inner_text()))
    assert set(rows) == {"Anna", "🤖 Astrid"}, rows
    assert sum(int(v.replace("−", "-")) for v in rows.values()) == 0 and rows["Anna"] != "+0", rows

    # Bo, on his phone in #general, sees that something happened in #card-table
    expect(bo.page.locator("#sidebar")).not_to_be_in_viewport()
    bo.page.locator("#menu").click()
    expect(bo.page.locator("#channels .channel.unread")).to_have_text(re.compile("card-table"))
    bo.open_channel("card-table")
    expect(bo.page.locator("#sidebar")).not_to_be_in_viewport()
    expect(bo.table("Tonk")).to_be_visible()
    expect(bo.panels()).to_have_count(0)

    anna.type_command("/tonk ledger player:Anna")
    entries = anna.page.locator("#messages article.message").filter(
        has=anna.page.locator(".container .heading", has_text="Tonk ledger — Anna")).last
    expect(entries).to_contain_text("Astrid")
    expect(entries).to_contain_text(rows["Anna"])

    # the group DM of Anna, Bo and Cem is listed to them only, as Discord lists it
    dana = PlaygroundPage(browser, playground.url, "Dana", "general")
    group_dm = "#channels li:has(.channel:has-text('group DM'))"
    expect(anna.page.locator(group_dm)).to_be_visible()
    expect(dana.page.locator(group_dm)).to_be_hidden()
    assert anna.errors == [] and bo.errors == [] and dana.errors == []
