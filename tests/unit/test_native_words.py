"""Issue 36's native-speaker reading of Swedish and Danish: the corrected words, pinned in the
catalogs, and the rules documents naming commands as each language's players see them."""

from __future__ import annotations

import random
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
    ("dubb.nb.md", "den som gjorde trekket", "den som trakk"),
])
def test_d11_names_the_player_who_moved_not_the_one_who_drew(doc: str, mover: str,
                                                              drew: str) -> None:
    text = (RULES / doc).read_text(encoding="utf-8")
    d11 = text[text.index("### D11"):text.index("### D12")]
    assert d11.count(mover) == 2 and drew not in d11


def _command_names() -> set[str]:
    """Every English command, option and choice name the bot declares (``cmd("…")`` names are
    lowercase words): in the games' command modules, the cogs, and the Discord layer's rooms,
    which declare the subcommands every game shares."""
    names = set()
    for entry in read("sv"):
        if isinstance(entry.id, str) and re.fullmatch(r"[a-z_]+", entry.id) and any(
                "commands" in path or path.startswith(("cogs/", "bot/discord/"))
                for path, _ in entry.locations):
            names.add(entry.id)
    return names


@pytest.mark.parametrize("doc", ["dubb.sv.md", "dubb.da.md", "tonk.sv.md", "tonk.da.md",
                                 "dubb.fi.md", "tonk.fi.md", "dubb.nb.md", "tonk.nb.md"])
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


def test_fi_names_stand_in_the_nominative_and_the_words_are_the_tables() -> None:
    """Issue 47: Finnish. A name never takes a case ending glued to its placeholder
    ("{name}:lle", "{name}n"; after a game's name, "{game}-peli" inflects its own word). Dubb
    plays with lyödä onto the pino and draws from the nostopakka, Tonk knocks with koputtaa,
    and chips are pelimerkit."""
    assert tr("fi", "{name} to move.") == "Vuorossa: {name}."
    assert trn("fi", "{n} chip", "{n} chips", 1) == "1 pelimerkki"
    assert trn("fi", "{n} chip", "{n} chips", 2) == "2 pelimerkkiä"
    assert tr("fi", "Play pile") == "Pino" and tr("fi", "Draw pile") == "Nostopakka"
    assert tr("fi", "Stock") == "Nostopakka" and tr("fi", "knock") == "koputa"
    assert tr("fi", "Next play: **{rank}** or higher. Another {rank} dubs the streak.").endswith(
        "dubbaa kaikki putkessa.")
    person = r"\{(?:name|names|payer|payee|other|dealer|loser|winners?|catchers|who)\}"
    glued = [s for s in _strings("fi") if re.search(person + r"(?::|-)?[a-zäö]", s)]
    assert not glued, glued
def test_nb_speaks_norwegian_card_table_words() -> None:
    """Issue 47: Norwegian Bokmål with the words Norwegian players use (docs/glossary.md)."""
    assert trn("nb", "{n} chip", "{n} chips", 1) == "1 sjetong"
    assert trn("nb", "{n} chip", "{n} chips", 2) == "2 sjetonger"
    assert tr("nb", "Draw pile") == tr("nb", "Stock") == "Trekkbunken"
    assert tr("nb", "Discard pile") == "Kastebunken"
    assert tr("nb", "**Your turn.** Choose a play, or draw or pass.") == (
        "**Din tur.** Velg et utspill, eller trekk eller pass.")
    assert tr("nb", "{name} to move.") == "{name} står for tur."
    assert "snus bunken: den stokkes inn i trekkbunken" in tr("nb", D6_SUMMARY)
    assert tr("nb", "Drop ({total})") == "Bank ({total})"


def test_nb_players_are_dubbed_not_the_streak() -> None:
    nxt = "Next play: **{rank}** or higher. Another {rank} dubs the streak."
    assert tr("nb", nxt).endswith("dubber alle i serien.")
    assert not [s for s in _strings("nb") if "dubber serien" in s]
    assert "dubber serien" not in (RULES / "dubb.nb.md").read_text(encoding="utf-8")


def test_nb_is_not_danish_with_norwegian_spelling() -> None:
    danish = re.compile(r"\b(af|efter|blev|bliver|mig|dig|sig|nogen|noget|ud|op|hvad|nu|"
                        r"jetoner?|kulør|spil|tabe|taber)\b", re.IGNORECASE)
    found = sorted({m.group(0) for s in _strings("nb") for m in danish.finditer(s)})
    assert not found


