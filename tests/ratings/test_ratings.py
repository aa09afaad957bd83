"""Skill ratings (issue 33) through the table service: our numbers are openskill's own for
hand-checked games, who is rated and who is not, and ``rerate`` rebuilds every rating from the
move log exactly."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from bot.games import tonk
from bot.games.registry import GAMES
from bot.ops.rerate import rerate
from bot.ratings import model
from bot.ratings.strengths import UNRATED, seating_strengths
from bot.storage import Store
from bot.table import TableService
from tests.store.conftest import FakeClock
from tests.store.helpers import GUILD
from tests.store.test_dubb_table import play_dubb, start_dubb
from tests.store.test_tonk_table import start_tonk
from tests.store.toy import TOY, Add

LIBRARY = PlackettLuce()
"""openskill with its defaults, apart from ours: the expected numbers come from here."""


def service_of(store: Store, clock: FakeClock, games: Mapping[str, Any] = GAMES,
               seed: int = 1) -> TableService:
    rng = random.Random(seed)
    return TableService(store, games, clock=clock, seed_source=lambda: rng.randrange(2**63))


def expected(places: Sequence[Sequence[int]]) -> dict[int, tuple[float, float]]:
    """Fresh players placed ``places``, rated by openskill directly."""
    players = [p for group in places for p in group]
    ranks = [i for i, group in enumerate(places) for _ in group]
    teams = LIBRARY.rate([[LIBRARY.rating()] for _ in players], ranks=ranks)
    return {p: (t[0].mu, t[0].sigma) for p, t in zip(players, teams, strict=True)}


async def stored(store: Store, kind: str) -> dict[int, tuple[float, float]]:
    return {r.player_id: (r.mu, r.sigma) for r in await store.ratings(GUILD, kind, 1)}


async def ranking(store: Store, table_id: int) -> list[int]:
    return next(e["ranking"] for m in await store.moves(table_id) for e in m.events
                if e["type"] == "game_over")


async def test_a_two_player_dubb_game_is_rated_as_openskill_rates_it(
        store: Store, clock: FakeClock) -> None:
    service = service_of(store, clock)
    table = await start_dubb(service, 1, (11, 12))
    await play_dubb(service, 1, random.Random(5))
    winner, loser = await ranking(store, table)
    assert await stored(store, "dubb") == expected([[winner], [loser]])
    changes = await store.rating_changes(table_id=table)
    assert [(c.player_id, c.place) for c in changes] == [(winner, 1), (loser, 2)]
    assert all((c.mu_before, c.sigma_before) == (25.0, 25 / 3) for c in changes)
    board = await store.ratings(GUILD, "dubb", 1)
    assert [(r.player_id, r.games, r.firsts, r.lasts) for r in board] == [
        (winner, 1, 1, 0), (loser, 1, 0, 1)]
    # shown on the 1000 + 20 x ordinal scale: the winner gains, the loser drops
    assert model.shown(board[0].ordinal) > 1000 > model.shown(board[1].ordinal)


async def test_a_six_player_dubb_game_ranks_its_leaver_last(
        store: Store, clock: FakeClock) -> None:
    service = service_of(store, clock)
    players = (21, 22, 23, 24, 25, 26)
    table = await start_dubb(service, 1, players)
    await service.leave(1, 23)
    await play_dubb(service, 1, random.Random(7))
    order = await ranking(store, table)
    assert order[-1] == 23 and sorted(order) == list(players)
    assert await stored(store, "dubb") == expected([[p] for p in order])
    changes = {c.player_id: c.place for c in await store.rating_changes(table_id=table)}
    assert changes[23] == 6


async def test_a_tonk_session_with_a_tie_is_rated_with_the_tie(
        store: Store, clock: FakeClock) -> None:
    """Stake 1, three players: after one hand won by one player, the two others paid the
    same and tie for second (the session ends when the host stops the table)."""
    service = service_of(store, clock, seed=1)  # a deal whose first hand ends 2, -1, -1
    table = await start_tonk(service, 1, (31, 32, 33), {"stake": 1})
    rng = random.Random(2)
    while (snap := await service.get(1)) is not None and snap.engine.to_move is not None:
        engine = snap.engine
        moves = engine.legal_moves(engine.to_move)
        discards = [m for m in moves if isinstance(m, tonk.Discard)]
        move = rng.choice(discards) if discards and rng.random() < 0.7 else rng.choice(moves)
        await service.apply(1, engine.to_move, move, snap.counter)
    nets = {b.player_id: b.net for b in await store.balances(GUILD, "tonk", table_id=table)}
    winner = max(nets, key=lambda p: nets[p])
    others = sorted(p for p in nets if p != winner)
    assert nets[others[0]] == nets[others[1]] < 0, nets
    await service.cancel(1, 31, may_manage=False)
    assert await stored(store, "tonk") == expected([[winner], others])
    changes = {c.player_id: c.place for c in await store.rating_changes(table_id=table)}
    assert changes == {winner: 1, others[0]: 2, others[1]: 2}


async def test_unrated_tables_and_tables_with_computers_change_no_rating(
        store: Store, clock: FakeClock) -> None:
    service = service_of(store, clock)
    snap = await service.open_lobby(GUILD, 1, "dubb", 41, "P41", {}, rated=False)
    await service.join(1, 42, "P42")
    await service.start(1, 41)
    await play_dubb(service, 1, random.Random(1))
    await service.open_lobby(GUILD, 2, "dubb", 43, "P43", {})
    await service.add_computer(2, 43, -1, "Computer")
    await service.start(2, 43)
    await play_dubb(service, 2, random.Random(1))
    assert (await store.table(snap.table_id)).status == "finished"
    assert await store.ratings(GUILD, "dubb", 1) == []
    assert await seating_strengths(store, GUILD, "dubb", [41, 43]) == {41: UNRATED, 43: UNRATED}


async def test_a_dubb_game_stopped_midway_is_not_rated(store: Store, clock: FakeClock) -> None:
    service = service_of(store, clock)
    await start_dubb(service, 1, (51, 52, 53))
    await service.leave(1, 52)
    await service.cancel(1, 51, may_manage=False)
    assert await store.ratings(GUILD, "dubb", 1) == []


# -- rerate --------------------------------------------------------------------------------


class ToyStandings:
    """The test game's tables rank by net chips, leavers last (as a session of hands does)."""

    def places(self, seats: Sequence[int], events: Sequence[Mapping[str, Any]],
               finished: bool) -> list[list[int]] | None:
        net: dict[int, int] = defaultdict(int)
        gone = [int(e["player"]) for e in events if e["type"] == "Left"]
        for e in events:
            if e["type"] == "HandEnded":
                for payer, payee, amount, _ in e["payments"]:
                    net[payer] -= amount
                    net[payee] += amount
        stayed = sorted({p for p in net if p not in gone}, key=lambda p: -net[p])
        places: list[list[int]] = []
        for p in stayed:
            if places and net[places[-1][0]] == net[p]:
                places[-1].append(p)
            else:
                places.append([p])
        return places + [[p] for p in reversed(gone)]


