"""The fake Discord client page against the real Embedded App SDK: a tiny test Activity (not
the bot's page) launched from a voice channel gets READY, authorizes through the consent
dialog, has its backend exchange the code, authenticates, and sees its participants — two
people at once — with no CSP violation and nothing but its own line in the captured logs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from bot.fakediscord import Channel, Driver, FakeDiscord, User
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS
from tests.browser.fakeclient import SDK, FakeInThread, fake_in_thread, records

pytestmark = pytest.mark.browser


class Lounge:
    def __init__(self, running: FakeInThread) -> None:
        def build(fake: FakeDiscord, driver: Driver) -> tuple[Channel, User, User]:
            guild = driver.add_guild("Kortbord Test")
            driver.add_channel(guild, "general")
            lounge = driver.add_channel(guild, "Lounge", voice=True)
            anna = driver.add_user("Anna", locale="sv-SE")
            bo = driver.add_user("Bo")
            driver.enable_activities(running.activity_url)
            return lounge, anna, bo

        self.channel, self.anna, self.bo = running.run(build)


@pytest.fixture
def running() -> Iterator[FakeInThread]:
    if not SDK.exists():
        pytest.fail("the Embedded App SDK is not installed: `npm ci --prefix bot/activity/web "
                    "--ignore-scripts` (scripts/test does it)")
    with fake_in_thread() as running:
        yield running


@pytest.fixture
def chromium(playwright: Playwright, running: FakeInThread,
             tmp_path: Path) -> Iterator[BrowserContext]:
    """The system's Chromium reaching the fake client (localhost:3333) and the Activity
    (<app id>.discordsays.localhost:3333) on the fake's own port."""
    args = running.run(lambda fake, _: fake.chromium_args())
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"), executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, *args], headless=True, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    yield context
    context.close()


def client_page(context: BrowserContext, running: FakeInThread, lounge: Lounge, user: User,
                **query: str) -> Page:
    page = context.new_page()
    page.goto(running.run(lambda fake, _: fake.client_url(user, lounge.channel, **query)))
    return page


def test_the_real_sdk_starts_authorizes_and_authenticates_through_the_fake_client(
    running: FakeInThread, chromium: BrowserContext
) -> None:
    lounge = Lounge(running)
    anna = client_page(chromium, running, lounge, lounge.anna)
    anna.click("#launch")
    expect(anna.locator("#consent")).to_be_visible()
    expect(anna.locator("#scopes")).to_have_text("identify")
    anna.click("#authorize")
    activity = anna.frame_locator("#activity")

    expect(activity.locator("#status")).to_have_text("authenticated")
    expect(activity.locator("#user")).to_have_text("Anna")
    expect(activity.locator("#participants")).to_have_text("Anna")
    expect(activity.locator("#locale")).to_have_text("sv-SE")
    assert anna.evaluate("window.fakeClient.ready")
    seen = records(running)
    assert seen["csp"] == []
    assert seen["logs"] == [("log", f"authenticated as {lounge.anna.id}")]
    assert running.run(lambda fake, _: fake.oauth.exchanges) == 1


def test_what_the_proxys_policy_refuses_is_reported_to_the_fake(
    running: FakeInThread, chromium: BrowserContext
) -> None:
    lounge = Lounge(running)
    anna = client_page(chromium, running, lounge, lounge.anna, authorize="auto")
    _launch_signed_in(anna)
    activity = next(f for f in anna.frames if "discordsays" in f.url)

    blocked = activity.evaluate(
        "fetch('https://example.com/').then(() => 'fetched', () => 'blocked')")
    reports = running.run(lambda fake, _: fake.wait_for(
        lambda: list(fake.csp_reports), 10, "a CSP violation report"))

    assert blocked == "blocked"
    assert reports[0]["blocked-uri"].startswith("https://example.com")
    assert reports[0]["effective-directive"] == "connect-src"


def test_two_people_in_one_instance_see_each_other_and_leaving_updates_the_other(
    running: FakeInThread, chromium: BrowserContext
) -> None:
    lounge = Lounge(running)
    anna = client_page(chromium, running, lounge, lounge.anna, authorize="auto")
    _launch_signed_in(anna)
    bo = client_page(chromium, running, lounge, lounge.bo, authorize="auto")
    expect(bo.locator("#launch")).to_have_text("Join Activity")
    bo.click("#launch")

    for page in (anna, bo):
        expect(page.frame_locator("#activity").locator("#participants")).to_have_text(
            "Anna, Bo")
    bo.click("#leave")
    expect(anna.frame_locator("#activity").locator("#participants")).to_have_text("Anna")
    instance = running.run(lambda _, driver: driver.activity_in(lounge.channel))
    assert instance is not None and instance.users == [lounge.anna]


def test_cancelling_the_consent_rejects_authorize_with_the_oauth2_error(
    running: FakeInThread, chromium: BrowserContext
) -> None:
    lounge = Lounge(running)
    anna = client_page(chromium, running, lounge, lounge.anna)
    anna.click("#launch")
    anna.click("#cancel")

    expect(anna.frame_locator("#activity").locator("#status")).to_have_text(
        "failed: User cancelled the authorization")
    assert ["AUTHORIZE", False] in anna.evaluate("window.fakeClient.rpc")
    assert running.run(lambda fake, _: fake.oauth.exchanges) == 0


def test_a_phone_sized_client_passes_platform_mobile(
    running: FakeInThread, chromium: BrowserContext
) -> None:
    lounge = Lounge(running)
    page = chromium.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(running.run(lambda fake, _: fake.client_url(
        lounge.anna, lounge.channel, platform="mobile", authorize="auto")))
    page.click("#launch")

    expect(page.frame_locator("#activity").locator("#status")).to_have_text("authenticated")
    src = page.locator("#activity").get_attribute("src") or ""
    assert "platform=mobile" in src and f"channel_id={lounge.channel.id}" in src


def _launch_signed_in(page: Page) -> None:
    """Launch from the client page, consent given ahead, until the test Activity signed in."""
    page.click("#launch")
    expect(page.frame_locator("#activity").locator("#status")).to_have_text("authenticated")
