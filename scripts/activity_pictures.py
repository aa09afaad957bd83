"""Make docs/img/activity-desktop.png and docs/img/activity-phone.png, pictures of the Activity
(issue 48), with the browser tests' machinery: the fake Discord and ``python -m bot`` with its
Activity server, and the system's Chromium. Anna opens a Dubb table from the Activity in the
voice channel Lounge, Bo joins it on his phone, they start, and each is pictured on their own
turn — Anna with a card picked.

    .venv/bin/python scripts/activity_pictures.py [--out docs/img]

Seat names carry 🤖 for computers: a colour emoji font is installed when missing, as for
scripts/playground_screenshot.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Locator, expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from scripts.playground_screenshot import ensure_emoji_font  # noqa: E402
from tests.browser.activity_page import ActivityPage  # noqa: E402
from tests.browser.activity_world import activity_world  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def picture(page: ActivityPage, path: Path) -> None:
    """The Activity alone (its frame in the client), the pointer out of the way."""
    page.page.mouse.move(0, 0)
    page.content().evaluate("window.scrollTo(0, 0)")
    frame: Locator = page.page.locator("#activity")
    frame.screenshot(path=str(path))
    print(f"wrote {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "img")
    args = parser.parse_args()
    ensure_emoji_font()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, activity_world(Path(folder)) as running, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *running.chromium_args()],
            headless=True)
        desk = browser.new_context(viewport=DESKTOP)
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                    device_scale_factor=2)
        for context in (desk, phone):
            context.set_default_timeout(WAIT_MS)
        expect.set_options(timeout=WAIT_MS)
        anna, bo = running.person("Anna"), running.person("Bo")
        a = ActivityPage(desk, running, anna, running.voice, authorize="auto")
        a.launch(consent=False)
        a.actions("open").filter(has_text="Dubb").click()
        expect(a.body()).to_have_attribute("data-state", "lobby")
        b = ActivityPage(phone, running, bo, running.voice, platform="mobile",
                         authorize="auto")
        b.launch(consent=False)
        b.press("join")
        a.press("computer")
        a.press("start")
        pictured: set[str] = set()
        while len(pictured) < 2:
            b.wait_version(a.version())
            expect(a.frame.locator("#seats .seat.to-move").or_(a.ended()).first).to_be_visible()
            if a.ended().count():
                raise SystemExit("the game ended before both were pictured: run it again")
            who = a if a.my_turn().count() else b
            name = "desktop" if who is a else "phone"
            if name not in pictured and len(who.latest().all_inner_texts()) >= 2:
                # on the desktop, a card picked and its move offered
                picked = who.card_move() if who is a else None
                picture(who, args.out / f"activity-{name}.png")
                pictured.add(name)
                if picked is not None:
                    picked[0].click()
            who.play_turn()
            (b if who is a else a).wait_version(who.version())
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
