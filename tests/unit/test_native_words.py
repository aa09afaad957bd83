"""Issue 36's native-speaker reading of Swedish and Danish: the corrected words, pinned in the
catalogs, and the rules documents naming commands as each language's players see them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import tr, trn
from bot.i18n.catalogs import read

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"


def _strings(lang: str) -> list[str]:
    out: list[str] = []
    for entry in read(lang):
        if entry.id:
            out += [entry.string] if isinstance(entry.string, str) else list(entry.string)
    return out


def test_sv_the_singular_of_spelmarker_is_spelmark() -> None:
    assert trn("sv", "{n} chip", "{n} chips", 1) == "1 spelmark"
    assert trn("sv", "{n} chip", "{n} chips", 2) == "2 spelmarker"
    assert not [s for s in _strings("sv") if re.search(r"(?<!spel)\bmarker\b", s)]


def test_sv_a_play_is_an_utspel_not_a_game() -> None:
    assert tr("sv", "**Your turn.** Choose a play, or draw or pass.") == (
        "**Din tur.** Välj ett utspel, eller dra eller passa.")
    assert tr("sv", "Next play: **{rank}** or higher. Another {rank} dubs the streak.") == (
        "Nästa utspel: **{rank}** eller högre. Ännu en {rank} dubbar alla i sviten.")
    assert tr("sv", "The cards to play: pick one of your legal plays").endswith("tillåtna utspel")
    assert tr("sv", "a play needs at least one card") == "ett utspel måste bestå av minst ett kort"


D6_SUMMARY = ("• If your own cards are on top when your turn comes, the pile is turned: shuffled "
              "into the draw pile, and you start afresh. **Aces** turn the pile at once and you "
              "go again.")


def test_the_rules_summary_shuffles_the_play_pile_into_the_draw_pile_d6() -> None:
    assert "vänds spelpackan: den blandas in i lyftpackan" in tr("sv", D6_SUMMARY)
    assert "vendes spillebunken: den blandes ind i trækbunken" in tr("da", D6_SUMMARY)
    for lang, becomes in (("sv", "blir lyftpackan"), ("da", "bliver til trækbunken")):
        assert not [s for s in _strings(lang) if becomes in s]


@pytest.mark.parametrize(("doc", "mover", "drew"), [
    ("dubb.sv.md", "den som gjorde draget", "den som drog"),
    ("dubb.da.md", "den, der foretog trækket", "den, der trak"),
])
def test_d11_names_the_player_who_moved_not_the_one_who_drew(doc: str, mover: str,
                                                              drew: str) -> None:
    text = (RULES / doc).read_text(encoding="utf-8")
    d11 = text[text.index("### D11"):text.index("### D12")]
    assert d11.count(mover) == 2 and drew not in d11


def _command_names() -> set[str]:
    """Every English command, option and choice name the bot declares (``cmd("…")`` names are
    lowercase words)."""
    names = set()
    for entry in read("sv"):
        if isinstance(entry.id, str) and re.fullmatch(r"[a-z_]+", entry.id) and any(
                "commands" in path or path.startswith("cogs/") for path, _ in entry.locations):
            names.add(entry.id)
    return names


@pytest.mark.parametrize("doc", ["dubb.sv.md", "dubb.da.md", "tonk.sv.md", "tonk.da.md"])
def test_rules_documents_name_commands_as_their_readers_see_them(doc: str) -> None:
    lang = doc.split(".")[1]
    english = _command_names()
    local = {tr(lang, n).lower().replace(" ", "-") for n in english}
    assert {"knock", "turn_time", "leave"} <= english
    text = (RULES / doc).read_text(encoding="utf-8")
    seen = 0
    for span in re.findall(r"`([^`]+)`", text):
        if span.startswith("/"):
            words = span.split()[1:]
        elif re.fullmatch(r"[^\W\d]\w*:?\S*", span):
            words = [span.partition(":")[0]]
        else:
            continue
        for word in words:
            if word == "…":
                continue
            seen += 1
            assert word in local, f"{doc}: `{span}` names {word!r}, which {lang} readers never see"
    assert seen > 10


def test_da_table_lines_say_who_without_vedkommende() -> None:
    lines = [
        "{name} turned the pile: their own cards were on top",
        "{name} turned the pile: their last cards were on top",
        "{name} has no cards left: pending while their cards can be dubbed",
        "{name} has no cards but still loses: their last cards were on top when everyone else "
        "was out.",
        "⏱ {name} ran out of time ({count} of 3 in a row), so a move was made for them",
        "▶ **{name}** has drawn: they may lay spreads and hit, then discard.",
    ]
    assert tr("da", lines[0]) == "{name} vendte spillebunken med sine egne kort øverst"
    assert all("vedkommende" not in tr("da", line) for line in lines)


def test_da_the_draw_pile_is_traekbunken_in_both_games() -> None:
    assert tr("da", "Stock") == "Trækbunken"
    assert tr("da", "Draw from stock") == "Træk fra trækbunken"
    bare = [s for s in _strings("da") if re.search(r"(?<![a-zæøåA-ZÆØÅ])[Bb]unken\b", s)]
    assert not bare


def test_players_are_dubbed_not_the_streak() -> None:
    nxt = "Next play: **{rank}** or higher. Another {rank} dubs the streak."
    assert tr("da", nxt).endswith("dubber alle i stimen.")
    assert tr("sv", nxt).endswith("dubbar alla i sviten.")
    for lang, wrong in (("sv", "dubbar sviten"), ("da", "dubber stimen")):
        assert not [s for s in _strings(lang) if wrong in s]
        assert wrong not in (RULES / f"dubb.{lang}.md").read_text(encoding="utf-8")



def test_a_command_the_bot_no_longer_has_gets_a_short_answer() -> None:
    """Issue 36: /tonk drop became /tonk knock; a client that still sends the old name is told
    so in its language, not "something went wrong"."""
    from discord import app_commands

    from bot.discord.errors import user_message_for

    error = app_commands.CommandNotFound("drop", ["tonk"])
    assert user_message_for(error, "en") == (
        "“/tonk drop” is not one of my commands any more: type / to see them as they are now. "
        "Nothing was changed.")
    assert "/tonk drop" in (user_message_for(error, "sv") or "")
    assert "/tonk drop" in (user_message_for(error, "da") or "")


# -- issue 47: a second native reading of Swedish and Danish ------------------------------------


def test_hints_and_reviews_write_numbers_as_the_reader_does() -> None:
    """Item 1: +1.5 chips and 12% were English in every language."""
    from bot.games.dubb.search import SEARCH as DUBB
    from bot.games.tonk.search import SEARCH as TONK

    def outlook(search: object, lang: str, score: float) -> str:
        template, values = search.outlook(score)  # type: ignore[attr-defined]
        return tr(lang, template, **values)

    assert outlook(DUBB, "en", -0.12) == "about a 12% chance of losing"
    assert outlook(DUBB, "sv", -0.12) == "ungefär 12\xa0% risk att förlora"
    assert outlook(DUBB, "da", -0.12) == "omkring 12\xa0% risiko for at tabe"
    assert outlook(TONK, "en", 1.5) == "about +1.5 chips this hand"
    assert outlook(TONK, "sv", 1.5) == "ungefär +1,5 spelmarker den här given"
    assert outlook(TONK, "da", -1.5) == "omkring −1,5 jetoner i denne runde"


REVIEW = ("**Your review**: {n} decision weighed, {rollouts} playouts, from what you could see "
          "at the time.", "**Your review**: {n} decisions weighed, {rollouts} playouts each, "
          "from what you could see at the time.")


def test_the_review_header_has_a_singular() -> None:
    """Item 2: one decision read "1 beslutninger"."""
    assert trn("da", *REVIEW, 1, rollouts="200").startswith(
        "**Din gennemgang**: 1 beslutning er vejet med 200 gennemspilninger ud fra")
    assert trn("da", *REVIEW, 3, rollouts="200").startswith(
        "**Din gennemgang**: 3 beslutninger er vejet med 200 gennemspilninger hver ud fra")
    assert trn("sv", *REVIEW, 1, rollouts="200").startswith(
        "**Din genomgång**: 1 beslut har vägts med 200 utspelningar, utifrån")
    assert trn("en", *REVIEW, 1, rollouts="200").startswith("**Your review**: 1 decision weighed")


def test_a_review_says_its_header_and_its_chart_in_the_readers_language() -> None:
    """Items 1 and 2, where the review is written: the plural, and the chart's figures."""
    from typing import Any, cast

    from bot.discord.controller import TableController, load_face
    from bot.games.registry import GAMES
    from bot.table.review import Weighed

    game = GAMES["tonk"]
    controller = TableController(cast(Any, None), cast(Any, None), game, load_face(game),
                                 cast(Any, None))
    text, image = controller.review_text([], [Weighed(-2.0, None, -2.0)], 1, "da")
    assert text.startswith("**Din gennemgang**: 1 beslutning er vejet med 0 gennemspilninger")
    assert image.alt.endswith(": −2")



