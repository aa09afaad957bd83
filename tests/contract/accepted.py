"""What Discord's servers accept beyond what its published API description says: the one list
of exceptions the contract check (``tests/contract/discord_spec.py``) makes.

Each entry widens one named schema of ``openapi.json`` (``components/schemas/<name>``) to
``anyOf`` [the description's schema, the extra shape], and says why. Add an entry only for what
Discord is documented or known to accept, never to let a bot's mistake through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Accepted:
    schema: str
    also: dict[str, Any]
    reason: str


ACCEPTED: tuple[Accepted, ...] = (
    Accepted(
        schema="SnowflakeType",
        also={"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        reason=(
            "Discord reads a snowflake sent as a JSON integer as it reads the string (Reference, "
            "'Snowflakes': the API sends them as strings only because JavaScript's numbers "
            "cannot hold 64 bits; it parses either), and its own 'Uploading Files' example "
            "sends the attachments' placeholder ids as integers (\"id\": 0). discord.py sends "
            "integers in allowed_mentions.users/roles, message_reference and those placeholder "
            "ids, and every bot built on it works: the description only lists the string form."
        ),
    ),
)


@dataclass(frozen=True)
class Undescribed:
    method: str
    route: str
    reason: str


UNDESCRIBED: tuple[Undescribed, ...] = (
    Undescribed(
        method="POST",
        route="/oauth2/token",
        reason=(
            "Discord's OAuth2 token endpoint (docs, 'OAuth2': 'Token URL "
            "https://discord.com/api/oauth2/token'). The description names it only as the "
            "OAuth2 security scheme's tokenUrl/refreshUrl, not as a path: its form-encoded "
            "body and RFC 6749 answers are not JSON operations. An Activity's backend "
            "exchanges the SDK's code there (the fake checks it in bot/fakediscord/oauth.py)."
        ),
    ),
)
"""Routes Discord serves that the description has no path for, each with its reason: the
contract check lets them through (nothing in their bodies is checked against it)."""
