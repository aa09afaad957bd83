"""Make docs/img/playground.png, the README's picture of the playground, with the browser
tests' machinery: the playground as ``python -m bot.playground`` starts it, and the system's
Chromium driven by Playwright. Anna opens a Dubb table against two computers and looks at her
hand when her turn comes.

    .venv/bin/python scripts/playground_screenshot.py [--out docs/img/playground.png]

The page's 🤖 and 👁 show only with a colour emoji font, which the script installs (Debian's
fonts-noto-color-emoji, with apt-get, as root or through sudo) when fontconfig knows none; the
browser is Debian's chromium (``scripts/test`` installs it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
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
EMOJI_PACKAGE = "fonts-noto-color-emoji"


def ensure_emoji_font() -> None:
    """Install a colour emoji font when fontconfig has none, or the picture shows empty boxes
    where the page has 🤖 and 👁."""
    listed = subprocess.run(["fc-list", ":charset=1f916", "family"], capture_output=True,
                            text=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    if shutil.which("apt-get") is None:
        raise SystemExit(f"no emoji font: install {EMOJI_PACKAGE} or another colour emoji font")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", EMOJI_PACKAGE], check=True,
                   env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "img" / "playground.png")
    args = parser.parse_args()
    ensure_emoji_font()
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
