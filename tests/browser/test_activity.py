"""The Activity in a real browser (issue 48): the bot's page with the real Embedded App SDK in
the fake Discord client, against the real bot (``python -m bot``) — launched from a table's
button, authorized at Discord's consent step, played by tap, drag and buttons; the same table
in the channel's message, moved from either face; two people in a voice channel, one on a
phone; a whole Dubb game and Tonk hands to the end with the ledger exact; refusals that change
nothing. No CSP violation and no error in the SDK's captured logs, anywhere in the module."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    APIResponse,
    Browser,
    BrowserContext,
    Route,
    expect,
    sync_playwright,
)

from bot.fakediscord import Channel, StoredMessage, User
from tests.browser.activity_page import WATCH_CSP, ActivityPage
from tests.browser.activity_world import SDK, ActivityWorld, activity_world
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS
from tests.e2e.dubb_table import DubbTable, counter_of, table_message, to_move
from tests.e2e.tonk_table import table_message as tonk_table_message

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
HANDS = 12
"""Hands at most until Dana has made a few moves herself (a computer may drop at once: the
hands it takes are seconds)."""
_PAYMENT = re.compile(r"^(.+) pays (.+) (\d+) \(.+\)$")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ActivityWorld]:
    """One fake and one bot for the module; at its end, nothing went wrong anywhere."""
    if not SDK.exists():
        pytest.fail("the Embedded App SDK is not installed: `npm ci --prefix bot/activity/web "
                    "--ignore-scripts` (scripts/test does it)")
    with activity_world(tmp_path_factory.mktemp("activity")) as world:
        yield world
        records = world.records()
        assert records["csp"] == []
        assert [log for log in records["logs"] if log[0] == "error"] == []
        assert world.bot_errors() == []


@pytest.fixture(scope="module")
def chromium(running: ActivityWorld) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is not installed: `apt-get install chromium` (scripts/test does it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *running.chromium_args()],
            headless=True)
        yield browser
        browser.close()


def context(browser: Browser, viewport: dict[str, int] = DESKTOP, **more: object) -> BrowserContext:
    made = browser.new_context(viewport=viewport, **more)  # type: ignore[arg-type]
    made.add_init_script(WATCH_CSP)
    made.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    return made


def start_table(running: ActivityWorld, host: User, channel: Channel, game: str,
                **options: object) -> DubbTable:
    """``/<game> start`` with ``options``, and Start, in the channel."""
    async def start() -> None:
        opened = await running.driver.slash(host, channel, f"{game} start", options)
        assert not opened.ephemeral, opened.content  # the lobby itself answers
        lobby = await running.driver.wait_for(lambda: lobby_in(running, channel),
                                              what="the lobby")
        started = await running.driver.click(host, lobby, "Start")
        assert started.ephemeral, started.content

    running.run(lambda _, __: start())
    return DubbTable(running.driver, channel, {host.id: host})


def lobby_in(running: ActivityWorld, channel: Channel) -> StoredMessage | None:
    """The channel's newest message with a Start button (on the fake's loop)."""
    return next((m for m in reversed(running.driver.channel_messages(channel))
                 if any(b.get("label") == "Start" for b in m.buttons())), None)


def counter(running: ActivityWorld, channel: Channel) -> int:
    return running.run(lambda _, driver: counter_of(table_message(driver, channel))) or 0


def wait_counter(running: ActivityWorld, table: DubbTable, at_least: int) -> None:
    running.run(lambda _, __: table.wait_counter(at_least))


def test_launched_from_the_table_moves_show_in_both_faces_to_the_end_of_the_game(
    running: ActivityWorld, chromium: Browser
) -> None:
    cem, general = running.person("Cem"), running.channel("general")
    # small hands among computers (which move at once) keep the whole game short
    table = start_table(running, cem, general, "dubb", computers=4, cards_each=4)
    launched = running.run(lambda _, driver: driver.click(cem, table.table,
                                                          "Play in an Activity"))
    assert launched.type == 12 and launched.activity_instance is not None

    people = context(chromium)
    page = ActivityPage(people, running, cem, general)
    # the client opens the Activity Cem launched, and he passes the consent step
    page.launch(press=False, consent=True)
    expect(page.frame.locator("#title")).to_have_text("Dubb — in play")
    expect(page.seat("Cem")).to_contain_text("you")
    expect(page.hand()).not_to_have_count(0)
    held = page.seat("Cem").locator(".count")
    expect(held).to_have_text(f"{page.hand().count()} cards")
    # every card has its name for screen readers
    assert all(page.hand().nth(n).get_attribute("aria-label")
               for n in range(page.hand().count()))

    # a move in the Activity shows on the channel's table message; its answer held back, the
    # stream brings Cem's next turn first (the computers move at once), and a card he picks
    # then is still picked when the answer comes
    expect(page.my_turn()).to_be_visible()
    expect(page.frame.locator("#timer")).to_have_text(re.compile(r"^\d+:\d\d$"))
    held: list[tuple[Route, APIResponse]] = []
    page.page.route("**/api/act", lambda route: held.append((route, fetched(running, route))))
    before = counter(running, general)
    page.play_turn(drag=True)
    wait_counter(running, table, before + 1)
    expect(page.my_turn()).to_be_visible()
    first = page.hand().first
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    assert len(held) == 1
    route, answer = held.pop()
    route.fulfill(response=answer)
    page.page.unroute("**/api/act")
    expect(page.frame.locator("#actions")).to_have_attribute("aria-busy", "false")
    expect(first).to_have_attribute("aria-pressed", "true")
    first.click()
    expect(first).to_have_attribute("aria-pressed", "false")

    # a move by a button in the channel shows in the Activity, while Cem holds a tap on his
    # last card there
    expect(page.my_turn()).to_be_visible()
    hand = page.cards_held()
    pressed = page.hand().last
    at, card = pressed.get_attribute("data-at"), pressed.get_attribute("data-card")
    box = pressed.bounding_box()
    assert box is not None
    page.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.mouse.down()
    running.run(lambda _, driver: driver.wait_for(
        lambda: to_move(table.table) == cem.id, what="Cem's turn on the channel's table"))
    running.run(lambda _, __: table.turn_by_buttons())
    # he played or drew: his hand in the Activity changed with it (a pass is not offered
    # while the draw pile lasts)
    page.content().wait_for_function(
        "before => JSON.stringify([...document.querySelectorAll('#hand .card')]"
        ".map((c) => c.dataset.card).sort()) !== JSON.stringify(before)", arg=hand)
    # the tap ends on his next turn (nothing moves until he does), on a hand drawn anew: it
    # picks the card he pressed if that card is still in its place, else nothing
    expect(page.my_turn()).to_be_visible()
    page.page.mouse.up()
    picked = page.frame.locator('#hand .card[aria-pressed="true"]')
    expect(picked).to_have_count(1 if page.frame.locator(
        f'#hand .card[data-at="{at}"][data-card="{card}"]').count() else 0)
    assert page.errors == []
    if picked.count():
        picked.click()

    # and on to the end, from the Activity: by keyboard once, then by drag and tap; a screen
    # reader hears whose turn it is
    expect(page.frame.locator("#announce")).to_contain_text("Your turn")
    page.play_by_keyboard()
    # the move's button went once pressed: the focus is on the same move offered again (a
    # draw, say, when the computers moved at once and no card plays yet), else back in the
    # hand, never on the page
    expect(page.frame.locator("#hand .card:focus, #actions button:focus, #piles button:focus")
           ).to_have_count(1)
    moves = Counter[str]()
    while True:
        expect(page.my_turn().or_(page.ended()).first).to_be_visible()
        if page.ended().count():
            break
        moves[page.play_turn(drag=moves["tap"] > moves["drag"])] += 1
    assert page.result().count() and page.actions("again").count()
    over = running.run(lambda _, driver: driver.wait_for(
        lambda: "game over" in table_message(driver, general).text, what="the game's end"))
    assert over
    # Dubb is not played for stakes: its ledger stays empty
    assert ledger(running, "dubb") == []
    assert page.errors == [] and page.csp_violations() == []
    people.close()


def test_two_people_open_a_lobby_in_a_voice_channel_one_on_a_phone(
    running: ActivityWorld, chromium: Browser
) -> None:
    anna, bo = running.person("Anna"), running.person("Bo")
    lounge = running.voice
    desk = context(chromium)
    phone = context(chromium, PHONE, is_mobile=True, has_touch=True)
    a = ActivityPage(desk, running, anna, lounge)
    a.launch()
    # no table in the voice channel: the Activity offers to open one
    expect(a.actions("open")).to_have_count(2)
    a.actions("open").filter(has_text="Dubb").click()
    expect(a.body()).to_have_attribute("data-state", "lobby")

    # Bo, on his phone, joins the running Activity, then the table
    b = ActivityPage(phone, running, bo, lounge, platform="mobile")
    b.launch()
    expect(b.body()).to_have_attribute("data-platform", "mobile")
    for page in (a, b):
        expect(page.participants()).to_have_text(["Anna", "Bo"])
    b.press("join")
    expect(a.seat("Bo")).to_be_visible()
    a.press("start")

    # each plays from their own device until both have moved; each sees the other's moves
    moved: set[str] = set()
    while len(moved) < 2:
        # both pages show the same scene: Anna's says whose turn it is
        b.wait_version(a.version())
        expect(a.frame.locator("#seats .seat.to-move")).to_be_visible()
        who = a if a.my_turn().count() else b
        who.play_turn(drag=who is a)
        moved.add(who.user.global_name or "")
        (b if who is a else a).wait_version(who.version())
    for page in (a, b):
        expect(page.latest().filter(has_text="Anna")).not_to_have_count(0)
        expect(page.latest().filter(has_text="Bo")).not_to_have_count(0)
    # the phone layout fits the phone: nothing wider than its screen, the hand within reach
    width = b.frame.locator("html").evaluate("e => e.scrollWidth")
    assert width <= PHONE["width"], width
    box = b.frame.locator("#hand").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert a.errors == [] and b.errors == []
    assert a.csp_violations() == [] and b.csp_violations() == []
    desk.close()
    phone.close()


def test_tonk_hands_from_the_activity_to_the_end_with_the_ledger_exact(
    running: ActivityWorld, chromium: Browser
) -> None:
    dana, channel = running.person("Dana"), running.channel("card-table")
    start_table(running, dana, channel, "tonk", computers=2)
    running.run(lambda _, driver: driver.click(dana, tonk_table_message(driver, channel),
                                               "Play in an Activity"))
    people = context(chromium)
    page = ActivityPage(people, running, dana, channel, authorize="auto")
    page.launch(press=False, consent=False)

    announced = Counter[str]()
    mine = 0
    for _hand in range(HANDS):
        while True:
            expect(page.my_turn().or_(page.ended()).first).to_be_visible()
            if page.ended().count():
                break
            page.play_turn()
            mine += 1
        for line in page.result().all_inner_texts():
            paid = _PAYMENT.match(line)
            if paid:
                announced[paid.group(1)] -= int(paid.group(3))
                announced[paid.group(2)] += int(paid.group(3))
        if mine >= 2:
            break
        # the next hand (computers never deal; anyone at the table may), or the next game
        shown = page.body().get_attribute("data-version")
        page.press("move" if page.actions("move").count() else "again")
        expect(page.frame.locator(f'body:not([data-version="{shown}"])')).to_have_count(1)
        # the result is left behind: a hand in play shows none, unless the new hand ended on
        # its deal (a Tonk on the deal), which shows its own
        in_play = page.frame.locator('body[data-state="playing"]:has(#result[hidden])')
        expect(in_play.or_(page.ended()).first).to_be_visible()
    assert mine >= 2, "Dana never played a turn of her own"
    rows = ledger(running, "tonk")
    nets = Counter[int]()
    for payer, payee, amount in rows:
        nets[payer] -= amount
        nets[payee] += amount
    assert sum(nets.values()) == 0
    assert nets[dana.id] == announced["Dana"]
    assert sorted(v for v in nets.values() if v) == sorted(v for v in announced.values() if v)
    assert page.errors == [] and page.csp_violations() == []
    people.close()


def test_refusals_change_nothing(running: ActivityWorld, chromium: Browser) -> None:
    eva, filip, room = running.person("Eva"), running.person("Filip"), running.channel("back-room")

    async def open_two() -> None:
        driver = running.driver
        opened = await driver.slash(eva, room, "dubb start")
        assert not opened.ephemeral, opened.content  # the lobby itself answers
        lobby = await driver.wait_for(lambda: lobby_in(running, room), what="the lobby")
        await driver.click(filip, lobby, "Join")
        await driver.click(eva, lobby, "Start")

    running.run(lambda _, __: open_two())
    people = context(chromium)
    running.run(lambda _, driver: driver.click(
        eva, table_message(driver, room), "Play in an Activity"))
    a = ActivityPage(people, running, eva, room, authorize="auto")
    a.launch(press=False, consent=False)
    running.run(lambda _, driver: driver.click(
        filip, table_message(driver, room), "Play in an Activity"))
    b = ActivityPage(people, running, filip, room, authorize="auto")
    b.launch(press=False, consent=False)
    # Filip's Discord speaks Swedish: so does the Activity, to him
    expect(b.frame.locator('#hand-area [data-word="your_hand"]')).to_have_text("Din hand")
    expect(b.seat("Filip").locator(".tag")).to_have_text("du")
    expect(a.frame.locator('#hand-area [data-word="your_hand"]')).to_have_text("Your hand")
    mover, other = (a, b) if a.my_turn().count() else (b, a)
    expect(mover.my_turn()).to_be_visible()
    version = mover.version()
    before = counter(running, room)

    # a move for another seat, out of turn: the other person sends the mover's move
    move_id = mover.move_id()
    status, answer = other.act_from_page({"session": other.sessions[-1], "version": version,
                                          "action": {"id": move_id}})
    assert status == 422 and answer["error"], answer
    # a forged instance and a bad token get no session
    code = running.run(lambda _, driver: driver.authorize(eva))
    status, token = other.act_from_page({"code": code}, "api/token")
    assert status == 200, token
    status, forged = other.act_from_page(
        {"access_token": token["access_token"], "instance_id": "i-1-forged"}, "api/session")
    assert status == 403 and forged["error"], forged
    instance = running.run(lambda _, driver: driver.activity_in(room))
    assert instance is not None
    status, bad = other.act_from_page(
        {"access_token": "not-a-token", "instance_id": instance.id}, "api/session")
    assert status == 401 and bad["error"], bad
    # a move on an older table than the one shown (the page's request altered on its way):
    # the page shows the server's refusal, in words
    def older(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "version": version - 1}))

    mover.page.route("**/api/act", older)
    mover.play_turn(shown=False)
    expect(mover.frame.locator("#notice")).to_be_visible()
    expect(mover.frame.locator("#notice")).not_to_be_empty()
    mover.page.unroute("**/api/act")
    # nothing changed: not the table, not what either page shows
    assert counter(running, room) == before
    assert mover.version() == version and other.version() == version
    expect(mover.my_turn()).to_be_visible()
    assert a.errors == [] and b.errors == []
    assert a.csp_violations() == [] and b.csp_violations() == []
    people.close()


def fetched(running: ActivityWorld, route: Route) -> APIResponse:
    """``route``'s request sent on by the test and answered, to be handed to the page later:
    to the fake's port, as Chromium's resolver rules send it (Playwright's own client does
    not know them), under the host the page asked for."""
    request = route.request
    url = urlsplit(request.url)
    port = running.run(lambda fake, _: fake.port)
    return route.fetch(url=url._replace(netloc=f"127.0.0.1:{port}").geturl(),
                       headers={**request.headers, "host": url.netloc})


def ledger(running: ActivityWorld, kind: str | None = None) -> list[tuple[int, int, int]]:
    """The bot's ledger rows (payer, payee, amount), read from its database."""
    path = running.folder / "kortbord.sqlite3"
    sql = ("SELECT l.payer_id, l.payee_id, l.amount FROM ledger l"
           " JOIN tables t ON t.id = l.table_id")
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        rows = db.execute(sql + (" WHERE t.kind = ?" if kind else ""),
                          (kind,) if kind else ()).fetchall()
    return [(int(a), int(b), int(c)) for a, b, c in rows]
