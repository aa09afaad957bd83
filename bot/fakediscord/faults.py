"""Injected faults: rules that answer matching REST requests with an error (429, 500, ...)
instead of handling them, before the request has any effect."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class FaultRule:
    """Answers matching requests with ``status`` instead of handling them (before any effect)."""

    status: int
    rate: float = 1.0
    remaining: int | None = None
    retry_after: float = 0.05
    scope: str = "user"
    is_global: bool = False
    match: Callable[[str, str], bool] | None = None


class FaultInjector:
    """The rules in force (``rules``, first match wins) and the seeded dice for the rates."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []
        self._rng = random.Random(0)

    def inject_faults(
        self,
        rate: float,
        *,
        status: int = 429,
        seed: int = 0,
        retry_after: float = 0.05,
        scope: str = "user",
        is_global: bool = False,
        match: Callable[[str, str], bool] | None = None,
    ) -> FaultRule:
        """Answer a seeded fraction ``rate`` of matching REST requests with 429 or 500."""
        self._rng = random.Random(seed)
        rule = FaultRule(
            status,
            rate=rate,
            retry_after=retry_after,
            scope=scope,
            is_global=is_global,
            match=match,
        )
        self.rules.append(rule)
        return rule

    def fail_next(
        self,
        count: int = 1,
        *,
        status: int = 429,
        retry_after: float = 0.05,
        match: Callable[[str, str], bool] | None = None,
    ) -> FaultRule:
        """Answer the next ``count`` matching requests with ``status``."""
        rule = FaultRule(status, remaining=count, retry_after=retry_after, match=match)
        self.rules.append(rule)
        return rule

    def clear_faults(self) -> None:
        self.rules.clear()

    def pick_fault(self, method: str, route: str) -> FaultRule | None:
        for rule in self.rules:
            if rule.match is not None and not rule.match(method, route):
                continue
            if rule.remaining is not None:
                if rule.remaining <= 0:
                    continue
                rule.remaining -= 1
                return rule
            if self._rng.random() < rule.rate:
                return rule
        return None
