"""Issue 16: a command that waited long before the bot got to it is acknowledged before its
database write, so it never misses Discord's 3-second deadline; one in time costs nothing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.answers import LATE_SECONDS, defer_if_late


@dataclass
class _Response:
    deferred: list[dict[str, Any]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.deferred)

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)


@dataclass
class _Interaction:
    created_at: dt.datetime
    response: _Response = field(default_factory=_Response)


async def test_a_late_interaction_is_deferred_once_and_a_prompt_one_not_at_all() -> None:
    now = discord.utils.utcnow()
    prompt = _Interaction(now)
    late = _Interaction(now - dt.timedelta(seconds=LATE_SECONDS + 1))
    await defer_if_late(prompt)  # type: ignore[arg-type]
    await defer_if_late(late)  # type: ignore[arg-type]
    await defer_if_late(late)  # type: ignore[arg-type]
    assert prompt.response.deferred == []
    assert late.response.deferred == [{"ephemeral": True, "thinking": True}]
