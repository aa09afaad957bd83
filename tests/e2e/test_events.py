"""Events (tournaments across tables) end to end, through the fake Discord: registration by
button, a thread per table created through Discord's API, rounds seated by the bot, no-shows
removed by the turn timer and leavers scoring last, standings after each round, final standings
with tie-breaks, and the event in ``/… history`` (docs/events.md).

The tables are played at machine speed: people who play by clicking their hand panels in the
tables' threads, a person who never moves (the turn timer, on a clock the test moves, plays
for them until it removes them), one who leaves, and computer players with no pause.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest

from bot.fakediscord import Channel, Driver, FakeDiscord, User
from bot.fakediscord.model import (
    BOT_DEFAULT,
    CREATE_PUBLIC_THREADS,
    EVERYONE_DEFAULT,
    StoredMessage,
)
from bot.games.registry import GAMES
from bot.storage import EventRecord, Store
from tests.e2e.automation import start_clocked
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.table_card import card
from tests.e2e.table_players import Player
from tests.fakeclock import FakeClock

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

TURN = 30
WITHIN = 60.0


def final_standings(driver: Driver, channel: Channel) -> StoredMessage | None:
    for message in driver.channel_messages(channel):
        if "final standings" in str((card(message) or {}).get("title", "")):
            return message
    return None


async def open_event(driver: Driver, channel: Channel, host: User, game: str,
                     options: dict[str, object]) -> StoredMessage:
    answer = await driver.slash(host, channel, f"{game} event new", options)
    assert "opened below" in answer.content, answer.content
    return await driver.wait_for_message(channel, lambda m: m.button("Register") is not None)


async def event_of(runner: BotRunner, guild_id: int, kind: str) -> EventRecord:
    assert runner.bot is not None
    events = await runner.bot.store.events.of_guild(guild_id, kind, limit=1)
    return events[0]


async def table_to_move(runner: BotRunner, guild_id: int, user: User) -> int | None:
    """The channel of the table where ``user`` is to move, if any."""
    assert runner.bot is not None
    service = runner.bot.service
    record = await service.table_of_player(guild_id, user.id)
    if record is None:
        return None
    snapshot = await service.get(record.channel_id)
    if snapshot is None or snapshot.engine is None or snapshot.engine.is_over:
        return None
    return record.channel_id if snapshot.engine.to_move == user.id else None


async def play_out(runner: BotRunner, driver: Driver, fake: FakeDiscord, clock: FakeClock,
                   world: World, channel: Channel, *, no_show: User | None = None,
                   leaver: User | None = None, people: Sequence[User] = (),
                   game: str = "dubb") -> StoredMessage:
    """Until the final standings are posted: ``people`` play their turns by clicking what
    they see in their table's thread, the no-show's turns run out on the clock, the leaver
    leaves the first table they are seated at, computers play everything else."""
    left = False
    while (done := final_standings(driver, channel)) is None:
        seen = len(fake.log)
        if await play_a_turn(runner, driver, fake, world, people, game):
            continue
        if leaver is not None and not left:
            assert runner.bot is not None
            record = await runner.bot.service.table_of_player(world.guild.id, leaver.id)
            if record is not None and record.status == "playing":
                answer = await driver.slash(leaver, fake.channels[record.channel_id],
                                            f"{game} leave")
                assert "left" in answer.content, answer.content
                left = True
                continue
        if no_show is not None and await table_to_move(runner, world.guild.id, no_show):
            clock.advance(TURN)
            await driver.wait_for(lambda s=seen: len(fake.log) > s, within=WITHIN,
                                  what="the turn timer to move")
            continue
        await driver.wait_for(lambda s=seen: len(fake.log) > s or final_standings(
            driver, channel) is not None, within=WITHIN, what="the event to move on")
    return done


async def play_a_turn(runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World,
                      people: Sequence[User], game: str) -> bool:
    """One of ``people`` whose turn it is makes a move from their hand panel; whether one
    was acknowledged."""
    for person in people:
        where = await table_to_move(runner, world.guild.id, person)
        if where is None:
            continue
        player = Player(driver, fake.channels[where], game, {person.id: person})
        table = player.table()
        if table is None or table.button("Your hand") is None:
            continue
        panel = await driver.click(person, table, "Your hand")
        if panel.message is not None and panel.ephemeral and await player._choose(
                person, panel.message):
            return True
    return False


def expected_lines(store_tables: Sequence[tuple[list[int], list[list[int]], set[int]]],
                   names: dict[int, str], order: list[int], seats: int) -> list[str]:
    """The standings as docs/events.md computes them, from each table's seating, its game's
    finishing order (groups of players tied for a place) and who left: points
    ``seats - place`` for those who stayed, 0 for the rest; then Buchholz, then wins."""
    points: dict[int, int] = dict.fromkeys(order, 0)
    firsts: list[list[int]] = []
    for seated, ranking, gone in store_tables:
        got: dict[int, int] = {}
        place = 1
        for group in ranking:
            stayed = [p for p in group if p in seated and p not in gone]
            got.update({p: seats - place for p in stayed})
            if place == 1:
                firsts.append(stayed)
            place += len(stayed)
        got.update({p: 0 for p in seated if p not in got})
        for p, n in got.items():
            points[p] += n
    buchholz = dict.fromkeys(order, 0)
    wins = dict.fromkeys(order, 0)
    for seated, _, _ in store_tables:
        for p in seated:
            buchholz[p] += sum(points[o] for o in seated if o != p)
    for first in firsts:
        for p in first:
            wins[p] += 1
    withdrawn = {p for _, _, gone in store_tables for p in gone}
    key = {p: (-points[p], -buchholz[p], -wins[p]) for p in order}
    ranked = sorted(order, key=lambda p: (key[p], order.index(p)))
    lines = []
    rank = 0
    for i, p in enumerate(ranked):
        if i == 0 or key[ranked[i - 1]] != key[p]:
            rank = i + 1
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
        line = (f"**{rank}{suffix}** {names[p]} — {points[p]} point{'s' * (points[p] != 1)} · "
                f"Buchholz {buchholz[p]} · {wins[p]} win{'s' * (wins[p] != 1)}")
        lines.append(line + (" · withdrawn" if p in withdrawn else ""))
    return lines


async def dubb_outcomes(store: Store, event_id: int
                        ) -> list[tuple[int, list[int], list[int], set[int]]]:
    """Each table of the event: its round, seating, the game's ranking and who left, read
    from the stored games (the finished engine's result)."""
    out = []
    for table in await store.events.tables(event_id):
        ranking: list[int] = []
        gone: set[int] = set(table.players)
        if table.table_id is not None:
            state = await store.table_state(table.table_id)
            assert state is not None
            engine = GAMES["dubb"].load_engine(json.loads(state))
            result = engine.result  # type: ignore[attr-defined]
            assert result is not None, "every table of the event played its game to the end"
            ranking = list(result.ranking)
            gone = set(result.leavers) | (set(table.players) - set(engine.names))
        out.append((table.round, list(table.players), ranking, gone))
    return out


async def test_a_dubb_event_of_nine_over_three_rounds_with_a_no_show_and_a_leaver(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    clock = await start_clocked(bot_runner, seed=33)
    host = driver.add_user("Host Hedvig", admin=True)
    nils, lea = driver.add_user("Nils"), driver.add_user("Lea")
    people = [world.anna, world.bo, world.cem]
    message = await open_event(driver, world.channel, host, "dubb",
                               {"rounds": 3, "seats": 3, "computers": 4, "turn_time": TURN})
    for person in (*people, nils, lea):
        await driver.click(person, message, "Register")
    again = await driver.click(nils, driver.latest(world.channel) or message, "Register")
    assert "already registered" in again.content
    registered = fake.messages[message.id]
    assert "Registered (9)" in json.dumps(registered.components)
    started = await driver.click(host, registered, "Start")
    assert not started.failed

    done = await play_out(bot_runner, driver, fake, clock, world, world.channel,
                          no_show=nils, leaver=lea, people=people)

    # the event's message says it is over once the last standings are noted as posted
    await driver.wait_for(lambda: "The event is over" in json.dumps(
        fake.messages[message.id].components), what="the event's message to say it is over")
    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert event.status == "finished" and event.round == 3 and event.announced == 3
    tables = await dubb_outcomes(store, event.id)
    by_round = {r: [t for t in tables if t[0] == r] for r in (1, 2, 3)}
    # 9 players: three tables of three; then 7 (the two withdrawn): tables of 3, 2 and 2
    assert [len(t[1]) for t in by_round[1]] == [3, 3, 3]
    assert [len(t[1]) for t in by_round[2]] == [3, 2, 2] == [len(t[1]) for t in by_round[3]]
    later = {p for r in (2, 3) for t in by_round[r] for p in t[1]}
    assert nils.id not in later and lea.id not in later
    for _, seated, _, gone in by_round[1]:
        if nils.id in seated:
            assert nils.id in gone, "the no-show was removed by the turn timer"
        if lea.id in seated:
            assert lea.id in gone
    # every thread was made by the bot through Discord's API, in the event's channel
    threads = [t.thread_id for t in await store.events.tables(event.id)]
    assert all(fake.channels[t].parent_id == world.channel.id for t in threads if t)
    assert len({t for t in threads if t}) == 9

    entrants = await store.events.entrants(event.id)
    names = {e.player_id: (f"🤖 {e.name}" if e.is_computer else e.name) for e in entrants}
    # the people played at every round's tables, from their hand panels in the threads
    for person in people:
        assert all(any(person.id in t[1] for t in by_round[r]) for r in (1, 2, 3))
    assert any(m.ephemeral_for == world.anna.id
               for t in threads if t for m in fake.channel_history(t))
    expected = expected_lines([(s, [[p] for p in r], g) for _, s, r, g in tables], names,
                              [e.player_id for e in entrants], seats=3)
    shown = str((card(done) or {})["description"]).splitlines()
    assert shown == expected
    assert any(nils.id == e.player_id for e in entrants)
    # standings after rounds 1 and 2 were posted too
    titles = [str(c.get("title")) for m in driver.channel_messages(world.channel)
              if (c := card(m))]
    assert any("standings after round 1" in t for t in titles)
    assert any("standings after round 2" in t for t in titles)

    history = await driver.slash(nils, world.channel, "dubb history")
    assert history.message is not None
    assert re.search(rf"Event #{event.id}\*\* · <t:\d+:R> · won by",
                     json.dumps(history.message.components, ensure_ascii=False))


async def test_an_event_whose_tables_the_bot_may_not_thread_says_so_and_waits(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord
) -> None:
    # neither the bot's role nor @everyone grants Create Public Threads
    guild = driver.add_guild("No threads", bot_permissions=BOT_DEFAULT & ~CREATE_PUBLIC_THREADS,
                             everyone_permissions=EVERYONE_DEFAULT & ~CREATE_PUBLIC_THREADS)
    channel = driver.add_channel(guild, "games")
    host = driver.add_user("Host Hedvig", admin=True)
    await bot_runner.start()
    message = await open_event(driver, channel, host, "dubb", {"computers": 4, "seats": 2})
    refused = await driver.click(host, message, "Start")
    assert "Create Public Threads" in refused.content
    assert fake.guilds[guild.id].threads() == []
    event = await event_of(bot_runner, guild.id, "dubb")
    assert event.status == "registering"


async def test_a_tonk_event_of_two_rounds_plays_its_hands_and_scores_by_chips(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Six computer players, tables of three, two hands a round: the event deals each table's
    second hand itself and closes the table after it; places go by net chips at the table."""
    clock = await start_clocked(bot_runner, seed=7)
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host, "tonk",
                               {"rounds": 2, "seats": 3, "hands": 2, "computers": 6,
                                "turn_time": TURN})
    await driver.click(host, message, "Start")
    done = await play_out(bot_runner, driver, fake, clock, world, world.channel, game="tonk")
    await driver.wait_for(lambda: "The event is over" in json.dumps(
        fake.messages[message.id].components), what="the event's message to say it is over")

    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    event = await event_of(bot_runner, world.guild.id, "tonk")
    assert (event.status, event.round, event.announced) == ("finished", 2, 2)
    tables = await store.events.tables(event.id)
    assert [(t.round, len(t.players)) for t in tables] == [(1, 3), (1, 3), (2, 3), (2, 3)]
    outcomes = []
    for table in tables:
        assert table.table_id is not None
        record = await store.table(table.table_id)
        state = await store.table_state(table.table_id)
        assert record is not None and state is not None
        engine = GAMES["tonk"].load_engine(json.loads(state))
        assert engine.deals_done == 2, "each table played the round's two hands"
        assert record.closed_note == {"why": "round"}
        nets = {b.player_id: b.net for b in await store.balances(
            world.guild.id, "tonk", table_id=table.table_id)}
        # by net chips, best first; equal nets share a place (the test's own reading)
        levels = sorted({nets.get(p, 0) for p in table.players}, reverse=True)
        ranking = [[p for p in table.players if nets.get(p, 0) == level] for level in levels]
        outcomes.append((list(table.players), ranking, set(), nets))
    entrants = await store.events.entrants(event.id)
    names = {e.player_id: f"🤖 {e.name}" for e in entrants}
    order = [e.player_id for e in entrants]
    expected = expected_lines([(s, r, g) for s, r, g, _ in outcomes], names, order, seats=3)
    assert str((card(done) or {})["description"]).splitlines() == expected
    results = [t.result for t in tables]
    for (seated, _, _, nets), result in zip(outcomes, results, strict=True):
        assert result is not None
        by_player = {r["player"]: r for r in result}
        for p in seated:
            better = sum(1 for o in seated if nets.get(o, 0) > nets.get(p, 0))
            assert by_player[p]["place"] == better + 1
            assert by_player[p]["points"] == 3 - (better + 1)


async def test_tables_the_bot_cannot_thread_wait_for_the_permission_and_continue(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord
) -> None:
    """The tables go in another channel, where the bot cannot start threads: it says so in
    the event's channel (Discord's 403 50013) and waits; once the server grants Create Public
    Threads, the host's **Continue** opens them and the event plays to its end."""
    guild = driver.add_guild("Threads later",
                             bot_permissions=BOT_DEFAULT & ~CREATE_PUBLIC_THREADS,
                             everyone_permissions=EVERYONE_DEFAULT & ~CREATE_PUBLIC_THREADS)
    lobby = driver.add_channel(guild, "lobby")
    tables = driver.add_channel(guild, "tables")
    host = driver.add_user("Host Hedvig", admin=True)
    driver.allow_rest_errors()  # the refused thread is the point
    clock = await start_clocked(bot_runner, seed=5)
    message = await open_event(driver, lobby, host, "dubb",
                               {"rounds": 1, "seats": 2, "computers": 4, "channel": tables})
    await driver.click(host, message, "Start")
    refused = await driver.wait_for_message(lobby, lambda m: "Create Public Threads" in m.content)
    assert f"<#{tables.id}>" in refused.content and "Continue" in refused.content
    assert fake.guilds[guild.id].threads() == []
    assert bot_runner.bot is not None
    for role in fake.guilds[guild.id].roles.values():
        if role.bot_id is not None:
            role.permissions |= CREATE_PUBLIC_THREADS
    running = fake.messages[message.id]
    assert [b.get("label") for b in running.buttons()] == ["Standings", "Continue", "Cancel"]
    await driver.click(host, running, "Continue")
    done = await play_out(bot_runner, driver, fake, clock, World(
        guild=guild, channel=lobby, anna=host, bo=host, cem=host, mod=host), lobby)
    assert "final standings" in str((card(done) or {})["title"])
    threads = fake.guilds[guild.id].threads()
    assert len(threads) == 2 and all(t.parent_id == tables.id for t in threads)


# what a modified client can send: each (game, options) with what the answer says; "lobby"
# where the lobby's own command (``/<game> start``) takes the same option and must say the same
REFUSED: list[tuple[str, dict[str, int], str]] = [
    ("dubb", {"rounds": 0}, "The number of rounds must be from 1 to 10. Nothing was changed."),
    ("tonk", {"rounds": 99}, "The number of rounds must be from 1 to 10. Nothing was changed."),
    ("tonk", {"hands": 0},
     "The number of hands per round must be from 1 to 20. Nothing was changed."),
    ("tonk", {"hands": 21},
     "The number of hands per round must be from 1 to 20. Nothing was changed."),
    ("dubb", {"seats": 0}, "A Dubb table seats 2 to"),
    ("dubb", {"turn_time": -5}, "lobby"),
    ("dubb", {"turn_time": 5}, "lobby"),
    ("tonk", {"turn_time": 9}, "lobby"),
    ("tonk", {"turn_time": 3601}, "lobby"),
]


async def test_event_options_a_modified_client_sends_out_of_range_are_refused_and_store_nothing(
    bot: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog
) -> None:
    """Discord's client keeps ``/<game> event new``'s options in their declared ranges; a
    modified one can send anything. Each value gets the short private answer the other
    commands give (the lobby's own, word for word, for a turn time), in the sender's
    language, and no event is stored."""
    assert bot.bot is not None
    host = driver.add_user("Host Hedvig", admin=True)
    svensk = driver.add_user("Värd Vera", admin=True, locale="sv-SE")
    elsewhere = driver.add_channel(world.guild, "lobbies")

    async def nothing_stored() -> None:
        assert bot.bot is not None
        for kind in ("dubb", "tonk"):
            assert await bot.bot.store.events.of_guild(world.guild.id, kind, limit=1) == []
        assert driver.channel_messages(world.channel) == []

    for game, options, says in REFUSED:
        answer = await driver.slash(host, world.channel, f"{game} event new", options,
                                    validate=False)
        assert answer.ephemeral, (game, options)
        if says == "lobby":
            lobby = await driver.slash(host, elsewhere, f"{game} start", options,
                                       validate=False)
            assert lobby.ephemeral and "turn time" in lobby.content.lower(), lobby.content
            assert answer.content == lobby.content, (game, options)
            assert await bot.bot.service.get(elsewhere.id) is None
        else:
            assert answer.content.startswith(says), (game, options, answer.content)
        assert "went wrong" not in answer.content, (game, options)
        await nothing_stored()

    # in the sender's language
    rounds = await driver.slash(svensk, world.channel, "dubb event new", {"rounds": 0},
                                validate=False)
    assert rounds.ephemeral
    assert rounds.content == "Antalet omgångar måste vara från 1 till 10. Inget ändrades."
    turn = await driver.slash(svensk, world.channel, "tonk event new", {"turn_time": 5},
                              validate=False)
    lobby = await driver.slash(svensk, elsewhere, "tonk start", {"turn_time": 5})
    assert turn.ephemeral and turn.content == lobby.content and "Inget ändrades" in turn.content
    await nothing_stored()
    assert bot_errors.records == []