@pytest.mark.parametrize(("lang", "note"), [("en", "not rated"), ("sv", "utan rating"),
                                            ("da", "uden rating")])
def test_a_lobby_with_a_computer_says_it_is_not_rated(lang: str, note: str) -> None:
    """Item 21: a computer at the table means no rating, and the lobby says so as it does for
    rated:False."""
    from dataclasses import replace
    from typing import Any, cast

    from bot.discord.controller import TableController, load_face
    from bot.games.registry import GAMES
    from bot.storage import SeatInfo
    from bot.table.service import TableSnapshot

    game = GAMES["dubb"]
    controller = TableController(cast(Any, None), cast(Any, None), game, load_face(game),
                                 cast(Any, None))
    people = (SeatInfo(player_id=1, name="Anna"), SeatInfo(player_id=2, name="Bo"))
    lobby = TableSnapshot(table_id=1, guild_id=1, channel_id=1, kind="dubb", status="lobby",
                          host_id=1, options=game.options(), seats=people,
                          message_id=None, counter=0, engine=None, turn_seconds=90,
                          turn_deadline=None, lobby_expires_at=None, locale=lang)

    def says_not_rated(snapshot: TableSnapshot) -> bool:
        return note in str(controller.lobby_render(snapshot).embed.to_dict())

    assert not says_not_rated(lobby)
    assert says_not_rated(replace(lobby, rated=False))
    computer = SeatInfo(player_id=-1, name="Astrid", is_computer=True)
    assert says_not_rated(replace(lobby, seats=(*people, computer)))
