"""The public table as a Components V2 layout stays within Discord's limits at the largest
tables, in every language the bot speaks: a six-seat Dubb table with every option and a
four-seat Tonk table through many hands, with the longest names Discord allows, each version
of the whole game drawn the way the controller draws it (fitted, latest lines, picture) and
checked as the fake Discord checks a message (40 components, 4,000 characters of text), with
one Section per seat."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.discord.common import button, closed_embed, fit
from bot.discord.controller import closed_text
from bot.discord.layout import table_layout
from bot.discord.ratings import rated_seats
from bot.discord.rows import Rows
from bot.discord.showing import TableRender
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.validation import FLAG_IS_COMPONENTS_V2, validate_message_body
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions
from bot.games.dubb import event_to_dict as dubb_event
from bot.games.dubb import public_form as dubb_public
from bot.games.dubb.face import pictures as dubb_pictures
from bot.games.dubb.face import render as dubb_render
from bot.games.tonk import TonkEngine, TonkOptions
from bot.games.tonk import event_to_dict as tonk_event
from bot.games.tonk import public_form as tonk_public
from bot.games.tonk.face import render as tonk_render
from bot.i18n import LANGUAGES, signed, tr
from bot.table.service import STOPPED

RECENT = 6  # the controller's latest lines (``controller.RECENT_LINES``)
LONG = "W" * 32  # the longest name Discord shows


def _names(count: int) -> dict[int, str]:
    return {i: f"{LONG[:-2]}{i:02d}" for i in range(1, count + 1)}


def _changes(names: dict[int, str], lang: str) -> dict[int, str]:
    """The longest rating change a seat's line can end with."""
    return {p: tr(lang, "rating {rating} ({change})", rating="10000", change=signed(lang, -9999))
            for p in names}


def _check(render: Any) -> tuple[int, int]:
    layout = table_layout(fit(render.embed), render.view, render.content, render.image,
                          render.seats)
    components = layout.to_components()
    form = FormErrors()
    validate_message_body(form, (), {"flags": FLAG_IS_COMPONENTS_V2, "components": components})
    form.raise_if_any()  # what the fake Discord would refuse, with where and why
    if render.seats is not None:
        # one Section per seat, each with its Profile button
        sections = [c for c in components[0]["components"] if c["type"] == 9]
        assert len(sections) == len(render.seats.lines)
        assert all(s["accessory"]["custom_id"].split(":")[3] == "profile" for s in sections)
    return _count(components), len(_text(components))


def _count(components: list[dict[str, Any]]) -> int:
    """Components counted as Discord counts them: through every level, a Section's
    accessory included."""
    return sum(1 + _count(c.get("components") or []) + ("accessory" in c) for c in components)


def _text(components: list[dict[str, Any]]) -> str:
    out = ""
    for c in components:
        if c.get("type") == 10:
            out += c["content"]
        out += _text(c.get("components") or [])
    return out


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_six_seat_dubb_table_with_every_option_fits_a_layout(lang: str) -> None:
    names = _names(6)
    seats = [Seat(i, n) for i, n in names.items()]
    options = DubbOptions(decks=2, jokers=True, hand_limit=True, last_player_draw_play=True)
    game = DubbEngine.new(seats, options, seed=5)
    rng = random.Random(5)
    recent: list[str] = []
    most = (0, 0)
    for _ in range(3000):
        view = game.public_view()
        render = dubb_render.table_render(
            view,
            recent[-RECENT:],
            names,
            lang,
            table_id=1,
            counter=view.move_count,
            deadline=2_000_000_000.0,
        )
        render = replace(render, image=dubb_pictures.streak_picture(view, lang))
        if view.result is not None:
            # at the end each seat's line also says its rating change, as the controller
            # writes it (``ratings.rated_seats``)
            render = rated_seats(render, "dubb", 1, _changes(names, lang), names, None, lang)
            most = max(most, _check(render))
            break
        most = max(most, _check(render))
        player = game.to_move
        assert player is not None
        events = game.apply(player, rng.choice(game.legal_moves(player)))
        recent += dubb_render.describe([dubb_public(dubb_event(e)) for e in events], names, lang)
    assert most[0] <= 40 and most[1] <= 4000


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_four_seat_tonk_table_through_many_hands_fits_a_layout(lang: str) -> None:
    names = _names(4)
    seats = [Seat(i, n) for i, n in names.items()]
    options = TonkOptions(
        stake=1_000_000, must_spread=True, double_needs_spread=True, hit_lock=True
    )
    game = TonkEngine.new(seats, options, seed=9)
    rng = random.Random(9)
    recent: list[str] = []
    hands_over = 0
    most = (0, 0)
    while hands_over < 6:
        view = game.public_view()
        render = tonk_render.table_render(
            view,
            recent[-RECENT:],
            table_id=1,
            counter=1,
            names=names,
            lang=lang,
            deadline=2_000_000_000.0,
        )
        most = max(most, _check(render))
        # between hands nobody is to move: the first seat deals the next one
        player = game.to_move if game.to_move is not None else next(iter(names))
        hands_over += game.to_move is None
        events = game.apply(player, rng.choice(game.legal_moves(player)))
        recent += tonk_render.describe([tonk_public(tonk_event(e)) for e in events], names, lang)
    assert most[0] <= 40 and most[1] <= 4000


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_closed_four_seat_tonk_table_with_its_players_block_fits_a_layout(lang: str) -> None:
    # a table stopped between hands lists no seats of its own: the controller adds the block
    # of its rated players, each with the longest net and rating change (``close_table``)
    names = _names(4)
    money = {p: -999_999_999 for p in names}
    embed = closed_embed(tr(lang, "{game} — closed", game="Tonk"),
                         closed_text({"why": STOPPED, "by": LONG}, lang))
    latest = [tr(lang, "{name} dropped with {total} and was caught by {catchers}.", name=LONG,
                 total="50", catchers=", ".join([LONG] * 3)) for _ in range(RECENT)]
    embed.add_field(name=tr(lang, "Latest"), value="\n".join(latest), inline=False)
    game = TonkEngine.new([Seat(i, n) for i, n in names.items()], TonkOptions(stake=1), seed=3)
    embed.add_field(name=tr(lang, "How it went"),
                    value=tonk_render.summary(game.public_view(), names, money, lang),
                    inline=False)
    seats = rated_seats(TableRender(embed=embed, view=None), "tonk", 1, _changes(names, lang),
                        names, money, lang).seats
    assert seats is not None and len(seats.lines) == len(names)
    view = Rows()
    for action, label in (("again", "Play again"), ("replay", "Replay"), ("review", "Review")):
        view.add_item(button("tonk", 1, action, tr(lang, label)))
    count, text = _check(TableRender(embed=fit(embed), view=view, seats=seats))
    assert count <= 40 and text <= 4000
