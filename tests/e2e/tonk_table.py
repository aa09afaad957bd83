"""Helpers for end-to-end Tonk tests: read the public table as a player would, play moves by
buttons or by slash commands, check every message for cards it must not show, and choose deal
seeds that lead to the endings a test wants.

How a test reaches a given ending: the deal of every hand depends only on the table's seed and
the seat order, so ``find_seed`` plays candidate seeds offline with the same engine and the same
deterministic policies the test then plays through Discord (one policy per hand: "aim to go
out", "drop when lowest", "drop when not lowest", "never spread or drop"), and returns the first
seed whose hands end as planned. The test sets that seed as the bot's deal seed
(``TableService``'s ``seed_source``) before pressing Start. The policies read the live engine —
they are the test's oracle for what a player decides — but every move is made through Discord.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot import cards
from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.driver import InteractionResult
from bot.fakediscord.model import StoredMessage
from bot.gamekit.contract import Seat
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    GreedyStrategy,
    HandEnd,
    Hit,
    Move,
    Phase,
    Spread,
    TonkEngine,
    TonkOptions,
    sort_cards,
)
from bot.games.tonk.autoplay import auto_discard
from bot.games.tonk.spreads import hits_on, spreads_in
from tests.e2e import table_card
from tests.e2e.conftest import BotRunner
from tests.e2e.table_card import card

Way = Literal["buttons", "commands"]
Policy = Callable[[TonkEngine, int], Move]

_COUNTER = re.compile(r"^kb:tonk:(\d+):(?:hand|deal):(\d+)$")
_MENTION = re.compile(r"<@(\d+)>")
_RANK = r"(?:10|[2-9JQKA])"
_SUIT = "♠♥♦♣"
_CARD = re.compile(rf"({_RANK})([{_SUIT}])")
_RUN = re.compile(rf"([{_SUIT}])({_RANK}(?:-{_RANK})+)")
_RANK_OF = {cards.RANK_NAMES[r]: r for r in cards.RANKS}
_PAYMENT = re.compile(r"^(.+?) pays (.+?) (\d+) \((.+)\)$")
_PART = re.compile(r"^(\d+) (.+)$")
_STANDING = re.compile(
    r"^\d+\. \*\*(.+?)\*\* ([+−]?\d+)(?: · (\d+) hands? played · (\d+) won)?")
RULE_CODE = re.compile(r"\bT\d{1,2}\b")
"""A ruling's number (T5): for logs and the full rules, never in what players read."""


# -- reading messages ---------------------------------------------------------------------------



def title(message: StoredMessage) -> str:
    """The title of a table (a layout) or of an answer (an embed)."""
    if message.embeds:
        return str(message.embeds[0].get("title", ""))
    return table_card.title(message)


def table_message(driver: Driver, channel: Channel) -> StoredMessage:
    """The channel's Tonk table (lobby or game): the newest public message titled Tonk."""
    for message in reversed(driver.channel_messages(channel)):
        if title(message).startswith("Tonk —"):
            return message
    raise AssertionError("no Tonk table in the channel")


def counter_of(message: StoredMessage) -> int | None:
    """The move counter the table's buttons carry (None in the lobby and once closed)."""
    for button in message.buttons():
        m = _COUNTER.match(button.get("custom_id", ""))
        if m:
            return int(m.group(2))
    return None


def table_id_of(message: StoredMessage) -> int:
    for component in message.interactive_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) >= 3 and parts[1] == "tonk":
            return int(parts[2])
    raise AssertionError("no Tonk component on the message")


def to_move(message: StoredMessage) -> int | None:
    m = _MENTION.search(table_card.turn_line(message))
    return int(m.group(1)) if m else None


def field_value(message: StoredMessage, name: str) -> str:
    value = table_card.field_value(message, name)
    if value is not None:
        return value
    raise AssertionError(f"no field {name!r} on {title(message)!r}")


def cards_shown(text: str) -> set[int]:
    """Every card a text shows, as card codes: ``7♦``, ``10♠``, and runs like ``♣5-6-7``."""
    found = {cards.make(_RANK_OF[r], _SUIT.index(s)) for r, s in _CARD.findall(text)}
    for suit, ranks in _RUN.findall(text):
        found |= {cards.make(_RANK_OF[r], _SUIT.index(suit)) for r in ranks.split("-")}
    return found


