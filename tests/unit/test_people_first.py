"""People first (issue 16): while a person's click or command is being answered, the bot's
background work — computers' moves, table edits — waits for it, one waiter per pass of the loop
afterwards, and never longer than its patience."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from itertools import pairwise
from types import SimpleNamespace
from typing import Any

import pytest

from bot.client import KortbordTree
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.publisher import TablePublisher
from bot.discord.routing import Route, Router
from bot.table.computers import ComputerPlayers
from bot.table.priority import PeopleFirst
from bot.table.timers import SystemClock
from tests.unit.test_publisher_order import Client, Hooks, publisher, showing


async def passes(n: int) -> None:
    """Let the loop run ``n`` passes."""
    for _ in range(n):
        await asyncio.sleep(0)


def person(people: PeopleFirst, answered: asyncio.Event, log: list[str]) -> asyncio.Task[None]:
    async def serve() -> None:
        people.serve()
        await answered.wait()
        log.append("answer")

    return asyncio.create_task(serve())


def background(people: PeopleFirst, name: str, log: list[str]) -> asyncio.Task[None]:
    async def work() -> None:
        await people.wait_turn()
        log.append(name)

    return asyncio.create_task(work())


async def test_background_work_goes_at_once_when_nobody_is_served() -> None:
    people, log = PeopleFirst(), []
    work = background(people, "computer", log)
    await passes(1)
    assert work.done() and log == ["computer"]


async def test_background_work_waits_for_the_person_being_answered() -> None:
    people, answered, log = PeopleFirst(), asyncio.Event(), []
    answer = person(people, answered, log)
    await passes(1)
    assert people.serving == 1
    work = background(people, "computer", log)
    await passes(20)
    assert log == []
    answered.set()
    await asyncio.wait_for(asyncio.gather(answer, work), 10)
    assert log == ["answer", "computer"]
    assert people.serving == 0


async def test_waiters_go_one_per_pass_in_the_order_they_came() -> None:
    people, answered, log = PeopleFirst(), asyncio.Event(), []
    answer = person(people, answered, log)
    await passes(1)
    works = [background(people, name, log) for name in ("first", "second", "third")]
    await passes(5)
    answered.set()
    went: list[int] = []
    while not all(w.done() for w in works):
        await passes(1)
        went.append(len(log))
        assert len(went) < 100
    # never two waiters let go in the same pass: they would run back to back in one long pass
    assert all(b - a <= 1 for a, b in pairwise(went))
    assert log == ["answer", "first", "second", "third"]
    await answer


async def test_a_waiter_goes_after_its_patience_while_people_keep_coming() -> None:
    people, answered, log = PeopleFirst(patience=0.01), asyncio.Event(), []
    answer = person(people, answered, log)
    await passes(1)
    await asyncio.wait_for(background(people, "computer", log), 10)
    assert log == ["computer"] and people.serving == 1
    answered.set()
    await answer


async def test_a_cancelled_waiter_leaves_the_line() -> None:
    people, answered, log = PeopleFirst(), asyncio.Event(), []
    answer = person(people, answered, log)
    await passes(1)
    gone, stays = background(people, "gone", log), background(people, "stays", log)
    await passes(1)
    gone.cancel()
    answered.set()
    await asyncio.wait_for(stays, 10)
    await answer
    assert gone.cancelled() and log == ["answer", "stays"]
    # nobody is left in the line: the next one goes at once
    later = background(people, "later", log)
    await passes(1)
    assert later.done()


async def test_a_task_is_counted_once() -> None:
    people = PeopleFirst()

    async def twice() -> int:
        people.serve()
        people.serve()
        return people.serving

    assert await asyncio.create_task(twice()) == 1
    await passes(1)
    assert people.serving == 0


class Held(PeopleFirst):
    """A ``PeopleFirst`` that holds whoever calls ``hold`` until ``open`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()
        self.open = asyncio.Event()

    async def hold(self) -> None:
        self.asked.set()
        await self.open.wait()


class Gate(Held):
    """A ``PeopleFirst`` whose line is held shut until ``open`` is set."""

    async def wait_turn(self) -> None:
        await self.hold()


class HeldStep(Held):
    """A ``PeopleFirst`` whose steps are held until ``open`` is set (its line is open)."""

    async def step(self) -> None:
        await self.hold()


async def a_table_edit_held_by(gate: Held,
                               while_held: Callable[[TablePublisher], None] = lambda _: None
                               ) -> None:
    """A table edit waits for ``gate`` to open; ``while_held`` looks at the publisher then."""
    client, hooks = Client(), Hooks()
    tables = publisher(client, hooks)
    tables._people = gate
    try:
        tables.publish(showing(1, "in play"))
        await asyncio.wait_for(gate.asked.wait(), 10)
        assert client.titles == []
        while_held(tables)
        gate.open.set()
        await hooks.shown(1)
    finally:
        await tables.close()
    assert client.titles == ["in play"]


async def a_computer_held_by(gate: Held, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer to move does not move until ``gate`` opens."""
    table = SimpleNamespace(status="playing", is_playing=True, channel_id=5, table_id=1,
                            engine=SimpleNamespace(to_move=-1))

    class Service:
        async def get(self, channel_id: int) -> Any:
            return table

    moved: list[int] = []

    async def move(self: ComputerPlayers, channel_id: int, snapshot: Any, computer: int,
                   thinking: Any = None) -> None:
        moved.append(computer)
        table.engine.to_move = 7

    monkeypatch.setattr(ComputerPlayers, "_move", move)
    computers = ComputerPlayers(Service(), None, SystemClock(), 0, gate)  # type: ignore[arg-type]
    computers.kick(table)  # type: ignore[arg-type]
    await asyncio.wait_for(gate.asked.wait(), 10)
    assert moved == []
    gate.open.set()
    await asyncio.wait_for(asyncio.gather(*computers._tasks.values()), 10)
    assert moved == [-1]


async def test_a_click_is_counted_while_it_is_handled() -> None:
    people = PeopleFirst()
    router = Router(people)
    seen: list[int] = []

    async def handler(interaction: Any, route: Route, values: list[str]) -> None:
        seen.append(people.serving)

    router.register("dubb", "hand", handler)
    interaction: Any = SimpleNamespace(message=None)
    await asyncio.create_task(router.dispatch(interaction, Route("dubb", 1, "hand"), []))
    await passes(1)
    assert seen == [1] and people.serving == 0


async def test_a_table_edit_waits_for_people() -> None:
    await a_table_edit_held_by(Gate())


async def test_a_computer_waits_for_people(monkeypatch: pytest.MonkeyPatch) -> None:
    await a_computer_held_by(Gate(), monkeypatch)


async def test_a_slash_command_is_counted_while_it_runs() -> None:
    people = PeopleFirst()
    interaction: Any = SimpleNamespace(client=SimpleNamespace(people=people))
    tree: Any = None

    async def command() -> int:
        assert await KortbordTree.interaction_check(tree, interaction)
        return people.serving

    assert await asyncio.create_task(command()) == 1
    await passes(1)
    assert people.serving == 0


# -- one heavy step per pass ----------------------------------------------------------------


def stepper(people: PeopleFirst, name: str, log: list[str], *, serve: bool = False
            ) -> asyncio.Task[None]:
    async def step() -> None:
        if serve:
            people.serve()
        await people.step()
        log.append(name)

    return asyncio.create_task(step())


async def test_a_step_goes_at_once_when_none_went_in_this_pass() -> None:
    people, log = PeopleFirst(), []
    work = stepper(people, "alone", log)
    await passes(1)
    assert work.done() and log == ["alone"]


async def test_steps_ready_together_go_one_per_pass_in_the_order_they_came() -> None:
    people, log = PeopleFirst(), []
    steps = [stepper(people, name, log) for name in ("first", "second", "third", "fourth")]
    went: list[int] = []
    while not all(s.done() for s in steps):
        await passes(1)
        went.append(len(log))
        assert len(went) < 100
    # the four became ready in one pass; run there, they would make one long pass
    assert all(b - a <= 1 for a, b in pairwise(went))
    assert log == ["first", "second", "third", "fourth"]


async def test_a_persons_step_goes_before_the_background_steps_waiting() -> None:
    people, log = PeopleFirst(), []
    steps = [stepper(people, name, log) for name in ("took the pass", "table", "computer")]
    steps.append(stepper(people, "person", log, serve=True))
    await asyncio.wait_for(asyncio.gather(*steps), 10)
    assert log == ["took the pass", "person", "table", "computer"]


async def test_timers_already_due_run_between_two_steps() -> None:
    people, log = PeopleFirst(), []
    loop = asyncio.get_running_loop()

    async def first() -> None:
        await people.step()
        log.append("first")
        # due at once: it runs in the next pass, before the next step
        loop.call_later(0, log.append, "timer")

    steps = [asyncio.create_task(first()), stepper(people, "second", log)]
    await asyncio.wait_for(asyncio.gather(*steps), 10)
    assert log == ["first", "timer", "second"]


async def test_a_cancelled_step_is_passed_over() -> None:
    people, log = PeopleFirst(), []
    steps = [stepper(people, name, log) for name in ("first", "gone", "third")]
    await passes(1)
    steps[1].cancel()
    await asyncio.wait_for(asyncio.gather(steps[0], steps[2]), 10)
    assert steps[1].cancelled() and log == ["first", "third"]
    # nobody is left waiting: a later step goes at once, in the pass after the last one
    await passes(2)
    later = stepper(people, "later", log)
    await passes(1)
    assert later.done()


async def test_a_table_edit_takes_its_step_once_granted() -> None:
    def granted(tables: TablePublisher) -> None:
        # granted already (no longer waiting for room), not drawn or sent yet
        assert tables._pacer.waiting == 0

    await a_table_edit_held_by(HeldStep(), granted)


async def test_a_computer_decides_and_moves_in_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    await a_computer_held_by(HeldStep(), monkeypatch)


async def test_a_click_reads_its_table_in_its_step() -> None:
    steps, read = HeldStep(), []

    class Service:
        async def get(self, channel_id: int) -> Any:
            read.append(channel_id)

    controller: Any = SimpleNamespace(people=steps, service=Service(),
                                      game=SimpleNamespace(kind="dubb", name="Dubb"))
    interaction: Any = SimpleNamespace(channel_id=5, guild_id=9)
    look = asyncio.create_task(TableController.table_for(controller, interaction))
    await asyncio.wait_for(steps.asked.wait(), 10)
    await passes(5)
    assert read == []
    steps.open.set()
    with pytest.raises(UserFacingError):
        await asyncio.wait_for(look, 10)
    assert read == [5]


async def test_a_background_step_goes_after_its_patience_while_people_keep_stepping() -> None:
    people, log, stop = PeopleFirst(patience=0.01), [], asyncio.Event()

    async def busy_person() -> None:
        people.serve()
        while not stop.is_set():
            await people.step()

    crowd = [asyncio.create_task(busy_person()) for _ in range(3)]
    await passes(3)
    try:
        await asyncio.wait_for(stepper(people, "table", log), 10)
    finally:
        stop.set()
        await asyncio.gather(*crowd)
    assert log == ["table"]
