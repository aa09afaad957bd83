"""Issue 14 end to end: Swedish players on a Danish server. Private answers follow each user's
Discord language, the public table the server's, commands are synced with Swedish and Danish
names, and no English message reaches anyone. Issue 47 adds Norwegian Bokmål, which Discord
calls "no"."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.model import StoredMessage
from bot.i18n.catalogs import extract
from tests.e2e.conftest import BotRunner
from tests.e2e.dubb_table import to_move
from tests.e2e.table_card import title, turn_line

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

PLACEHOLDER = re.compile(r"\{\w*\}")


def english_fragments() -> set[str]:
    """Pieces of the bot's English messages long enough to be unmistakably English: whole
    messages without placeholders, and the text between placeholders."""
    found: set[str] = set()
    for message in extract():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            for piece in PLACEHOLDER.split(text or ""):
                piece = piece.strip(" .,:;—()*`\n")
                # short pieces ("Pass", "on") may be the same word in another language
                if len(piece) >= 12 and " " in piece:
                    found.add(piece)
    return found


def _texts(messages: Iterable[StoredMessage]) -> list[str]:
    return [m.text for m in messages]


def _english(texts: Iterable[str], fragments: set[str]) -> list[str]:
    return sorted({f"{f!r} in {t[:80]!r}" for t in texts for f in fragments if f in t})


def _button(message: StoredMessage, action: str) -> str | None:
    for b in message.buttons():
        parts = str(b.get("custom_id", "")).split(":")
        if len(parts) >= 4 and parts[3] == action and not b.get("disabled"):
            return str(b["custom_id"])
    return None


def _counter(message: StoredMessage) -> int:
    parts = [str(c.get("custom_id", "")).split(":") for c in message.interactive_components()]
    return max((int(p[4]) for p in parts if len(p) > 4 and p[4].isdigit()), default=-1)


async def _moved_on(driver: Driver, channel: Channel, counter: int) -> None:
    """Wait until the table shows a later move than ``counter``, or the game is over."""
    await driver.wait_for(lambda: _counter(_table(driver, channel)) > counter
                          or _button(_table(driver, channel), "hand") is None,
                          what="the move on the table")


def _table(driver: Driver, channel: Channel) -> StoredMessage:
    return next(m for m in reversed(driver.channel_messages(channel))
                if title(m).startswith("Dubb"))


async def _play_dubb(driver: Driver, channel: Channel, anna: User, bo: User) -> list[str]:
    """Anna opens a Dubb table, Bo joins, and both play it to the end, each always making the
    first move offered; what each was told in private."""
    opened = await driver.slash(anna, channel, "dubb start")
    assert not opened.ephemeral  # the lobby itself answers
    lobby = await driver.wait_for_message(channel, lambda m: bool(title(m)))
    joined = await driver.click(bo, lobby, _button(lobby, "join") or "")
    assert joined.ephemeral
    started = await driver.click(anna, lobby, _button(lobby, "start") or "")
    assert started.ephemeral
    await driver.wait_for(lambda: _button(_table(driver, channel), "hand") is not None,
                          what="the game to start")
    users = {anna.id: anna, bo.id: bo}
    private: list[str] = [opened.content, joined.content, started.content]
    for _ in range(400):
        await driver.wait_for(lambda: to_move(_table(driver, channel)) is not None
                              or _button(_table(driver, channel), "hand") is None,
                              what="the next turn")
        table = _table(driver, channel)
        if _button(table, "hand") is None:
            break
        user: User = users[to_move(table) or 0]
        panel = await driver.click(user, table, _button(table, "hand") or "")
        assert panel.message is not None
        private.append(panel.message.text)
        message = panel.message
        if message.selects():
            select = message.selects()[0]
            result = await driver.select(user, message, [select["options"][0]["value"]],
                                         custom_id=select["custom_id"])
        else:
            result = await driver.click(user, message, _button(message, "draw")
                                        or _button(message, "pass") or "")
        assert result.message is not None
        private.append(result.message.text)
        await _moved_on(driver, channel, _counter(table))
    return private


async def test_swedish_players_on_a_danish_server(bot_runner: BotRunner,
                                                  driver: Driver) -> None:
    guild = driver.add_guild("Kortklubben", preferred_locale="da")
    channel = driver.add_channel(guild, "kort")
    anna = driver.add_user("Anna", locale="sv-SE")
    bo = driver.add_user("Bo", locale="sv-SE")
    await bot_runner.start()

    # commands in both languages, as Discord shows them to each user
    commands = {c["name"]: c for c in driver.fake.commands()}
    dubb = commands["dubb"]
    play = next(o for o in dubb["options"] if o["name"] == "play")
    assert play["name_localizations"]["sv-SE"] == "spela"
    assert play["name_localizations"]["da"] == "spil"
    assert play["name_localizations"]["fi"] == "lyö"
    assert play["name_localizations"]["no"] == "spill"
    assert {"sv-SE", "da", "fi", "no"} <= set(play["description_localizations"])

    private = await _play_dubb(driver, channel, anna, bo)
    rules = await driver.slash(bo, channel, "dubb rules")
    private.append(rules.content)
    assert "docs/rules/dubb.sv.md" in rules.content

    public = _texts(driver.channel_messages(channel))
    final = public[-1]
    # Danish on the table, Swedish in private
    assert "Dubb — spillet er slut" in final, final[:200]
    assert any("Din hand" in t for t in private)
    assert any("Spillere (i turrækkefølge)" in t for t in public)
    fragments = english_fragments()
    assert not _english(public, fragments)
    assert not _english(private, fragments)


async def test_norwegian_players_on_a_norwegian_server(bot_runner: BotRunner,
                                                       driver: Driver) -> None:
    """Issue 47: Discord's locale "no" is Norwegian Bokmål, in private and on the table."""
    guild = driver.add_guild("Kortklubben", preferred_locale="no")
    channel = driver.add_channel(guild, "kort")
    anna = driver.add_user("Anna", locale="no")
    bo = driver.add_user("Bo", locale="no")
    await bot_runner.start()
    private = await _play_dubb(driver, channel, anna, bo)
    rules = await driver.slash(bo, channel, "dubb rules")
    private.append(rules.content)
    assert "docs/rules/dubb.nb.md" in rules.content

    public = _texts(driver.channel_messages(channel))
    assert "Dubb — partiet er over" in public[-1], public[-1][:200]
    assert any("Hånden din" in t for t in private)
    assert any("Spillere (i turrekkefølge)" in t for t in public)
    fragments = english_fragments()
    assert not _english(public, fragments)
    assert not _english(private, fragments)


