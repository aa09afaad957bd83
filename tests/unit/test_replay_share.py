"""The shared replay picture (issue 46): a frame per move and the deal's (an even sample in a
long game), small enough to upload, and only the public table in any frame."""

from __future__ import annotations

import io
import random
import re
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image

from bot.cardart import CardImage, Group, render
from bot.cardart.animation import MAX_FRAMES, animate, sampled
from bot.cards import new_deck
from bot.discord.controller import load_face
from bot.discord.replay_share import replay_picture
from bot.gamekit.contract import Engine, GameSpec, Seat
from bot.games.registry import GAMES
from bot.i18n.cards import card_name
from bot.storage import SeatInfo
from bot.table.service import TableSnapshot

SEATS = {"dubb": 4, "tonk": 3}


def _new(game: GameSpec, seed: int) -> Engine:
    seats = [Seat(-(i + 1), f"Player {i + 1}") for i in range(SEATS[game.kind])]
    return game.new_engine(seats, game.validate_options({}), seed)


def _played(game: GameSpec, seed: int) -> list[tuple[int, Any]]:
    engine = _new(game, seed)
    rng = random.Random(seed)
    strategy = game.strategies["greedy"]()
    moves: list[tuple[int, Any]] = []
    while not engine.is_over and engine.to_move is not None and len(moves) < 400:
        player = engine.to_move
        move = strategy.choose(engine.observe(player), rng)
        engine.apply(player, move)
        moves.append((player, move))
    return moves


def _snapshot(game: GameSpec, engine: Engine) -> TableSnapshot:
    return TableSnapshot(
        table_id=1, guild_id=1, channel_id=1, kind=game.kind, status="finished", host_id=-1,
        options=game.validate_options({}),
        seats=tuple(SeatInfo(player_id=s.player_id, name=s.name, is_computer=True)
                    for s in engine.seats),
        message_id=None, counter=0, engine=None, turn_seconds=0, turn_deadline=None,
        lobby_expires_at=None)


def _named(alt: str, card: int) -> bool:
    return re.search(rf"\b{re.escape(card_name('en', card))}\b", alt) is not None


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_a_frame_per_move_small_and_never_a_hidden_card(kind: str) -> None:
    game = GAMES[kind]
    face = load_face(game)
    moves = _played(game, 5)
    engine = _new(game, 5)
    names = dict(engine.names)
    frozen = _snapshot(game, engine)
    drawn = 0

    def picture(view: Any) -> CardImage | None:
        nonlocal drawn
        drawn += 1
        # the frame is the public view, equal to the engine's own at this step
        assert view == engine.public_view()
        image = face.table_picture(frozen, view, names, "en")
        if image is None:
            return None
        hidden = {c for s in engine.seats for c in engine.private_view(s.player_id).hand}
        result = getattr(view, "last_hand_result", None)
        if result is not None and not view.in_hand:
            # a Tonk hand is over: every hand was shown to the table
            hidden -= {c for hand in result.hands for c in hand}
        assert not [c for c in hidden if _named(image.alt, c)], image.alt
        return image

    shown = replay_picture(engine, moves, picture)
    assert shown.moves == len(moves)
    assert shown.frames == drawn == min(len(moves) + 1, MAX_FRAMES)
    assert len(shown.data) < 2 * 1024 * 1024
    with Image.open(io.BytesIO(shown.data)) as gif:
        assert gif.format == "GIF" and gif.is_animated and gif.n_frames == shown.frames


def test_a_long_game_keeps_an_even_sample_with_its_first_and_last_frames() -> None:
    assert sampled(10) == list(range(10))
    kept = sampled(1000)
    assert len(kept) == MAX_FRAMES and kept[0] == 0 and kept[-1] == 999
    gaps = {b - a for a, b in pairwise(kept)}
    assert max(gaps) - min(gaps) <= 1


def test_the_largest_replay_stays_well_under_the_upload_limit() -> None:
    """Every frame a different, full table (three revealed hands), as many as are kept."""
    rng = random.Random(1)
    pictures = []
    for _ in range(MAX_FRAMES):
        deck = list(new_deck())
        rng.shuffle(deck)
        pictures.append(render([[Group(deck[i:i + 5], f"#{i // 5 + 1}")] for i in (0, 5, 10)]))
    data = animate(pictures, [f"{i}/{MAX_FRAMES}" for i in range(MAX_FRAMES)])
    assert len(data) < 2 * 1024 * 1024
