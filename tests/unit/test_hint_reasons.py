"""A hint's reason (issue 34): what the suggested move does, in the reader's language, from the
caller's own view only. Every legal move at every decision of whole games played by smart
players gets a reason that says what the rules make of it, and names no card the caller cannot
see."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot import cards
from bot.discord.common import labelled
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions
from bot.games.dubb.face import FACE as DUBB_FACE
from bot.games.dubb.moves import Draw, Pass, Play
from bot.games.dubb.smart import smart_strategy
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    Drop,
    Hit,
    Spread,
    TonkEngine,
    TonkOptions,
)
from bot.games.tonk.face import FACE as TONK_FACE
from bot.games.tonk.players import SmartStrategy
from bot.games.tonk.terms import HAND_OVER
from bot.i18n import LANGUAGES

NAMES = {1: "Anna", 2: "Bo *the* _best_", 3: "Cem", 4: "Dag"}
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|🃏")


def _dubb_positions(games: int) -> Iterator[DubbEngine]:
    for seed in range(games):
        game = DubbEngine.new([Seat(p, n) for p, n in NAMES.items()], DubbOptions(), seed)
        rng = random.Random(seed)
        while not game.is_over:
            player = game.to_move
            assert player is not None
            yield game
            game.apply(player, smart_strategy(game.observe(player), rng))


def test_a_dubb_play_says_whom_it_dubs_and_what_it_leaves() -> None:
    names = labelled(NAMES.items())
    seen = {"dub": 0, "aces": 0, "empties": 0, "plain": 0}
    for game in _dubb_positions(12):
        player = game.to_move
        assert player is not None
        view, private = game.public_view(), game.private_view(player)
        for move in private.legal_moves:
            reason = DUBB_FACE.move_reason(game, player, move, names, "en")
            if not isinstance(move, Play):
                assert reason is None
                continue
            assert reason is not None
            dubbed = {p.player for p in view.streak if p.player != player}
            if view.top is not None and move.rank == view.top_rank and dubbed:
                count = move.naturals + move.jokers
                assert reason.startswith("it dubs ")
                assert f"{count} card" in reason
                # the names as the table shows them: escaped
                assert all(names[p] in reason for p in dubbed)
                assert "Bo *the*" not in reason
                seen["dub"] += 1
            else:
                assert "dubs" not in reason
                seen["plain"] += 1
            assert ("aces turn the pile" in reason) == (move.rank == 14)
            seen["aces"] += move.rank == 14
            left = len(private.hand) - move.naturals - move.jokers
            if left:
                assert f"it leaves you {left} card" in reason
            else:
                assert "it empties your hand" in reason
                seen["empties"] += 1
            # no card at all: nothing hidden can be named
            assert not CARD.search(reason)
    assert all(seen.values()), seen


def _tonk_positions(hands: int) -> Iterator[TonkEngine]:
    seats = [Seat(p, NAMES[p]) for p in (1, 2, 3)]
    table = TonkEngine.new(seats, TonkOptions(), 5)
    players = {s.player_id: SmartStrategy() for s in seats}
    rng = random.Random(5)
    played = 0
    while played < hands:
        if table.phase is HAND_OVER:
            played += 1
            table.apply(1, DealNextHand())
            continue
        player = table.to_move
        assert player is not None
        yield table
        table.apply(player, players[player].choose(table.observe(player), rng))


def test_a_tonk_move_says_what_it_does_naming_only_cards_the_player_sees() -> None:
    kinds: set[type] = set()
    for table in _tonk_positions(25):
        player = table.to_move
        assert player is not None
        view, private = table.public_view(), table.private_view(player)
        visible = {cards.display(c) for c in private.hand} | {
            cards.display(c) for sp in view.spreads for c in sp.cards}
        if view.discard_top is not None:
            visible.add(cards.display(view.discard_top))
        for move in private.legal_moves:
            reason = TONK_FACE.move_reason(table, player, move, {}, "en")
            if isinstance(move, Drop):
                assert reason == f"it ends the hand on your total of {private.total}"
            elif isinstance(move, Spread | Hit):
                assert reason is not None
                if len(move.cards) == len(private.hand):
                    assert reason == "it lays your last cards: you go out"
                else:
                    assert reason.startswith("it takes ") and "off your total" in reason
            elif isinstance(move, Discard) and len(private.hand) > 1:
                assert reason is not None and reason.startswith("it leaves you ")
            elif isinstance(move, DrawDiscard):
                assert reason is None or str(cards.display(view.discard_top or 0)) in reason
            if reason is not None:
                kinds.add(type(move))
                assert set(CARD.findall(reason)) <= visible, reason
    assert {Drop, Discard, DrawDiscard, Spread} <= kinds, kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_reads_in_every_language(lang: str) -> None:
    names = labelled(NAMES.items())
    reasons: set[str | None] = set()
    for game in _dubb_positions(2):
        player = game.to_move
        assert player is not None
        for move in game.private_view(player).legal_moves:
            reasons.add(DUBB_FACE.move_reason(game, player, move, names, lang))
    for table in _tonk_positions(4):
        player = table.to_move
        assert player is not None
        for move in table.private_view(player).legal_moves:
            reasons.add(TONK_FACE.move_reason(table, player, move, {}, lang))
    reasons.discard(None)
    assert len(reasons) > 10
    if lang != "en":
        # translated: none of the English phrases is left
        assert not any(r and r.startswith(("it ", "the ")) for r in reasons), reasons
    assert all(r and len(r) < 200 for r in reasons)


def test_drawing_and_passing_give_no_reason_but_the_figures() -> None:
    game = next(_dubb_positions(1))
    player = game.to_move
    assert player is not None
    for move in (Draw(), Pass()):
        assert DUBB_FACE.move_reason(game, player, move, {}, "en") is None
