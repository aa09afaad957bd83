"""Activity sessions: who a page acts for, in which instance and channel, until when.

A session is a signed token rather than a row: its fields, and an HMAC-SHA256 of them under a
key derived from the client secret. Any process of the bot (shards on PostgreSQL) can read a
session another process issued, with nothing stored or shared but the secret every process
has; a page cannot change a field (the person, the channel) without the key, and a session
says when it ends.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass

from pydantic import SecretStr

LIFETIME = 2 * 60 * 60
"""Seconds a session lasts; then the page signs in again (Discord's access tokens last a week,
an Activity a game or two)."""
_PURPOSE = b"kortbord activity session v1"


class SessionError(Exception):
    """The token is not a session of this bot, or it has expired."""


@dataclass(frozen=True, slots=True)
class Session:
    user_id: int
    name: str
    instance_id: str
    channel_id: int
    guild_id: int | None
    lang: str
    expires_at: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Issues and reads sessions; ``clock`` gives Unix seconds."""

    def __init__(self, client_secret: SecretStr, clock: Callable[[], float]) -> None:
        # a key of its own, so a session's signature says nothing about the secret itself
        self._key = hmac.new(client_secret.get_secret_value().encode(), _PURPOSE,
                             hashlib.sha256).digest()
        self._clock = clock

    def _sign(self, body: bytes) -> bytes:
        return hmac.new(self._key, body, hashlib.sha256).digest()

    def issue(self, user_id: int, name: str, instance_id: str, channel_id: int,
              guild_id: int | None, lang: str) -> tuple[Session, str]:
        session = Session(user_id, name, instance_id, channel_id, guild_id, lang,
                          int(self._clock()) + LIFETIME)
        body = json.dumps(asdict(session), separators=(",", ":")).encode()
        return session, f"{_b64(body)}.{_b64(self._sign(body))}"

    def read(self, token: str) -> Session:
        """The session ``token`` carries; ``SessionError`` for a forged, damaged or expired
        one."""
        body_text, _, signature = token.partition(".")
        try:
            body, mac = _unb64(body_text), _unb64(signature)
        except ValueError:
            raise SessionError("not a session") from None
        if not hmac.compare_digest(mac, self._sign(body)):
            raise SessionError("not a session")
        try:
            session = Session(**json.loads(body))
        except (ValueError, TypeError):
            raise SessionError("not a session") from None
        if self.expired(session):
            raise SessionError("expired")
        return session

    def expired(self, session: Session) -> bool:
        return session.expires_at <= self._clock()
