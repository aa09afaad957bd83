"""The Activity as a person uses it, for browser tests and scripts: the fake Discord client page
(Discord's part: launching, the consent step) and, in its iframe, the Activity page itself —
read and played as a person would, waiting for what it shows, never for a fixed time."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Frame, FrameLocator, Locator, Page, expect

from bot.fakediscord import Channel, User
from tests.browser.activity_world import ActivityWorld

WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""An init script for a browser context: every frame keeps the CSP violations it saw — the
Activity's own header's too, which Discord's proxy (and the fake's) never hears of."""

# what the Activity page marks on <body> for what it shows (docs/activity.md: a scene's version)
_VERSION = "data-version"
_ANY = re.compile(r"^-?\d+$")


class ActivityPage:
    """One person's fake Discord client on a channel, with the Activity open in it."""

    def __init__(self, context: BrowserContext, running: ActivityWorld, user: User,
                 channel: Channel, **query: str) -> None:
        self.user = user
        self.page: Page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.sessions: list[str] = []
        self.page.on("request", self._saw)
        self.page.goto(running.client_url(user, channel, **query))
        self.frame: FrameLocator = self.page.frame_locator("#activity")

    def _saw(self, request: object) -> None:
        # the session the page streams with, so a test can act with it from the page's origin
        found = re.search(r"/api/stream\?session=([^&]+)", getattr(request, "url", ""))
        if found:
            self.sessions.append(found.group(1))

    # -- Discord's part -------------------------------------------------------------------------

    def launch(self, *, press: bool = True, consent: bool | None = None) -> None:
        """Press the client's Launch (or Join: ``press``; someone who launched it from a
        button in the channel is in the Activity already, and the client opens it by itself)
        and, at Discord's consent step, Authorize; returns once the table is drawn.
        ``consent``: the step must come (True), must not (False: approved already, or
        ``authorize=auto``), or comes only the first time this person authorizes (None)."""
        if press:
            self.page.locator("#launch").click()
        dialog = self.page.locator("#consent")
        if consent is None:
            # the client either asks, or answers the SDK's AUTHORIZE at once
            self.page.wait_for_function(
                "document.querySelector('#consent').open"
                " || window.fakeClient.rpc.some(([command]) => command === 'AUTHORIZE')")
            consent = dialog.is_visible()
        if consent:
            expect(dialog).to_be_visible()
            self.page.locator("#authorize").click()
        else:
            expect(dialog).to_be_hidden()
        self.wait_shown()

    # -- reading --------------------------------------------------------------------------------

    def body(self) -> Locator:
        return self.frame.locator("body")

    def seats(self) -> Locator:
        return self.frame.locator("#seats .seat")

    def seat(self, name: str) -> Locator:
        return self.seats().filter(has=self.frame.locator(".name", has_text=name))

    def hand(self) -> Locator:
        return self.frame.locator("#hand .card")

    def actions(self, kind: str | None = None) -> Locator:
        selector = "#actions .action" + (f'[data-kind="{kind}"]' if kind else "")
        return self.frame.locator(selector)

    def pile(self, pile_id: str) -> Locator:
        return self.frame.locator(f'#piles .pile[data-pile="{pile_id}"]')

    def participants(self) -> Locator:
        return self.frame.locator("#participants li")

    def latest(self) -> Locator:
        return self.frame.locator("#latest li")

    def result(self) -> Locator:
        return self.frame.locator("#result li")

    def cards_held(self) -> list[str]:
        """The hand's card ids, sorted."""
        return sorted(self.hand().evaluate_all("cards => cards.map((c) => c.dataset.card)"))

    def csp_violations(self) -> list[str]:
        """What the Activity's own CSP (and the proxy's) blocked in this page so far."""
        return list(self.content().evaluate("window.__csp || []"))

    def version(self) -> int:
        return int(self.body().get_attribute(_VERSION) or -1)

    def my_turn(self) -> Locator:
        return self.frame.locator("#seats .seat.you.to-move")

    def ended(self) -> Locator:
        """The page while a hand or the game is over (docs/activity.md: the scene's state)."""
        return self.frame.locator('body[data-state="between"], body[data-state="over"]')

    # -- acting ---------------------------------------------------------------------------------

    def wait_shown(self) -> None:
        expect(self.frame.locator("#app")).to_be_visible()
        expect(self.body()).to_have_attribute(_VERSION, _ANY)

    def wait_changed(self, version: int) -> None:
        """Wait until the page shows a newer scene than ``version``."""
        expect(self.body()).not_to_have_attribute(_VERSION, str(version))

    def wait_version(self, at_least: int) -> None:
        """Wait until the page shows the scene of version ``at_least`` or a newer one."""
        self.content().wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=at_least)

    def content(self) -> Frame:
        handle = self.page.locator("#activity").element_handle()
        frame = handle.content_frame() if handle is not None else None
        assert frame is not None
        return frame

    def press(self, kind: str) -> None:
        """Press the first action of ``kind`` and wait for the scene it makes."""
        before = self.version()
        self.actions(kind).first.click()
        self.wait_changed(before)

    def card_move(self) -> tuple[Locator, str] | None:
        """A card that makes a move alone, and the move's label, as the page offers it when
        that card is picked (the card is left picked); None when no card does."""
        live = self.frame.locator("#hand .card:not(.dead)")
        plain = set(self.actions("move").all_inner_texts())
        for n in range(live.count()):
            card = live.nth(n)
            card.click()
            labels = [t for t in self.actions("move").all_inner_texts() if t not in plain]
            if labels:
                return card, labels[0]
            card.click()
        return None

    def move_id(self) -> str:
        """The id of a move the page offers now (a card's, picked and put back, or one
        without cards)."""
        found = self.card_move()
        if found is None:
            return self.actions("move").first.get_attribute("data-action") or ""
        card, label = found
        move = self.frame.locator("#actions").get_by_role("button", name=label, exact=True)
        chosen = move.first.get_attribute("data-action") or ""
        card.click()
        return chosen

    def play_by_keyboard(self) -> None:
        """Make a move with the keyboard alone: arrow keys to a card that plays alone, Space
        to pick it, Tab to its move, Enter; or, with no such card, Enter on the pile to draw
        from, else Tab to the first move."""
        before = self.version()
        found = self.card_move()
        keys = self.page.keyboard
        draw = self.frame.locator("#piles .pile-take")
        if found is None and draw.count():
            draw.first.focus()
        elif found is None:
            self.hand().first.focus()
            self.tab_to(self.actions("move").first)
        else:
            card, label = found
            card.click()  # put back: the keyboard picks it again
            at = int(card.get_attribute("data-at") or 0)
            self.hand().first.focus()
            for _ in range(at):
                keys.press("ArrowRight")
            expect(self.hand().nth(at)).to_be_focused()
            keys.press("Space")
            expect(self.hand().nth(at)).to_have_attribute("aria-pressed", "true")
            self.tab_to(self.frame.locator("#actions").get_by_role("button", name=label,
                                                                   exact=True).first)
        keys.press("Enter")
        self.wait_changed(before)

    def tab_to(self, target: Locator) -> None:
        """Press Tab until ``target`` has the focus (a few presses at most)."""
        for _ in range(12):
            self.page.keyboard.press("Tab")
            if target.evaluate("e => e === document.activeElement"):
                return
        raise AssertionError("Tab never reached the move")

    def play_turn(self, *, drag: bool = False, at_move: Callable[[], None] | None = None,
                  shown: bool = True) -> str:
        """Make a move on this person's turn as a person would: a card if one can be played
        alone (dragged onto its pile, or picked and played with its button), else a draw by
        a tap on the pile to draw from, else the first move without cards (pass…). Returns
        how: "drag", "tap", "pile" or "button". ``at_move`` is called just before the click
        (or drag) that makes the move; ``shown``: wait until the page shows the move."""
        before = self.version()
        found = self.card_move()
        draw = self.frame.locator("#piles .pile-take")
        mark = at_move or (lambda: None)
        if found is None and draw.count():
            mark()
            draw.first.click()
            how = "pile"
        elif found is None:
            mark()
            self.actions("move").first.click()
            how = "button"
        else:
            card, label = found
            target = self.drop_target()
            if drag and target is not None:
                card.click()  # unpicked: a drag carries the card it starts on
                mark()
                card.drag_to(target)
                how = "drag"
            else:
                mark()
                self.frame.locator("#actions").get_by_role("button", name=label,
                                                           exact=True).first.click()
                how = "tap"
        if shown:
            self.wait_changed(before)
        return how

    def drop_target(self) -> Locator | None:
        """The pile cards are played onto, when exactly one pile takes them (it says so)."""
        targets = self.frame.locator("#piles .pile[title]")
        return targets.first if targets.count() == 1 else None

    def act_from_page(self, body: dict[str, object], path: str = "api/act") -> tuple[int, dict]:
        """POST ``body`` to the Activity server from the page's own origin (through Discord's
        proxy), as a forged page would; (status, answer)."""
        answer: list = self.content().evaluate(
            """async ([path, body]) => {
                const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
                                             headers: {"Content-Type": "application/json"}});
                return [r.status, await r.json().catch(() => ({}))];
            }""", [path, body])
        return answer[0], answer[1]
