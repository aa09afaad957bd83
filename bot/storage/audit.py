"""The ledger checks of ``python -m bot.ops audit`` (``bot.ops.audit``): the whole ledger of a
database.

For every server: its rows form an unbroken hash chain (``bot.storage.chain``) ending at its
stored head; for every hand, its rows sum to zero; every balance the bot shows (per server, game
and season) is the sum of its rows. Matching rows against the replayed hands is
``bot.table.record``'s (``python -m bot.verify``, which the command runs for every finished
table unless told not to). Rows written before the chain existed are chained first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from bot.storage import chain
from bot.storage.database import Tx
from bot.storage.store import Store


async def seal(store: Store) -> int:
    """Chain every server's rows not chained yet; how many servers had such rows."""
    guilds = [int(r[0]) for r in await store.db.fetch(
        "SELECT DISTINCT guild_id FROM ledger WHERE digest IS NULL")]
    for guild in guilds:
        async def body(db: Tx, guild: int = guild) -> None:
            await chain.head(db, guild)
        await store.db.transaction(body)
    return len(guilds)


async def audit(store: Store) -> Iterator[tuple[bool, str]]:
    """Every check of the ledger, as (passed, one line)."""
    sealed = await seal(store)
    rows = [tuple(r) for r in await store.db.fetch(
        f"SELECT id, chain_seq, digest, {chain.CHAINED_COLUMNS} FROM ledger "
        "ORDER BY guild_id, chain_seq")]
    heads = {int(g): (int(s), str(d)) for g, s, d in await store.db.fetch(
        "SELECT guild_id, seq, digest FROM ledger_heads")}
    out: list[tuple[bool, str]] = []
    if sealed:
        out.append((True, f"chained the older rows of {sealed} server(s)"))
    by_guild: dict[int, list[tuple[object, ...]]] = defaultdict(list)
    for row in rows:
        by_guild[int(row[3])].append(tuple(row))
    for guild in sorted(set(by_guild) | set(heads)):
        digest, seq, broken = chain.GENESIS, 0, ""
        for row in by_guild.get(guild, []):
            seq += 1
            digest = chain.row_digest(digest, seq, row[3:])
            if row[1] != seq or row[2] != digest:
                broken = f"row {row[0]} (link {seq}) does not match its chain"
                break
        if not broken and heads.get(guild, (0, chain.GENESIS)) != (seq, digest):
            broken = f"the chain ends at link {seq}, its head says {heads.get(guild)}"
        out.append((not broken, f"server {guild}: hash chain of {seq} rows"
                    + (f": {broken}" if broken else "")))
    # a hand's nets: what each player received minus paid; each row must move a positive
    # amount between two players, so a hand whose nets do not add up to 0 was edited; every
    # hand is counted, so the line says how many were checked, not only how many failed
    hands: dict[tuple[int, int], int] = defaultdict(int)
    for row in rows:
        table, hand, payer, payee, amount = (int(x) for x in row[6:11])  # type: ignore[call-overload]
        hands[(table, hand)] += payer == payee or amount <= 0
    bad = sorted(k for k, v in hands.items() if v)
    out.append((True, f"{len(hands)} hands checked, every one sums to zero") if not bad else
               (False, f"{len(bad)} of {len(hands)} hands do not sum to zero: tables/hands "
                f"{bad[:5]}"))
    out.extend(await _balances(store, rows))
    return iter(out)


async def _balances(store: Store, rows: list[tuple[object, ...]]) -> list[tuple[bool, str]]:
    nets: dict[tuple[int, str, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        r: tuple[object, ...] = row
        key = (int(r[3]), str(r[4]), int(r[5]))
        nets[key][int(r[8])] -= int(r[10])
        nets[key][int(r[9])] += int(r[10])
    wrong = []
    for (guild, kind, season), expected in sorted(nets.items()):
        shown = {b.player_id: b.net for b in await store.balances(guild, kind, season=season)}
        if {p: n for p, n in shown.items() if n} != {p: n for p, n in expected.items() if n}:
            wrong.append(f"server {guild} {kind} season {season}")
    return [(not wrong, f"{len(nets)} balances are the sums of their rows"
             + (f": not {wrong[:5]}" if wrong else ""))]
