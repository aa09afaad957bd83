"""Each process's part of the bot token's global budget (issue 32): processes that run disjoint
shards never pace themselves to more than the token may send in all."""

from __future__ import annotations

import itertools

import pytest

from bot.config import Settings
from bot.discord.pacing import UNPACED, Limits, paced_requests, process_share


@pytest.mark.parametrize("limit", [10, 50, 51, 120, 1200])
@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 16])
def test_every_split_of_the_shards_stays_within_the_limit(limit: int, count: int) -> None:
    # every way of cutting the shards into consecutive runs, one run per process
    for cuts in itertools.chain.from_iterable(
            itertools.combinations(range(1, count), k) for k in range(count)):
        sizes = [b - a for a, b in zip((0, *cuts), (*cuts, count), strict=True)]
        shares = [process_share((size, count)) for size in sizes]
        paced = [paced_requests(limit, share) for share in shares]
        if all(limit * share >= UNPACED + 1 for share in shares):
            assert sum(paced) + UNPACED * len(sizes) <= limit
        else:
            # a process whose part is under one request still gets one (it must write at all),
            # and start-up warns that the split is no longer exact
            assert sum(paced) <= limit + len(sizes)


def test_one_process_gets_the_whole_budget_less_its_logins_requests() -> None:
    assert Limits.discord().requests == 47
    assert Limits.discord(share=process_share(None)).requests == 47
    assert Limits.discord(share=process_share((2, 4))).requests == 22
    assert Limits.discord(global_limit=500, share=process_share((1, 4))).requests == 122


def test_global_rate_limit_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("GLOBAL_RATE_LIMIT", "250")
    assert Settings(_env_file=None).global_rate_limit == 250  # type: ignore[call-arg]
    monkeypatch.delenv("GLOBAL_RATE_LIMIT")
    assert Settings(_env_file=None).global_rate_limit == 50  # type: ignore[call-arg]