def test_nb_names_the_old_command_in_its_answer() -> None:
    from discord import app_commands

    from bot.discord.errors import user_message_for

    error = app_commands.CommandNotFound("drop", ["tonk"])
    assert "/tonk drop" in (user_message_for(error, "nb") or "")


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

    from bot.coach.review import Weighed
    from bot.discord.coach import review_text
    from bot.discord.controller import TableController, load_face
    from bot.games.registry import GAMES

    game = GAMES["tonk"]
    controller = TableController(cast(Any, None), cast(Any, None), game, load_face(game),
                                 cast(Any, None))
    text, image = review_text(controller, [], [Weighed(-2.0, None, -2.0)], 1, "da")
    assert text.startswith("**Din gennemgang**: 1 beslutning er vejet med 0 gennemspilninger")
    assert image.alt.endswith(": −2")


def test_da_sv_buchholz_footer() -> None:
    """Item 3."""
    msg = "Ties are broken by Buchholz (the points of everyone you sat with), then by wins."
    assert tr("sv", msg) == ("Vid lika poäng avgör Buchholz (summan av poängen för alla du har "
                             "suttit med), därefter antal vinster.")
    assert tr("da", msg) == ("Ved pointlighed afgør Buchholz (summen af point for alle, du har "
                             "siddet med), derefter antal sejre.")


def test_the_leaderboard_says_when_you_come_onto_it() -> None:
    """Item 4: the leaderboard "shows you from 5" was English."""
    you = ("{rating} after {n} rated game: the leaderboard lists you from {most}.",
           "{rating} after {n} rated games: the leaderboard lists you from {most}.")
    assert trn("sv", *you, 2, rating="1020", most="5") == (
        "1020 efter 2 ratingpartier: du kommer med på topplistan efter 5.")
    assert trn("da", *you, 2, rating="1020", most="5") == (
        "1020 efter 2 ratingspil: du kommer på toplisten efter 5.")
    listed = ("listed from {n} rated game", "listed from {n} rated games")
    assert trn("sv", *listed, 5) == "med på listan efter 5 ratingpartier"
    assert trn("da", *listed, 5) == "på listen efter 5 ratingspil"
    for lang, wrong in (("sv", r"visar dig från|visas från"), ("da", r"viser dig fra|vises fra")):
        assert not [s for s in _strings(lang) if re.search(wrong, s)]


def test_the_computer_level_is_a_level_not_a_way_of_playing() -> None:
    """Item 5: "spiller let" reads "plays easily"."""
    line = "• {game}: computer players play {level}"
    assert tr("sv", line, game="Dubb", level="expert") == "• Dubb: datorspelarnas nivå: expert"
    assert tr("da", line, game="Dubb", level="let") == "• Dubb: computerspillernes niveau: let"


def test_the_chart_names_its_player_without_a_genitive() -> None:
    """Item 6: "Larss rating"."""
    alt = ("Chart of {name}'s {game} rating: from {start} to {end} over {n} rated game.",
           "Chart of {name}'s {game} rating: from {start} to {end} over {n} rated games.")
    values = {"name": "Lars", "game": "Tonk", "start": "1000", "end": "1040"}
    assert trn("sv", *alt, 3, **values) == (
        "Diagram över rating i Tonk för Lars: från 1000 till 1040 under 3 ratingpartier.")
    assert trn("da", *alt, 3, **values) == (
        "Diagram over rating i Tonk for Lars: fra 1000 til 1040 over 3 ratingspil.")


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_export_hints_name_options_as_the_reader_sees_them(lang: str) -> None:
    """Item 7: count:, table:, season: are the English names."""
    too_big = tr(lang, "Those records are larger than one message can carry ({files} files of "
                       "{size} MB). Ask for fewer with count:, or one with table:. Nothing was "
                       "sent.", files=3, size=8)
    assert f"`{tr(lang, 'count')}:`" in too_big and f"`{tr(lang, 'table')}:`" in too_big
    all_time = tr(lang, "An export of all time covers every season: leave out `season:`, or "
                        "export the season. Nothing was sent.")
    assert f"`{tr(lang, 'season')}:`" in all_time
    assert (tr("sv", "season"), tr("da", "season")) == ("säsong", "sæson")
    english = re.compile(r"\b(count|table|season):")
    assert not [s for s in _strings(lang) if english.search(s)]


def test_the_bot_tries_again_itself() -> None:
    """Item 8."""
    msg = "The event is running: anything waiting is tried again now."
    assert tr("sv", msg) == "Turneringen pågår: jag försöker nu igen med det som väntar."
    assert tr("da", msg) == "Turneringen er i gang: jeg prøver nu igen med det, der venter."


