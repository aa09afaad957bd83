"""What the driver gives back and raises: the bot's answer to an interaction, read live from
the fake, and the errors of a test that asked for what Discord would not do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.fakediscord.activities import ActivityInstance
from bot.fakediscord.model import StoredMessage
from bot.fakediscord.records import InteractionRecord

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

GUARD_TIMEOUT = 10.0
MessageRef = StoredMessage | int


class DriverError(AssertionError):
    """The test asked for something a Discord user could not do (unknown command, no such
    button, a message the user cannot see, ...)."""


class InteractionFailed(AssertionError):
    """Discord would show "This interaction failed": the bot did not answer in time."""


@dataclass
class InteractionResult:
    """The bot's answer to one interaction; properties read the fake's live state."""

    record: InteractionRecord
    fake: FakeCore

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def type(self) -> int | None:
        """The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8, 9, 12
        launch the Activity)."""
        return self.record.callback_type

    @property
    def failed(self) -> bool:
        return self.record.failed

    @property
    def message(self) -> StoredMessage | None:
        """The response message: the new one (4/5) or the updated component message (6/7)."""
        if self.record.original_id is None:
            return None
        return self.fake.messages[self.record.original_id]

    @property
    def content(self) -> str:
        """The answer's words: its content, or a layout's Text Displays (a hand panel)."""
        message = self.message
        return message.shown if message is not None else ""

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return message is not None and message.ephemeral

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.messages[i] for i in self.record.followup_ids]

    @property
    def activity_instance(self) -> ActivityInstance | None:
        """The Activity instance a LAUNCH_ACTIVITY (12) answer opened or joined."""
        instance_id = self.record.activity_instance_id
        if instance_id is None:
            return None
        return self.fake.activities.instances.get(instance_id)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.record.choices or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    async def wait_followups(
        self, count: int = 1, within: float = GUARD_TIMEOUT
    ) -> list[StoredMessage]:
        await self.fake.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            within,
            f"{count} follow-up(s) to {self.record.describe()}",
        )
        return self.followups

    async def wait_edited(self, within: float = GUARD_TIMEOUT) -> StoredMessage:
        """Wait until the response message changes from the version seen now."""
        message = self.message
        if message is None:
            raise DriverError(f"{self.record.describe()} has no response message")
        version = message.version
        await self.fake.wait_for(
            lambda: message.version > version, within, f"an edit of message {message.id}"
        )
        return message

