"""Committed deals (``bot.deals``, docs/fair-deals.md): the test vectors, and that engines dealt
from them can be recomputed from the revealed hand secrets alone."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from bot.deals import CommittedDeals, RevealedDeals, commitment, hand_key, shuffle_with
from bot.gamekit.contract import Seat
from bot.games.registry import GAMES
from bot.table.fairdeal import links, shown_links

MASTER = bytes(range(32))
"""The vectors' table secret: 00 01 02 ... 1f."""
KEY_7_1 = "43d591c32373b17c995233fc50427286a75cc372ee5589971f6bf07d127381b3"


def test_the_documented_vectors() -> None:
    key = hand_key(MASTER, 7, 1)
    assert key.hex() == KEY_7_1
    assert commitment(key, 7, 1) == (
        "ebb6e331c120ddfa7ae97cbe57c97d547be53b7e1b166408f9489f8542fbf332")
    deck = list(range(52))
    shuffle_with(key, 0, deck)
    assert deck == [40, 46, 15, 17, 36, 8, 44, 33, 38, 30, 19, 1, 5, 7, 34, 10, 31, 22, 49, 28,
                    13, 20, 27, 48, 39, 23, 37, 47, 29, 21, 14, 45, 2, 41, 43, 16, 24, 4, 32, 12,
                    11, 25, 26, 0, 51, 6, 35, 3, 42, 50, 9, 18]
    ten = list(range(10))
    shuffle_with(key, 1, ten)
    assert ten == [6, 7, 0, 1, 9, 2, 8, 5, 4, 3]
    key2 = hand_key(MASTER, 7, 2)
    assert key2.hex() == "1c72e5a4c55dda61b658d76d634a1e0762e58dcb9a3cf5ee222ffe53c74db58a"
    assert commitment(key2, 7, 2) == (
        "4e92b71375a39c77ef7ee62a2357e09cf4e562cd96e3466cfbc6ccf596aca77d")


def test_hand_keys_differ_by_table_and_hand() -> None:
    keys = {hand_key(MASTER, t, h) for t in (1, 2) for h in (1, 2, 3)}
    assert len(keys) == 6


def test_the_shuffle_is_near_uniform_on_three_cards() -> None:
    counts: dict[tuple[int, ...], int] = {}
    for i in range(6000):
        cards = [0, 1, 2]
        shuffle_with(MASTER, i, cards)
        counts[tuple(cards)] = counts.get(tuple(cards), 0) + 1
    assert len(counts) == 6
    assert all(850 < n < 1150 for n in counts.values()), counts


def _play(kind: str, engine: object, rng: random.Random, moves: int) -> list[tuple[int, dict]]:
    spec = GAMES[kind]
    log = []
    for _ in range(moves):
        if engine.is_over:  # type: ignore[attr-defined]
            break
        player = engine.to_move  # type: ignore[attr-defined]
        if player is None:
            player = engine.seats[0].player_id  # type: ignore[attr-defined]
        move = rng.choice(engine.legal_moves(player))  # type: ignore[attr-defined]
        engine.apply(player, move)  # type: ignore[attr-defined]
        log.append((player, spec.moves.to_dict(move)))
    return log


@pytest.mark.parametrize("kind", ["tonk", "dubb"])
def test_a_thousand_deals_recompute_from_their_revealed_secrets(kind: str) -> None:
    spec = GAMES[kind]
    seats = [Seat(1, "a"), Seat(2, "b"), Seat(3, "c")]
    options = spec.validate_options({})
    rng = random.Random(kind)
    for table_id in range(1, 501):
        master = rng.randbytes(32)
        deals = CommittedDeals(master, table_id)
        engine = spec.new_engine(seats, options, deals)
        shown = {h: deals.commitment(h) for h in (1, 2)}
        log = _play(kind, engine, rng, 40 if kind == "tonk" else 10)
        done = engine.deals_done
        hands = max(done, 1) + (0 if engine.is_over else 1)
        keys = {h: deals.key(h) for h in range(1, hands + 1)}
        for h, key in keys.items():
            if h in shown:
                assert commitment(key, table_id, h) == shown[h]
        again = spec.new_engine(seats, options, RevealedDeals(table_id, keys))
        for player, move in log:
            again.apply(player, spec.moves.from_dict(move))
        assert json.dumps(again.public_view().to_dict(), sort_keys=True) == json.dumps(
            engine.public_view().to_dict(), sort_keys=True)
        assert [again.hand(s.player_id) for s in seats if s in again.seats] == [
            engine.hand(s.player_id) for s in seats if s in engine.seats]


@pytest.mark.parametrize("kind", ["tonk", "dubb"])
def test_a_committed_game_stores_as_version_3_and_plays_on_identically(kind: str) -> None:
    spec = GAMES[kind]
    seats = [Seat(1, "a"), Seat(2, "b")]
    engine = spec.new_engine(seats, spec.validate_options({}), CommittedDeals(MASTER, 9))
    rng = random.Random(3)
    _play(kind, engine, rng, 30)
    stored = engine.to_stored()
    assert stored["format_version"] == 3 and "seed" not in stored
    copy = spec.load_engine(json.loads(json.dumps(stored)))
    assert copy.to_stored() == stored
    a, b = random.Random(4), random.Random(4)
    _play(kind, engine, a, 60)
    _play(kind, copy, b, 60)
    assert copy.to_stored() == engine.to_stored()



@pytest.mark.parametrize("over", [False, True])
@pytest.mark.parametrize("done", [0, 1, 2, 7, 30])
def test_a_table_shows_what_the_whole_list_of_hands_says_of_its_last_two(
        done: int, over: bool) -> None:
    """``shown_links`` (what every drawing of a table shows: the hand last over with its key,
    and the hand in play or next with its commitment) works out two hands, not all of them,
    and says what ``links`` says of those two."""
    deals = CommittedDeals(MASTER, 7)
    engine = SimpleNamespace(deals_done=done, is_over=over)
    every = links(deals, engine)  # type: ignore[arg-type]
    keyed = [link for link in every if link.key is not None]
    pending = [link for link in every if link.key is None]

    assert shown_links(deals, engine) == (  # type: ignore[arg-type]
        keyed[-1] if keyed else None, pending[0] if pending else None)
