"""The playground page as a person uses it, for browser tests: type in the message box, press
buttons and pick from menus on the newest table and on your own private panel — and wait for
what the page shows, never for a fixed time."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from playwright.sync_api import BrowserContext, Locator, Page, expect

# Every text the page ever adds to its channel view, kept in the page: what a user "saw" even
# if it was replaced a moment later.
RECORD_SEEN = """
window.__seen = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) window.__seen.push(node.textContent || "");
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


class PlaygroundPage:
    def __init__(self, context: BrowserContext, url: str, user: str, channel: str) -> None:
        self.user = user
        self.page: Page = context.new_page()
        self.page.add_init_script(RECORD_SEEN)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"{url}?{urlencode({'as': user.lower(), 'channel': channel})}")
        expect(self.page.locator("#channel-name")).to_have_text(channel)

    # -- reading --------------------------------------------------------------------------------

    def messages(self) -> Locator:
        return self.page.locator("#messages article.message")

    def table(self, game: str) -> Locator:
        """The newest public message whose layout's heading starts with the game's name."""
        title = self.page.locator(".container .text-display .heading",
                                  has_text=re.compile(rf"^{game}\b"))
        return self.page.locator("#messages article.message:not(.ephemeral)").filter(
            has=title).last

    def my_turn(self, game: str) -> Locator:
        """The game's newest table while it names this user (whose turn it is)."""
        return self.table(game).filter(has=self.page.locator(".text-display .mention.me"))

    def panels(self) -> Locator:
        """This user's private messages (Discord's "Only you can see this")."""
        return self.page.locator("#messages article.message.ephemeral")

    def seen_text(self) -> str:
        return "\n".join(self.page.evaluate("window.__seen"))

    # -- acting ---------------------------------------------------------------------------------

    def type_command(self, text: str) -> None:
        """Type a slash command and press Enter; the command's answer is awaited by the caller
        through what appears."""
        box = self.page.locator("#input")
        box.fill(text)
        box.press("Enter")
        expect(box).to_have_value("")
        expect(self.page.locator("#composer-error")).to_be_hidden()

    def say(self, text: str) -> None:
        """Write a plain message."""
        box = self.page.locator("#input")
        box.fill(text)
        box.press("Enter")
        expect(box).to_have_value("")

    def choose_suggestion(self, typed: str, label: str) -> None:
        """Type ``typed`` and pick ``label`` from the pop-up."""
        box = self.page.locator("#input")
        box.fill(typed)
        self.page.locator("#suggestions .suggestion", has_text=label).first.click()

    def open_panel(self, table: Locator) -> Locator:
        """Press Your hand on ``table``; the new private panel."""
        before = self.panels().count()
        table.get_by_role("button", name="Your hand", exact=True).click()
        expect(self.panels()).to_have_count(before + 1)
        return self.panels().last

    def open_channel(self, name: str) -> None:
        self.page.locator("#channels .channel", has_text=name).click()
        expect(self.page.locator("#channel-name")).to_have_text(name)


def version_of(message: Locator) -> str:
    """Which message, in which version (``id:version``)."""
    return message.get_attribute("data-version") or ""


def wait_changed(message: Locator, version: str) -> None:
    """Wait until ``message`` (re-found each time) is another message, or another version of
    it, than ``version``."""
    expect(message).not_to_have_attribute("data-version", version)