def test_events_are_opened_and_cancelled_events_were_stopped() -> None:
    """Item 9: the command says Öppna/Åbn; a cancelled event may stop mid-round."""
    opened = "• Events are opened by: {who}"
    assert tr("sv", opened, who="x") == "• Turneringar öppnas av: x"
    assert tr("da", opened, who="x") == "• Turneringer åbnes af: x"
    most = "An event takes up to {most} computer players."
    assert tr("sv", most, most=8) == "En turnering kan ha högst 8 datorspelare."
    assert tr("da", most, most=8) == "En turnering kan højst have 8 computerspillere."
    assert tr("sv", "The event was cancelled.") == "Turneringen avbröts."
    assert tr("da", "The event was cancelled.") == "Turneringen blev afbrudt."
    line = "**Event #{event}** · <t:{when}:R> · cancelled"
    assert tr("sv", line, event=2, when=0).endswith("· avbruten")
    assert tr("da", line, event=2, when=0).endswith("· afbrudt")
    for lang, wrong in (("sv", r"\b(startas|starta) turnering|[Tt]urneringar startas|inställd|"
                                r"ställdes in"),
                        ("da", r"oprette|oprettes|aflyst")):
        assert not [s for s in _strings(lang) if re.search(wrong, s)]


def test_a_table_number_is_shown_by_example() -> None:
    """Item 10."""
    assert tr("sv", "The table's number, as #12 shows it") == "Bordets nummer, t.ex. 12 för #12"
    assert tr("da", "The table's number, as #12 shows it") == "Bordets nummer, f.eks. 12 for #12"
    assert tr("sv", "Export only this table (its number, as #12 shows it)").endswith(
        "(bordets nummer, t.ex. 12 för #12)")
    assert tr("da", "Export only this table (its number, as #12 shows it)").endswith(
        "(bordets nummer, f.eks. 12 for #12)")
    count = "Export this server's latest tables, this many (default 10)"
    assert tr("sv", count) == "Hur många av serverns senaste bord som exporteras (standard 10)"
    assert tr("da", count) == (
        "Hvor mange af serverens seneste borde der eksporteres (standard 10)")
    for lang in ("sv", "da"):
        assert not [s for s in _strings(lang) if "#12 vis" in s or "så här många" in s]


def test_a_knock_ends_the_hand_with_your_total_and_reviews_are_for_players() -> None:
    """Item 11."""
    ends = "it ends the hand on your total of {total}"
    assert tr("sv", ends, total=4) == "det avslutar given med din summa 4"
    assert tr("da", ends, total=4) == "det afslutter runden med din sum på 4"
    only = "Only the players of a game can review it."
    assert tr("sv", only) == "Bara de som spelade partiet kan gå igenom det."
    assert tr("da", only) == "Kun de spillere, der var med, kan gennemgå spillet."


def test_an_aces_reason_joins_the_others_without_a_second_and() -> None:
    """Item 12: joined reasons read "…och du spelar igen och du har…"."""
    from bot.discord.common import labelled
    from bot.gamekit.contract import Seat
    from bot.games.dubb import DubbEngine, DubbOptions
    from bot.games.dubb.face import FACE
    from bot.games.dubb.moves import Play
    from bot.games.dubb.smart import smart_strategy

    aces = "aces turn the pile and you go again"
    assert tr("sv", aces) == "du spelar igen, eftersom ess vänder spelpackan"
    assert tr("da", aces) == "du spiller igen, fordi esser vender spillebunken"
    names = {1: "Anna", 2: "Bo"}
    game = DubbEngine.new([Seat(p, n) for p, n in names.items()], DubbOptions(), 1)
    rng = random.Random(1)
    while not game.is_over:
        player = game.to_move
        assert player is not None
        ace = next((m for m in game.private_view(player).legal_moves
                    if isinstance(m, Play) and m.rank == 14), None)
        if ace is not None:
            reason = FACE.move_reason(game, player, ace, labelled(names.items()), "sv")
            assert reason is not None and "du spelar igen, eftersom ess vänder spelpackan" in (
                reason) and " och du spelar" not in reason
            return
        game.apply(player, smart_strategy(game.observe(player), rng))
    pytest.fail("no ace to play in the whole game")


def test_sv_rated_tables_have_a_rating_not_a_ranking() -> None:
    """Item 13."""
    assert tr("sv", "Rated tables give no hints: a rating should measure your own play.") == (
        "Bord med rating ger inga tips: ratingen ska mäta ditt eget spel.")
    assert tr("sv", "Whether players may ask for hints (rated tables never give them)") == (
        "Om spelare får be om tips (bord med rating ger aldrig tips)")
    assert not [s for s in _strings("sv") if re.search(r"(?i)\brank(ad|ade|ing)", s)]