RATED_TOY = dataclasses.replace(TOY, standings=ToyStandings())


async def snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in ("ratings", "rating_changes", "rated_tables"):
        rows = await store.db.fetch(f"SELECT * FROM {table}")
        out[table] = sorted(tuple(r) for r in rows)
    return out


async def test_rerate_rebuilds_every_rating_exactly(
        store: Store, clock: FakeClock, backend: str) -> None:
    """1,000 rated games (200 on PostgreSQL, whose round trips cost more) among twelve
    players on two servers, with leavers, unrated tables and a new season midway; ``rerate``
    into empty tables gives every number again, bit for bit, and so does a second one."""
    games = {**GAMES, "toy": RATED_TOY}
    service = service_of(store, clock, games)
    rng = random.Random(33)
    count = 1000 if backend == "sqlite" else 200
    for n in range(count):
        guild = GUILD + n % 2
        players = rng.sample(range(1, 13), rng.randint(2, 5))
        snap = await service.open_lobby(guild, 1, "toy", players[0], f"P{players[0]}",
                                        {"hands": 1 + n % 3}, rated=n % 17 != 0)
        for p in players[1:]:
            await service.join(1, p, f"P{p}")
        await service.start(1, players[0])
        if n % 9 == 0:
            await service.leave(1, players[-1])
        while (s := await service.get(1)) is not None:
            await service.apply(1, s.engine.to_move, Add(rng.randint(1, 3)), s.counter)
        assert (await store.table(snap.table_id)).status == "finished"
        clock.advance(60)
        if n == count // 2:
            await store.start_season(GUILD, "toy", by_id=1, now=clock())
            clock.advance(1)
    before = await snapshot(store)
    assert len(before["rated_tables"]) == count - len(range(0, count, 17))
    assert {r[2] for r in before["ratings"]} == {1, 2}
    assert await rerate(store, games) == len(before["rated_tables"])
    assert await snapshot(store) == before
    await rerate(store, games)
    assert await snapshot(store) == before
