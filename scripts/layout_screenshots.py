"""Pictures of the table as the playground draws it, at a desktop and a phone width: a Dubb
table on Anna's turn, her hand panel, and a Tonk table between hands (Anna drops at her first
chance, against one computer). For issue 44's before-and-after: run it in a checkout of the
old code and of the new with a different ``--prefix``.

    .venv/bin/python scripts/layout_screenshots.py --out docs/img --prefix after

Needs what ``scripts/playground_screenshot.py`` needs: Playwright and the system's Chromium.
"""

from __future__ import annotations

import argparse
import re
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

WIDTHS = {"desktop": {"width": 1280, "height": 960}, "phone": {"width": 390, "height": 844}}


def _shoot(page: PlaygroundPage, out: Path, name: str) -> None:
    page.page.mouse.move(0, 0)
    for width, size in WIDTHS.items():
        page.page.set_viewport_size(size)
        page.page.locator("#messages article.message").last.scroll_into_view_if_needed()
        page.page.screenshot(path=str(out / f"{name}-{width}.png"))
    page.page.set_viewport_size(WIDTHS["desktop"])


def _tonk_between_hands(anna: PlaygroundPage) -> None:
    """Anna plays until the hand is over: she drops when she may, else draws and discards."""
    for _ in range(40):
        between = anna.table("Tonk").filter(
            has=anna.page.get_by_role("button", name="Deal next hand"))
        expect(anna.my_turn("Tonk").or_(between)).to_be_visible()
        if between.count():
            return
        panel = anna.open_panel(anna.table("Tonk"))
        drop = panel.get_by_role("button", name=re.compile(r"^Drop \("))
        if drop.count():
            drop.click()
            continue
        panel.get_by_role("button", name="Draw from stock", exact=True).click()
        panel = anna.panels().last
        discard = panel.locator("select", has=anna.page.locator("option", has_text="Discard"))
        expect(discard.first).to_be_visible()
        discard.first.select_option(index=1)
    raise SystemExit("the Tonk hand did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "img")
    parser.add_argument("--prefix", default="after")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        playground = start_playground(Path(folder) / "playground")
        try:
            with sync_playwright() as playwright:
                context = playwright.chromium.launch_persistent_context(
                    str(Path(folder) / "chromium-profile"), executable_path=CHROMIUM,
                    args=CHROMIUM_ARGS, headless=True, viewport=WIDTHS["desktop"],
                )
                anna = PlaygroundPage(context, playground.url, "Anna", "general")
                anna.type_command("/dubb start computers:2")
                anna.table("Dubb").get_by_role("button", name="Start", exact=True).click()
                expect(anna.my_turn("Dubb")).to_be_visible()
                _shoot(anna, args.out, f"{args.prefix}-dubb-table")
                panel = anna.open_panel(anna.table("Dubb"))
                expect(panel.locator("select").first).to_be_visible()
                _shoot(anna, args.out, f"{args.prefix}-dubb-hand-panel")
                anna.page.close()
                tonk = PlaygroundPage(context, playground.url, "Bo", "general")  # Anna sits at Dubb
                tonk.open_channel("card-table")
                tonk.type_command("/tonk start computers:1")
                lobby = tonk.table("Tonk")
                expect(lobby).to_contain_text("Astrid")
                lobby.get_by_role("button", name="Start", exact=True).click()
                _tonk_between_hands(tonk)
                _shoot(tonk, args.out, f"{args.prefix}-tonk-between-hands")
                context.close()
        finally:
            stop_playground(playground)
    print(f"wrote {args.prefix}-*.png in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
