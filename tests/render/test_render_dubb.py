"""Dubb rendering: plain-word events, the public table (D14), and the hand panel's moves."""

import random

from bot import cards
from bot.cards import make, make_joker
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions, Play, event_to_dict, play_of, public_form
from bot.games.dubb.face.pictures import streak_picture
from bot.games.dubb.face.render import (
    describe,
    hand_panel,
    parse_play_value,
    play_text,
    table_render,
)
from bot.i18n.cards import card_name

SEATS = [Seat(1, "Anna"), Seat(2, "Bo"), Seat(3, "Cem")]
NAMES = {1: "Anna", 2: "Bo", 3: "Cem"}
H, S, D, C = cards.HEARTS, cards.SPADES, cards.DIAMONDS, cards.CLUBS


def _public_lines(game: DubbEngine, player: int, move: Play) -> list[str]:
    return describe([public_form(event_to_dict(e)) for e in game.apply(player, move)], NAMES, "en")


def test_a_dubbing_reads_as_one_line_naming_who_picks_up_how_many() -> None:
    """D8: Cem plays two 7s on Anna's and Bo's 7s; both pick up 2."""
    game = DubbEngine.from_position(
        SEATS,
        hands=[[make(9, S)], [make(10, S)], [make(7, H), make(7, D), make(12, C)]],
        draw_pile=[make(n, S) for n in range(2, 7)],
        pile=[(1, [make(7, S)]), (2, [make(7, C)])],
        to_move=3,
    )
    lines = _public_lines(game, 3, play_of(7, 2))
    assert lines == ["Cem played 7♥ 7♦: Anna and Bo are dubbed and pick up 2 cards each"]


def test_drawn_cards_never_reach_the_public_lines() -> None:
    game = DubbEngine.from_position(
        SEATS,
        hands=[[make(9, S)], [make(10, S)], [make(12, C)]],
        draw_pile=[make(5, H)],
        to_move=1,
    )
    events = game.apply(1, next(m for m in game.legal_moves(1) if not isinstance(m, Play)))
    public = [public_form(event_to_dict(e)) for e in events]
    assert describe(public, NAMES, "en") == ["Anna drew 1 card"]
    table = table_render(game.public_view(), [], NAMES, "en", table_id=1, counter=1)
    assert "5♥" not in str(table.embed.to_dict())


def test_public_table_shows_only_public_cards_through_a_whole_game() -> None:
    """D14: every card on the public table is one that has been played in public."""
    rng = random.Random(4)
    game = DubbEngine.new(SEATS, DubbOptions(), seed=11)
    seen_public: set[str] = set()
    recent: list[str] = []
    while not game.is_over:
        player = game.to_move
        assert player is not None
        events = game.apply(player, rng.choice(game.legal_moves(player)))
        for event in events:
            data = public_form(event_to_dict(event))
            if data["type"] == "played":
                seen_public.update(cards.display(c) for c in data["cards"])
            elif data["type"] == "draw_play":
                seen_public.add(cards.display(data["card"]))
        public = [public_form(event_to_dict(e)) for e in events]
        recent = (recent + describe(public, NAMES, "en"))[-6:]
        text = str(table_render(game.public_view(), recent, NAMES, "en",
                                table_id=1, counter=0).embed.to_dict())
        for hand_card in (c for p in NAMES for c in game.hand(p)):
            shown = cards.display(hand_card)
            if shown in text:
                assert shown in seen_public, f"{shown} is in a hand and was never played"
        # issue 15: the table's picture shows the streak, so only cards played in public
        picture = streak_picture(game.public_view(), "en")
        if picture is not None:
            pictured = _cards_named(picture.alt)
            assert pictured and pictured <= {cards.display(c) for c in
                                             (c for p in game.public_view().streak
                                              for c in p.cards)}
            assert pictured <= seen_public


def _cards_named(alt: str) -> set[str]:
    """The cards an alt text names, as displayed (7♥)."""
    by_name = {card_name("en", c): cards.display(c) for c in cards.new_deck(1, jokers=True)}
    words = alt.split(": ", 1)[-1].replace("; ", ", ").split(", ")
    return {by_name[w] for w in words}


def test_hand_panel_offers_exactly_the_legal_plays() -> None:
    game = DubbEngine.new(SEATS, DubbOptions(), seed=3)
    player = game.to_move
    assert player is not None
    _, view = hand_panel(game.public_view(), game.private_view(player), NAMES, "en", table_id=5,
                         counter=0)
    offered = {
        parse_play_value(o.value)
        for item in view.children
        for o in getattr(item, "options", [])
    }
    plays = [m for m in game.legal_moves(player) if isinstance(m, Play)]
    legal = {(m.rank, m.naturals, m.jokers) for m in plays}
    assert offered == legal
    labels = [getattr(item, "label", None) for item in view.children]
    assert "Draw" not in labels and "Pass" not in labels  # D4: the first move must be a play


def test_a_huge_hand_switches_to_choosing_a_rank_first() -> None:
    """Two packs with jokers: more plays than three menus hold; the panel groups them by rank."""
    hand = [make(r, s, d) for r in range(2, 10) for s in (S, H) for d in (0, 1)]
    hand += [make_joker(0, 0), make_joker(1, 0), make_joker(0, 1), make_joker(1, 1)]
    game = DubbEngine.from_position(
        SEATS,
        hands=[hand, [make(10, S)], [make(12, C)]],
        pile=[(2, [make(2, C)])],
        to_move=1,
        options=DubbOptions(decks=2, jokers=True, cards_each=8),
    )
    public, private = game.public_view(), game.private_view(1)
    assert len([m for m in private.legal_moves if isinstance(m, Play)]) > 75
    _, view = hand_panel(public, private, NAMES, "en", table_id=5, counter=0)
    selects = [i for i in view.children if hasattr(i, "options")]
    assert len(selects) == 1 and selects[0].custom_id.startswith("ks:dubb:5:rank:0")
    _, view = hand_panel(public, private, NAMES, "en", table_id=5, counter=0, rank_filter=7)
    offered = [
        parse_play_value(o.value)
        for i in view.children
        if i.custom_id.startswith("ks:dubb:5:play")
        for o in i.options
    ]
    assert offered and all(rank == 7 for rank, _, _ in offered)
    assert all(len(getattr(i, "options", [])) <= 25 for i in view.children)


def test_play_text_is_what_a_user_could_type_back() -> None:
    game = DubbEngine.from_position(
        SEATS,
        hands=[[make(7, S), make(7, H), make_joker(0)], [make(10, S)], [make(12, C)]],
        pile=[(2, [make(5, C)])],
        to_move=1,
        options=DubbOptions(jokers=True),
    )
    typed = play_text(play_of(7, 2, 1), game.hand(1))
    assert typed == "7s 7h joker"
    move = game.play_from_text(1, typed)
    assert (move.rank, move.naturals, move.jokers) == (7, 2, 1)
