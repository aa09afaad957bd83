"""What an event shows (its message, its standings): every word through the catalogs, in the
pseudo-language that marks them, and within Discord's limits whatever the names and however
many registered (issue 14's and 13's checks, for issue 33)."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from bot.discord.common import shown_name
from bot.discord.events import EventController
from bot.discord.rows import Rows
from bot.discord.showing import TableRender
from bot.games.registry import GAMES
from bot.i18n import LANGUAGES, PSEUDO
from bot.storage import EventEntrant, EventRecord
from bot.table.events import EventService, EventSettings
from bot.table.tourney import Score, standings
from tests.unit.test_i18n_coverage import _texts, _unmarked, _within_limits

SETTINGS = EventSettings(rounds=3, seats=3, hands=2, turn_seconds=90, tables_in=55)


def _controller() -> EventController:
    # rendering needs none of the services
    service = EventService(cast(Any, None), GAMES)
    return EventController(service, cast(Any, None), {}, cast(Any, None), cast(Any, None))


def _event(status: str, lang: str, round_no: int = 2) -> EventRecord:
    return EventRecord(id=4, guild_id=1, channel_id=55, kind="tonk", status=status,  # type: ignore[arg-type]
                       host_id=7, settings=SETTINGS.model_dump(), round=round_no,
                       locale=lang, created_at=0.0, updated_at=0.0)


def _entrants(names: list[str]) -> list[EventEntrant]:
    return [EventEntrant(event_id=4, player_id=-(i + 1) if i % 3 == 2 else i + 1, name=n,
                         is_computer=i % 3 == 2, seq=i + 1) for i, n in enumerate(names)]


def _renders(names: list[str], lang: str) -> list[TableRender]:
    controller = _controller()
    game = GAMES["tonk"]
    entrants = _entrants(names)
    ids = [e.player_id for e in entrants]
    results = [[Score(p, i + 1, max(3 - (i + 1), 0), i == 3) for i, p in enumerate(ids[at:at + 4])]
               for at in range(0, len(ids), 4)]
    table = standings(ids, results)
    out = []
    for status in ("registering", "running", "finished", "cancelled"):
        embed, view = controller._render(game, _event(status, lang), entrants)
        out.append(TableRender(embed=embed, view=view))
    for final in (False, True):
        embed = controller._standings_embed(game, _event("running", lang), entrants, table,
                                            lang, final=final, after=1)
        out.append(TableRender(embed=embed, view=None))
    return out


def test_every_word_of_an_event_is_translated() -> None:
    names = ["Zz", "Yy", "Xx", "Ww", "Vv"]
    leaks = set()
    for render in _renders(names, PSEUDO):
        for text in _texts(render):
            rest = _unmarked(text, [*names, "Tonk", "Buchholz"])
            if re.search(r"[^\W\d_]", rest):
                leaks.add(f"{text!r} → {rest!r}")
    assert not leaks, "\n".join(sorted(leaks))


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_an_event_fits_discords_limits_with_many_long_hostile_names(lang: str) -> None:
    names = [f"@everyone **{i}** [x](https://e.x) " + "ñ" * 20 for i in range(120)]
    for render in _renders(names, lang):
        _within_limits(render)
        text = str(render.embed.to_dict())
        assert "@everyone **" not in text, "names are escaped"
    assert shown_name(names[0]) != names[0]
    assert isinstance(_renders(names[:1], lang)[0].view, Rows)
