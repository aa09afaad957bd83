"""The games this bot plays, by stored kind name."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.kinds import DubbKind, GameKind, TonkKind

GAME_KINDS: Mapping[str, GameKind] = {kind.kind: kind for kind in (DubbKind(), TonkKind())}