def test_sv_expected_chips_are_expected_not_awaited() -> None:
    """Item 14."""
    assert tr("sv", "Your expected chips for the hand after each of your decisions") == (
        "Förväntat antal spelmarker i given efter vart och ett av dina beslut")
    assert not [s for s in _strings("sv") if "väntade" in s]


def test_sv_native_phrasings() -> None:
    """Item 15."""
    off = ("it takes {n} point off your total", "it takes {n} points off your total")
    assert trn("sv", *off, 3) == "det sänker din summa med 3 poäng"
    assert tr("sv", "{game} event #{event} opened below: people press **Register** to take "
                    "part, and you press **Start** when everyone is in.", game="Tonk",
              event=3).startswith("Tonk-turnering #3 har öppnats nedan:")
    assert tr("sv", "Attach the finished tables' public record as JSON, to check with python "
                    "-m bot.verify").endswith("som JSON, för kontroll med python -m bot.verify")
    assert tr("sv", "Count the result for the skill ratings (tables with computers never "
                    "count)").startswith("Räkna med resultatet i ratingen (")
    assert tr("sv", "Events: tournaments across several tables") == (
        "Turneringar: spel vid flera bord")
    assert tr("da", "Events: tournaments across several tables") == (
        "Turneringer: spil ved flere borde")
    for wrong in ("drar {n} poäng", "är öppnad", "att kontrollera med", "till ratingen",
                  "över flera bord"):
        assert not [s for s in _strings("sv") if wrong in s], wrong


def test_da_a_deal_is_an_uddeling_and_a_hand_a_runde() -> None:
    """Item 16: the glossary's words in the fair-deal lines and the checks."""
    assert tr("da", "Fair deal") == "Fair uddeling"
    assert tr("da", "Hand {hand} is over; its secret: `{key}`", hand=2, key="k") == (
        "Runde 2 er slut; dens hemmelighed: `k`")
    assert tr("da", "Hand {hand}'s deal is committed to: `{commitment}`", hand=3,
              commitment="c") == "Uddelingen til runde 3 er låst på forhånd: `c`"
    assert tr("da", "Anyone can check it from the file alone: `python -m bot.verify FILE` "
                    "recomputes every deal from its revealed secret and replays every move "
                    "({doc}).", doc="d").endswith(
        "beregner hver uddeling igen ud fra dens afslørede hemmelighed og spiller hvert træk "
        "igen (d).")
    assert tr("da", "table {table} hand {hand} commitment matches its secret", table=1,
              hand=2) == "bord 1 runde 2: forhåndslåsningen stemmer med dens hemmelighed"
    assert tr("da", "table {table} deal", table=1) == "bord 1: uddelingen"
    assert not [s for s in _strings("da") if re.search(r"(?i)\bgivning|\bgiv \{hand\}|"
                                                        r"[Rr]etfærdig", s)]


def test_da_the_table_does_not_buy_a_round() -> None:
    """Item 17: "Bordet giver runde 3" reads as the table buying a round."""
    assert tr("da", "The table deals hand {hand}", hand=3) == "Runde 3 deles ud"
    assert not [s for s in _strings("da") if re.search(r"giver runde", s)]


def test_da_tables_with_a_rating() -> None:
    """Item 18."""
    assert tr("da", "Rated tables give no hints: a rating should measure your own play.") == (
        "Borde med rating giver ingen tip: din rating skal måle dit eget spil.")
    assert tr("da", "Whether players may ask for hints (rated tables never give them)") == (
        "Om spillere må bede om tip (borde med rating giver aldrig tip)")
    assert not [s for s in _strings("da") if re.search(r"(?i)\bratede?\b", s)]


def test_da_tonk_words() -> None:
    """Item 19: bankerommy, tip, situation (stilling is standings), giver (omgang is an
    event's round), vend … op."""
    assert tr("da", "Tonk: knock rummy for chips (play money), hand after hand, with a server "
                    "ledger") == ("Tonk: bankerommy om jetoner (legepenge), runde efter runde, "
                                  "med regnskab for serveren")
    assert tr("da", "hints") == tr("da", "hint") == "tip"
    assert tr("da", "The expert's move for your position, privately") == (
        "Ekspertens træk i din situation, kun for dig")
    assert tr("da", "{name} joined the table and deals last in the round", name="Bo") == (
        "Bo satte sig ved bordet og bliver giver som den sidste")
    assert tr("da", "Turn no card up after the deal; the first player draws from the "
                    "stock").startswith("Vend ikke noget kort op efter uddelingen;")
    assert not [s for s in _strings("da") if "i din stilling" in s or "sidst i omgangen" in s]
    rules = (RULES / "tonk.da.md").read_text(encoding="utf-8")
    assert "sidst i omgangen" not in rules


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