def payments_announced(message: StoredMessage) -> list[tuple[str, str, int, str]]:
    """(payer, payee, amount, reason) for every payment the table's Payments field shows after
    a hand; one line names a payer and a payee once, with the breakdown when it pays for
    several reasons ("Anna pays Bo 3 (2 caught dropping + 1 lowest after the drop)")."""
    text = field_value(message, "Payments")
    if text == "none":
        return []
    out = []
    pairs = set()
    for line in text.splitlines():
        m = _PAYMENT.match(line)
        assert m, line
        payer, payee, amount, why = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        assert (payer, payee) not in pairs, f"{payer} pays {payee} on two lines"
        pairs.add((payer, payee))
        parts = [_PART.match(part) for part in why.split(" + ")] if " + " in why else []
        if not parts:
            out.append((payer, payee, amount, why))
            continue
        assert all(parts), why
        out += [(payer, payee, int(p.group(1)), p.group(2)) for p in parts if p]
        assert sum(int(p.group(1)) for p in parts if p) == amount, line
    return out


def standings_shown(message: StoredMessage) -> dict[str, tuple[int, int | None, int | None]]:
    """name → (net, hands played, hands won) from a ledger standings page (hands ``None``
    where the standings leave them out: a season of a server with several)."""
    out = {}
    for line in ((card(message) or {}).get("description") or "").splitlines():
        m = _STANDING.match(line)
        if m:
            played, won = m.group(3), m.group(4)
            net = int(m.group(2).replace("−", "-"))  # the minus sign, not a hyphen
            out[m.group(1)] = (net, None if played is None else int(played),
                               None if won is None else int(won))
    return out


# -- what the simulated players decide ----------------------------------------------------------


def _others_totals(t: TonkEngine, p: int) -> list[int]:
    return [t.total_of(q) for q in t.hand_players if q != p]


def plain(t: TonkEngine, p: int) -> Move:
    """Never spreads or drops: draws from the stock, discards by T11's order, ends the hand
    when the stock is out — so the hand ends in a stock-out."""
    if t.phase is Phase.START:
        return DrawStock() if t.stock_size else EndHand()
    return Discard(auto_discard(t.hand(p), t.taken_discard))


def aim_out(t: TonkEngine, p: int) -> Move:
    """Plays to go out: takes a useful discard, lays every spread and hit, never drops."""
    if t.phase is Phase.START:
        top = t.discard_top
        hand = t.hand(p)
        if top is not None and (any(top in s for s in spreads_in((*hand, top)))
                                or any(hits_on((top,), s.cards) for s in t.spreads)):
            return DrawDiscard()
        return DrawStock() if t.stock_size else EndHand()
    # greedy decides without randomness
    return GreedyStrategy().choose(t.observe(p), random.Random(0))


def drop_when_lowest(t: TonkEngine, p: int) -> Move:
    if t.phase is Phase.START and t.total_of(p) < min(_others_totals(t, p)):
        return Drop()
    return plain(t, p)


def drop_when_not_lowest(t: TonkEngine, p: int) -> Move:
    if t.phase is Phase.START and t.total_of(p) >= min(_others_totals(t, p)):
        return Drop()
    return plain(t, p)


POLICY_FOR: dict[HandEnd, Policy] = {
    HandEnd.TONK_OUT: aim_out,
    HandEnd.OUT_BY_DISCARD: aim_out,
    HandEnd.DROP_WON: drop_when_lowest,
    HandEnd.DROP_CAUGHT: drop_when_not_lowest,
    HandEnd.STOCK_OUT: plain,
}


def simulate(seats: Sequence[Seat], options: TonkOptions, seed: int,
             plan: Sequence[HandEnd]) -> tuple[list[HandEnd], list[Move]]:
    """Play ``plan``'s policies offline; the endings reached and every move made."""
    table = TonkEngine.new(list(seats), options, seed)
    endings: list[HandEnd] = []
    moves: list[Move] = []
    for n, wanted in enumerate(plan):
        if n:
            table.apply(table.player_ids[0], DealNextHand())
        policy = POLICY_FOR[wanted]
        while table.phase in (Phase.START, Phase.AFTER_DRAW):
            player = table.to_move
            assert player is not None
            move = policy(table, player)
            table.apply(player, move)
            moves.append(move)
        assert table.last_hand_result is not None
        endings.append(table.last_hand_result.how)
        if endings[-1] is not wanted:
            break
    return endings, moves


