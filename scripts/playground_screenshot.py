"""Make docs/img/playground.png, the README's picture of the playground, with the browser
tests' machinery: the playground as ``python -m bot.playground`` starts it, and the system's
Chromium driven by Playwright. Anna opens a Dubb table against two computers and looks at her
hand when her turn comes.

    .venv/bin/python scripts/playground_screenshot.py [--out docs/img/playground.png]

Emoji show only with an emoji font installed (Debian: fonts-noto-color-emoji).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    start_playground,
    stop_playground,
)
from tests.browser.pages import PlaygroundPage  # noqa: E402

VIEWPORT = {"width": 1280, "height": 960}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "img" / "playground.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        playground = start_playground(Path(folder) / "playground")
        try:
            with sync_playwright() as playwright:
                context = playwright.chromium.launch_persistent_context(
                    str(Path(folder) / "chromium-profile"), executable_path=CHROMIUM,
                    args=CHROMIUM_ARGS, headless=True, viewport=VIEWPORT,
                )
                bo = PlaygroundPage(context, playground.url, "Bo", "general")
                bo.say("Anna, try the computers first!")
                anna = PlaygroundPage(context, playground.url, "Anna", "general")
                anna.type_command("/dubb start computers:2")
                anna.table("Dubb").get_by_role("button", name="Start", exact=True).click()
                expect(anna.my_turn("Dubb")).to_be_visible()
                panel = anna.open_panel(anna.table("Dubb"))
                expect(panel.locator("select").first).to_be_visible()
                anna.page.mouse.move(0, 0)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                anna.page.screenshot(path=str(args.out))
                context.close()
        finally:
            stop_playground(playground)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
