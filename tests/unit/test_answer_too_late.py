"""An interaction answered after Discord's 3 seconds (404 10062 Unknown interaction): the person
saw "This interaction failed" and no answer can reach them any more. A burst of them on an
overloaded bot (issue 49) is logged a line each, without a traceback, and no second answer is
tried; any other failure of the bot's is still logged with its traceback and answered."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.errors import UnansweredChange, answer_error


@dataclass
class _Response:
    sent: list[str] = field(default_factory=list)

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, **_: Any) -> None:
        self.sent.append(text)


@dataclass
class _Interaction:
    id: int = 1
    locale: discord.Locale = discord.Locale.american_english
    user: Any = field(default_factory=lambda: SimpleNamespace(id=7))
    guild_id: int = 2
    channel_id: int = 3
    command: Any = None
    data: dict[str, Any] = field(default_factory=lambda: {"custom_id": "kb:dubb:5:start"})
    response: _Response = field(default_factory=_Response)


def _unknown_interaction() -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response,  # type: ignore[arg-type]
                            {"code": 10062, "message": "Unknown interaction"})


def _raised(error: BaseException, cause: BaseException | None = None) -> BaseException:
    """``error`` as raised (from ``cause``, when given): with its traceback and chain."""
    try:
        if cause is None:
            raise error
        raise error from cause
    except BaseException as caught:
        return caught


@pytest.mark.parametrize("wrapped", [False, True])
async def test_an_interaction_answered_too_late_is_a_line_in_the_log_and_no_second_answer(
    caplog: pytest.LogCaptureFixture, wrapped: bool
) -> None:
    error = _raised(_unknown_interaction())
    if wrapped:
        # as a slash command's move raises it: its answer failed, the move was shown all the
        # same (``UnansweredChange``), and discord.py wrapped that
        error = _raised(UnansweredChange("table 5: the answer failed"), error)
        command = SimpleNamespace(name="start", qualified_name="dubb start")
        wrapper = app_commands.CommandInvokeError(command, error)  # type: ignore[arg-type]
        error = _raised(wrapper)
    interaction = _Interaction()
    with caplog.at_level(logging.INFO, logger="kortbord.errors"):
        await answer_error(interaction, error)  # type: ignore[arg-type]

    assert interaction.response.sent == []
    [record] = caplog.records
    assert record.levelno == logging.WARNING
    assert record.exc_info is None
    assert "too late" in record.getMessage() and "kb:dubb:5:start" in record.getMessage()


async def test_another_failure_is_logged_with_its_traceback_and_answered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    response = SimpleNamespace(status=404, reason="Not Found")
    error = _raised(discord.NotFound(response,  # type: ignore[arg-type]
                                     {"code": 10008, "message": "Unknown Message"}))
    interaction = _Interaction()
    with caplog.at_level(logging.INFO, logger="kortbord.errors"):
        await answer_error(interaction, error)  # type: ignore[arg-type]

    assert len(interaction.response.sent) == 1
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None


@pytest.mark.parametrize("made", [False, True])
async def test_a_failure_after_the_change_was_made_does_not_say_nothing_changed(
    caplog: pytest.LogCaptureFixture, made: bool
) -> None:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    error = _raised(discord.DiscordServerError(response,  # type: ignore[arg-type]
                                               {"code": 0, "message": "Service Unavailable"}))
    if made:
        error = _raised(UnansweredChange("table 5: the answer failed"), error)
    interaction = _Interaction()
    with caplog.at_level(logging.INFO, logger="kortbord.errors"):
        await answer_error(interaction, error)  # type: ignore[arg-type]

    [text] = interaction.response.sent
    assert ("Nothing was changed" in text) is not made
    assert ("went through" in text) is made
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