def _tonk_table(driver: Driver, channel: Channel) -> StoredMessage:
    return next(m for m in reversed(driver.channel_messages(channel))
                if title(m).startswith("Tonk"))


def _select(message: StoredMessage, action: str) -> dict[str, object] | None:
    for select in message.selects():
        parts = str(select.get("custom_id", "")).split(":")
        if len(parts) >= 4 and parts[3] == action and select.get("options"):
            return select
    return None


async def test_three_tonk_hands_in_swedish_on_a_danish_server(bot_runner: BotRunner,
                                                              driver: Driver) -> None:
    guild = driver.add_guild("Kortklubben", preferred_locale="da")
    channel = driver.add_channel(guild, "tonk")
    anna = driver.add_user("Anna", locale="sv-SE")
    await bot_runner.start()
    opened = await driver.slash(anna, channel, "tonk start", {"computers": 2})
    private: list[str] = [opened.content]
    lobby = await driver.wait_for_message(channel, lambda m: bool(title(m)))
    started = await driver.click(anna, lobby, _button(lobby, "start") or "")
    private.append(started.content)
    hands_dealt = 1

    def waiting() -> StoredMessage | None:
        table = _tonk_table(driver, channel)
        if _button(table, "deal") is not None or f"<@{anna.id}>" in turn_line(table):
            return table
        return None

    for _ in range(300):
        table = await driver.wait_for(waiting, what="Anna's turn or the next deal")
        if _button(table, "deal") is not None:
            if hands_dealt == 3:
                break
            dealt = await driver.click(anna, table, _button(table, "deal") or "")
            private.append(dealt.content)
            hands_dealt += 1
            await _moved_on_tonk(driver, channel, _counter(table))
            continue
        panel = await driver.click(anna, table, _button(table, "hand") or "")
        assert panel.message is not None
        message = panel.message
        private.append(message.text)
        # draw, then discard the first card offered: always a legal turn
        result = await driver.click(anna, message, _button(message, "draw_stock")
                                    or _button(message, "end_hand") or "")
        assert result.message is not None
        private.append(result.message.text)
        message = result.message
        made = 1
        discard = _select(message, "discard")
        if discard is not None:
            made += 1
            options = discard["options"]
            assert isinstance(options, list)
            result = await driver.select(anna, message, [options[0]["value"]],
                                         custom_id=str(discard["custom_id"]))
            assert result.message is not None
            private.append(result.message.text)
        # the table shows Anna's last move (the counter it carries is the next move's)
        await _moved_on_tonk(driver, channel, _counter(table) + made - 1)
    ledger = await driver.slash(anna, channel, "tonk ledger", {"private": True})
    assert ledger.message is not None
    private.append(ledger.message.text)

    public = _texts(driver.channel_messages(channel))
    assert hands_dealt == 3
    assert any("Runde 3" in t or "runde 3" in t for t in public)  # Danish on the table
    assert any("Din hand" in t for t in private)  # Swedish in private
    fragments = english_fragments()
    assert not _english(public, fragments)
    assert not _english(private, fragments)


async def _moved_on_tonk(driver: Driver, channel: Channel, counter: int) -> None:
    await driver.wait_for(lambda: _counter(_tonk_table(driver, channel)) > counter,
                          what="the move on the table")


async def test_tonk_knocks_by_that_name_in_every_language(bot_runner: BotRunner,
                                                          driver: Driver) -> None:
    """Issue 36: the design names the moves "draw, play, knock and pass", and Swedish and
    Danish players already knocked (knacka, bank); the English command was /tonk drop."""
    await bot_runner.start()
    tonk = {c["name"]: c for c in driver.fake.commands()}["tonk"]
    names = {o["name"] for o in tonk["options"]}
    assert "knock" in names and "drop" not in names
    knock = next(o for o in tonk["options"] if o["name"] == "knock")
    assert knock["name_localizations"]["sv-SE"] == "knacka"
    assert knock["name_localizations"]["da"] == "bank"
    assert "also called knocking" in knock["description"]
    assert "knacka" in knock["description_localizations"]["sv-SE"].lower()
    assert "bank" in knock["description_localizations"]["da"].lower()
    assert knock["name_localizations"]["fi"] == "koputa"
    assert "koputa" in knock["description_localizations"]["fi"].lower()
    assert knock["name_localizations"]["no"] == "bank"
    assert "bank" in knock["description_localizations"]["no"].lower()