def find_seed(seats: Sequence[Seat], plan: Sequence[HandEnd],
              options: TonkOptions | None = None, *,
              needs: Callable[[list[Move]], bool] = lambda _: True, start: int = 1,
              tries: int = 5000) -> int:
    """The first seed from ``start`` whose hands end as ``plan`` says under its policies (and
    whose moves satisfy ``needs``)."""
    opts = options or TonkOptions()
    for seed in range(start, start + tries):
        endings, moves = simulate(seats, opts, seed, plan)
        if endings == list(plan) and needs(moves):
            return seed
    raise AssertionError(f"no seed in {start}..{start + tries} gives {plan}")


def uses_every_kind_of_move(moves: list[Move]) -> bool:
    kinds = {type(m) for m in moves}
    return {Spread, Hit, DrawDiscard, DrawStock, Discard, Drop, EndHand} <= kinds


# -- the privacy check --------------------------------------------------------------------------


@dataclass
class LeakScanner:
    """Checks every message version the fake logged, step by step: no public message shows a
    card of a hand in play that was not laid open in this hand (upcard, discards, spreads, hits),
    and no private message shows such a card of another player's hand. Hands are revealed only
    once a hand is over."""

    driver: Driver
    channel: Channel
    seen: int = 0
    records_done: int = 0
    public: set[int] = field(default_factory=set)
    checked: int = 0

    async def scan(self, runner: BotRunner, table_id: int) -> None:
        assert runner.bot is not None
        service = runner.bot.service
        for record in (await service.moves(table_id))[self.records_done:]:
            for event in record.events:
                self._learn(event)
            self.records_done += 1
        snapshot = await service.get(self.channel.id)
        engine = None if snapshot is None else snapshot.engine
        secret: dict[int, set[int]] = {}
        if engine is not None and engine.phase in (Phase.START, Phase.AFTER_DRAW):
            secret = {p: set(engine.hand(p)) - self.public for p in engine.hand_players}
        log = self.driver.log
        for entry in log[self.seen:]:
            # a deletion shows nothing: it takes down a version already checked when it was made
            if entry.channel_id != self.channel.id or entry.action == "delete":
                continue
            shown = cards_shown(entry.text)
            hidden = {c for p, held in secret.items() if p != entry.audience for c in held}
            leaked = shown & hidden
            assert not leaked, (
                f"{'public' if entry.audience is None else 'private'} message shows "
                f"{[cards.display(c) for c in leaked]}: {entry.text!r}"
            )
            self.checked += 1
        self.seen = len(log)

    def _learn(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind == "dealt":
            self.public = set() if event["upcard"] is None else {event["upcard"]}
        elif kind in ("discarded", "drew_from_discard"):
            self.public.add(event["card"])
        elif kind in ("spread_laid", "hit"):
            self.public.update(event["cards"])


# -- a table played through Discord -------------------------------------------------------------


@dataclass
class TonkPlay:
    runner: BotRunner
    driver: Driver
    channel: Channel
    users: dict[int, User]
    scanner: LeakScanner
    table_id: int
    panels: dict[int, StoredMessage] = field(default_factory=dict)
    made: list[Move] = field(default_factory=list)
    in_place: int = 0

    @property
    def table(self) -> StoredMessage:
        return table_message(self.driver, self.channel)

    async def engine(self) -> TonkEngine:
        assert self.runner.bot is not None
        snapshot = await self.runner.bot.service.get(self.channel.id)
        assert snapshot is not None and snapshot.engine is not None
        engine: TonkEngine = snapshot.engine
        return engine

    async def counter(self) -> int:
        assert self.runner.bot is not None
        snapshot = await self.runner.bot.service.get(self.channel.id)
        assert snapshot is not None
        return snapshot.counter

    async def state(self) -> tuple[int, dict[str, Any]]:
        """Everything an error must leave untouched."""
        return await self.counter(), (await self.engine()).to_stored()

    async def settle(self) -> StoredMessage:
        """Wait until the public table shows the table's latest move, then check the messages
        sent meanwhile for leaks."""
        assert self.runner.bot is not None
        snapshot = await self.runner.bot.service.get(self.channel.id)
        # a table that closed is no longer the channel's table
        counter = None if snapshot is None else snapshot.counter

        def shown() -> StoredMessage | None:
            message = self.table
            at = counter_of(message)
            if counter is None:
                return message if title(message).endswith("closed") else None
            if at is not None and at >= counter:
                return message
            return None

        message = await self.driver.wait_for(shown, what=f"the table at move {counter}")
        await self.scanner.scan(self.runner, self.table_id)
        return message

    async def play(self, move: Move, way: Way, user: User | None = None) -> InteractionResult:
        """Make ``move`` as the player to move (or ``user``) by buttons or by commands."""
        engine = await self.engine()
        if user is None:
            assert engine.to_move is not None
            user = self.users[engine.to_move]
        if way == "buttons":
            result = await self._by_buttons(move, user, engine)
        else:
            result = await self._by_command(move, user, engine)
        assert result.ephemeral, result.content
        assert not result.content.startswith(("That isn't allowed", "Sorry")), (
            result.content)
        self.made.append(move)
        await self.settle()
        return result

    async def _by_buttons(self, move: Move, user: User, engine: TonkEngine) -> InteractionResult:
        table = self.table
        if isinstance(move, DealNextHand):
            result = await self.driver.click(user, table, "Deal next hand")
            self.panels[user.id] = _message(result)
            return result
        if engine.phase is Phase.START:
            if isinstance(move, DrawStock) and len(self.made) % 2:
                # the table's own draw button answers with a fresh panel
                result = await self.driver.click(user, table, "Draw from stock")
                self.panels[user.id] = _message(result)
                return result
            opened = await self.driver.click(user, table, "Your hand")
            self.panels[user.id] = _message(opened)
        panel = self.panels[user.id]
        if isinstance(move, Drop):
            label = next(b["label"] for b in panel.buttons() if b["label"].startswith("Drop"))
            result = await self.driver.click(user, panel, label)
        elif isinstance(move, DrawStock):
            result = await self.driver.click(user, panel, "Draw from stock")
        elif isinstance(move, DrawDiscard):
            assert engine.discard_top is not None
            take = f"Take {cards.display(engine.discard_top)}"
            result = await self.driver.click(user, panel, take)
        elif isinstance(move, EndHand):
            result = await self.driver.click(user, panel, "End the hand")
        elif isinstance(move, Spread):
            result = await self._choose(user, panel, "Lay a spread…",
                                        ".".join(map(str, sorted_for_value(move.cards))))
        elif isinstance(move, Hit):
            value = f"{move.spread_id}:{'.'.join(map(str, sorted_for_value(move.cards)))}"
            select = next(s for s in panel.selects()
                          if value in [o["value"] for o in s["options"]])
            result = await self.driver.select(user, panel, [value], custom_id=select["custom_id"])
        elif isinstance(move, Discard):
            result = await self._choose(user, panel, "Discard a card (ends your turn)…",
                                        str(move.card))
        else:
            raise AssertionError(f"no button for {move}")
        # the panel changed in place (6: acknowledged first on a busy machine, then edited)
        assert result.type in (6, 7), result.content
        self.in_place += 1
        return result

    async def _choose(self, user: User, panel: StoredMessage, placeholder: str,
                      value: str) -> InteractionResult:
        select = next(s for s in panel.selects() if s.get("placeholder") == placeholder)
        return await self.driver.select(user, panel, [value], custom_id=select["custom_id"])

    async def _by_command(self, move: Move, user: User, engine: TonkEngine) -> InteractionResult:
        d, ch = self.driver, self.channel
        if isinstance(move, DealNextHand):
            return await d.slash(user, ch, "tonk deal")
        if isinstance(move, Drop):
            return await d.slash(user, ch, "tonk knock")
        if isinstance(move, DrawStock):
            return await d.slash(user, ch, "tonk draw", {"source": "stock"})
        if isinstance(move, DrawDiscard):
            return await d.slash(user, ch, "tonk draw", {"source": "discard"})
        if isinstance(move, EndHand):
            return await d.slash(user, ch, "tonk end")
        if isinstance(move, Spread):
            value = await self._offered(user, "tonk spread", {"cards": ""}, "cards", move.cards)
            return await d.slash(user, ch, "tonk spread", {"cards": value})
        if isinstance(move, Hit):
            spreads = await d.autocomplete(user, ch, "tonk hit", {"spread": ""},
                                           focused="spread")
            label = f"S{move.spread_id}"
            assert label in [c["value"] for c in spreads], spreads
            value = await self._offered(user, "tonk hit", {"cards": "", "spread": label},
                                        "cards", move.cards)
            return await d.slash(user, ch, "tonk hit", {"cards": value, "spread": label})
        if isinstance(move, Discard):
            value = await self._offered(user, "tonk discard", {"card": ""}, "card", (move.card,))
            return await d.slash(user, ch, "tonk discard", {"card": value})
        raise AssertionError(f"no command for {move}")

    async def _offered(self, user: User, command: str, options: dict[str, Any], focused: str,
                       wanted: Sequence[int]) -> str:
        """The autocomplete value that names exactly ``wanted`` (it must be offered)."""
        choices = await self.driver.autocomplete(user, self.channel, command, options,
                                                 focused=focused)
        hand = list((await self.engine()).hand(user.id))
        for choice in choices:
            picked = cards.pick_from_hand(cards.parse_cards(choice["value"]), hand)
            if sorted(picked) == sorted(wanted):
                return str(choice["value"])
        raise AssertionError(f"{[cards.display(c) for c in wanted]} not offered: {choices}")

    async def play_hand(self, policy: Policy, way: Way) -> StoredMessage:
        """Play the current hand to its end with ``policy``; the table as it ends."""
        while True:
            engine = await self.engine()
            if engine.phase not in (Phase.START, Phase.AFTER_DRAW):
                return self.table
            player = engine.to_move
            assert player is not None
            await self.play(policy(engine, player), way)

    async def deal(self, way: Way, user: User | None = None) -> None:
        engine = await self.engine()
        dealer = user or self.users[engine.player_ids[0]]
        await self.play(DealNextHand(), way, dealer)


def sorted_for_value(chosen: Sequence[int]) -> list[int]:
    """Cards in the order the panel encodes them (Tonk order)."""
    return list(sort_cards(chosen))


def _message(result: InteractionResult) -> StoredMessage:
    assert result.message is not None, result.content
    return result.message


async def open_table(
    runner: BotRunner, driver: Driver, channel: Channel, host: User, guests: Sequence[User],
    *, seed: int | None = None, options: Mapping[str, Any] | None = None,
    way: Way = "buttons",
) -> TonkPlay:
    """`/tonk start` by ``host``, Join (the button, or `/tonk join`) by each guest, Start by the
    host — the lobby's button, the one way to start — with ``seed`` as the deal seed when
    given."""
    opened = await driver.slash(host, channel, "tonk start", dict(options or {}) or None)
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await driver.wait_for_message(channel, lambda m: title(m).startswith("Tonk"))
    users = {host.id: host}
    for guest in guests:
        if way == "buttons":
            joined = await driver.click(guest, lobby, "Join")
        else:
            joined = await driver.slash(guest, channel, "tonk join")
        assert joined.ephemeral and "joined" in joined.content, joined.content
        users[guest.id] = guest
    if seed is not None:
        assert runner.bot is not None
        # the service's seed source decides the deal; the hands then follow from the seed
        runner.bot.service._seed_source = lambda: seed  # type: ignore[attr-defined]
    started = await driver.click(host, lobby, "Start")
    assert started.ephemeral, started.content
    table_id = table_id_of(lobby)
    play = TonkPlay(runner, driver, channel, users, LeakScanner(driver, channel), table_id)
    await play.settle()
    return play


def seats_of(users: Sequence[User]) -> list[Seat]:
    return [Seat(u.id, u.global_name or u.username) for u in users]
