"""The games this bot plays. Adding a game is its package plus one line here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from bot.gamekit.contract import GameSpec
from bot.games.dubb.spec import SPEC as DUBB
from bot.games.tonk.spec import SPEC as TONK


class Registry(Mapping[str, GameSpec]):
    """Game specs by kind, in the order they were registered (the order help lists them)."""

    def __init__(self, *specs: GameSpec) -> None:
        self._specs: dict[str, GameSpec] = {}
        for spec in specs:
            if spec.kind in self._specs:
                raise ValueError(f"two games registered as {spec.kind!r}")
            self._specs[spec.kind] = spec

    def __getitem__(self, kind: str) -> GameSpec:
        return self._specs[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def with_game(self, spec: GameSpec) -> Registry:
        """This registry plus one more game (tests register their own)."""
        return Registry(*self._specs.values(), spec)


GAMES = Registry(DUBB, TONK)
