"""Tonk rendering: plain-word events, the public table (no hand card before the reveal), the hand
panel's moves per phase, and the ledger embeds."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot import cards
from bot.discord.common import DESCRIPTION_LIMIT, FIELD_LIMIT, labelled
from bot.discord.routing import RoutedButton, RoutedSelect
from bot.discord.rows import Rows
from bot.gamekit.contract import Seat
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Phase,
    Spread,
    TonkEngine,
    TonkOptions,
    event_to_dict,
    public_form,
)
from bot.games.tonk.face import pictures
from bot.games.tonk.face.ledger import (
    LedgerQuery,
    Standing,
    entries_embed,
    ledger_view,
    standings_embed,
)
from bot.games.tonk.face.render import (
    LINE_LIMIT,
    cut_text,
    describe,
    hand_panel,
    move_notice,
    parse_cards_value,
    parse_hit_value,
    spread_label,
    spread_text,
    summary,
    table_render,
)
from bot.games.tonk.face.scene import table_scene
from bot.storage.models import LedgerEntry
from tests.e2e.tonk_table import cards_shown
from tests.engine.test_tonk_engine import cs, make_table

RULE_CODE = re.compile(r"\bT\d{1,2}\b")
"""A ruling's number (T5): for logs and the full rules, never in what players read."""

NAMES = {1: "Anna", 2: "Bo", 3: "Cem"}
EN = "en"


def _lines(table: TonkEngine, player: int, move: Any) -> list[str]:
    return describe([public_form(event_to_dict(e)) for e in table.apply(player, move)], NAMES,
                    EN)


def _panel(table: TonkEngine, player: int, notice: str | None = None
           ) -> tuple[str, Rows]:
    panel = hand_panel(table.public_view(), table.private_view(player), table_id=7, counter=3,
                       names=NAMES, lang=EN, notice=notice)
    return panel.content, panel.view


def _components(view: Rows) -> list[Any]:
    return list(view.children)


def _labels(view: Rows) -> list[str]:
    return [c.label for c in _components(view) if isinstance(c, RoutedButton)]


def _selects(view: Rows) -> dict[str, list[str]]:
    """action → option values, over every select of the panel."""
    out: dict[str, list[str]] = {}
    for c in _components(view):
        if isinstance(c, RoutedSelect):
            action = c.custom_id.split(":")[3]
            out.setdefault(action, []).extend(o.value for o in c.options)
    return out


def test_spreads_are_labelled_the_way_players_name_them() -> None:
    assert spread_text(cs("7c 5c 6c")) == "♣5-6-7"
    assert spread_text(cs("3s As 2s")) == "♠A-2-3"  # the ace is low in Tonk (T6)
    assert spread_text(cs("7s 7h 7d")) == "7♠ 7♥ 7♦"
    assert spread_label(1, cs("5c 6c 7c"), 1, NAMES, EN) == "S1 ♣5-6-7 (Anna)"


def test_moves_read_as_plain_words_and_a_drawn_card_stays_private() -> None:
    table = make_table({1: "2s 3h 9d Jc Kc", 2: "4s 5h 6d 8c Qh", 3: "As 2h 3d 4c 5d"},
                       discards="9h", spreads=[(1, "5c 6c 7c")], stock_top="Ks")
    drew = table.apply(1, DrawStock())
    public = [public_form(event_to_dict(e)) for e in drew]
    assert describe(public, NAMES, EN) == ["Anna drew from the stock"]
    assert "K♠" not in str(describe(public, NAMES, EN))
    assert move_notice(drew, 1, EN) == "You drew **K♠** from the stock."
    assert move_notice(drew, 2, EN) is None
    assert _lines(table, 1, Discard(cs("Ks")[0])) == ["Anna discarded K♠"]
    assert _lines(table, 2, DrawDiscard()) == ["Bo took K♠ from the discard pile"]
    assert _lines(table, 2, Hit(1, cs("8c"))) == ["Bo hit S1 with 8♣"]


def _ended(table: TonkEngine) -> str:
    """How the hand that just ended is told: once, in the table's description."""
    render = table_render(table.public_view(), [], table_id=1, counter=4, names=NAMES, lang=EN)
    return str(render.embed.description).splitlines()[0]


def test_a_caught_drop_names_the_catchers_and_their_totals() -> None:
    """T10: Anna drops with 6; Bo holds 4 and Cem 9 — Anna is caught by Bo."""
    table = make_table({1: "2s 4h", 2: "As 3h", 3: "4s 5h"}, to_move=1)
    assert _lines(table, 1, Drop()) == ["Hand 1 is over"]
    assert _ended(table) == "**Anna dropped with 6 and was caught by Bo (4).**"


def test_a_won_drop_a_tonk_out_and_a_stock_out_in_words() -> None:
    won = make_table({1: "As 2h", 2: "9s 9h", 3: "8s 8h"}, to_move=1)
    _lines(won, 1, Drop())
    assert _ended(won) == "**Anna dropped with 3 and won.**"
    out = make_table({1: "5c 6c 7c Ks", 2: "9s 9h", 3: "8s 8h"}, to_move=1,
                     phase=Phase.AFTER_DRAW, spreads=[(2, "Kh Kd Kc")])
    out.apply(1, Hit(1, cs("Ks")))
    lines = _lines(out, 1, Spread(cs("5c 6c 7c")))
    assert lines == ["Anna laid S2 ♣5-6-7", "Hand 1 is over"]
    assert _ended(out) == "**Anna tonked out.**"
    dry = make_table({1: "As 2h", 2: "9s 9h", 3: "8s 8h"}, to_move=2, stock_empty=True)
    lines = _lines(dry, 2, EndHand())
    assert lines[0] == "Bo ended the hand, as the stock is empty"
    assert _ended(dry) == "**The stock ran out; the lowest total was 3 (Anna).**"


def test_the_cut_shows_ranks_only_because_suits_never_decide_it() -> None:
    """T3: K high, ace low; tied players cut again."""
    event = {"type": "cut_for_deal", "dealer": 2,
             "rounds": [[[1, cs("Ks")[0]], [2, cs("Kh")[0]], [3, cs("2d")[0]]],
                        [[1, cs("As")[0]], [2, cs("5c")[0]]]]}
    text = cut_text(event, NAMES, EN)
    assert text == ("Cut for deal: Anna K · Bo K · Cem 2 | Anna A · Bo 5 (a tie is cut again) "
                    "→ **Bo** deals")
    assert cards_shown(text) == set()


def test_stored_events_with_private_cards_are_described_without_them() -> None:
    """The move log keeps private cards beside the public part; lines never read them."""
    stored = {"type": "drew_from_stock", "player": 1, "stock_size": 30,
              "private": {"card": cs("Qd")[0]}}
    assert describe([stored], NAMES, EN) == ["Anna drew from the stock"]


def test_public_table_never_shows_a_card_of_a_hand_in_play_over_many_hands() -> None:
    """Until a hand is over, every card on the public table was laid open in that hand."""
    rng = random.Random(5)
    table = TonkEngine.new([Seat(p, n) for p, n in NAMES.items()], TonkOptions(), seed=9)
    recent: list[str] = []
    public: set[int] = set()
    reveals = 0
    for _ in range(600):
        if table.phase is Phase.HAND_OVER:
            events = table.apply(1, DealNextHand())
        else:
            player = table.to_move
            assert player is not None
            events = table.apply(player, rng.choice(table.legal_moves(player)))
        for e in (public_form(event_to_dict(x)) for x in events):
            if e["type"] == "dealt":
                public = set() if e["upcard"] is None else {e["upcard"]}
                recent = []
            elif e["type"] in ("discarded", "drew_from_discard"):
                public.add(e["card"])
            elif e["type"] in ("spread_laid", "hit"):
                public.update(e["cards"])
        shown_events = [public_form(event_to_dict(x)) for x in events]
        recent = (recent + describe(shown_events, NAMES, EN))[-6:]
        render = table_render(table.public_view(), recent, table_id=1, counter=0, names=NAMES,
                              lang=EN)
        text = str(render.embed.to_dict()) + str(render.content) + str(
            [getattr(c, "label", "") for c in _components(render.view)] if render.view else "")
        assert not RULE_CODE.search(text), text
        for p in NAMES:
            assert not RULE_CODE.search(_panel(table, p)[0])
        shown = cards_shown(text)
        if table.phase in (Phase.START, Phase.AFTER_DRAW):
            held = {c for p in NAMES for c in table.hand(p)} - public
            assert not shown & held, [cards.display(c) for c in shown & held]
        else:
            # the reveal: every hand and total of the hand that just ended
            reveals += 1
            result = table.last_hand_result
            assert result is not None
            assert {c for h in result.hands for c in h} <= shown
    assert reveals > 10


def test_start_of_turn_panel_offers_drop_draws_and_names_the_discard() -> None:
    table = make_table({1: "2s 3h 9d Jc Kc", 2: "4s 5h 6d 8c Qh", 3: "As 2h 3d 4c 5d"},
                       discards="9h")
    text, view = _panel(table, 1)
    assert _labels(view) == ["Drop (34)", "Draw from stock", "Take 9♥", "Refresh"]
    assert "2♠ 3♥ 9♦ J♣ K♣ · total **34**" in text
    _, waiting = _panel(table, 2)
    assert _labels(waiting) == ["Refresh"]
    empty = make_table({1: "2s 3h", 2: "4s 5h", 3: "As 2h"}, stock_empty=True)
    text, view = _panel(empty, 1)
    assert "End the hand" in _labels(view) and "Draw from stock" not in _labels(view)
    assert "stock is empty" in text


def test_hit_lock_takes_the_drop_button_away() -> None:
    """T9: a player whose spread was hit may not drop on their next turn."""
    table = make_table({1: "2s 3h 9d Jc", 2: "4s 5h 6d 8c", 3: "As 2h 3d 4c"}, hit_locked=[1],
                       options=TonkOptions(hit_lock=True), spreads=[(1, "5c 6c 7c")])
    text, view = _panel(table, 1)
    assert not any(label.startswith("Drop") for label in _labels(view))
    assert "may not drop this turn" in text and not RULE_CODE.search(text)


def test_after_drawing_the_selects_hold_exactly_the_legal_moves() -> None:
    table = make_table({1: "4c 8c 8s 8h 2d Kd", 2: "4s 5h 6d 8d Qh", 3: "As 2h 3d 4h 5d"},
                       phase=Phase.AFTER_DRAW, spreads=[(2, "5c 6c 7c")], discards="9h",
                       taken="Kd")
    text, view = _panel(table, 1)
    values = _selects(view)
    legal = table.legal_moves(1)
    assert {Spread(parse_cards_value(v)) for v in values["spread"]} == {
        m for m in legal if isinstance(m, Spread)}
    assert {Hit(*parse_hit_value(v)) for v in values["hit"]} == {
        m for m in legal if isinstance(m, Hit)}
    assert {Discard(int(v)) for v in values["discard"]} == {
        m for m in legal if isinstance(m, Discard)}
    assert str(cs("Kd")[0]) not in values["discard"]  # T5: not the card just taken
    assert "so you may not discard it this turn" in text
    labels = [o.label for c in _components(view) if isinstance(c, RoutedSelect)
              for o in c.options]
    assert "Hit S1 ♣5-6-7 (Bo) with 4♣" in labels and "Lay 8♠ 8♥ 8♣" in labels
    ids = [c.custom_id for c in _components(view)]
    assert len(ids) == len(set(ids)) and all(":3" in i for i in ids if "hand" not in i)


def test_must_spread_leaves_no_discard_until_the_spread_is_laid() -> None:
    """T6: with must spread, discarding is illegal while a complete spread is held."""
    table = make_table({1: "8c 8s 8h 2d Kd Qs", 2: "4s 5h 6d 8d Qh", 3: "As 2h 3d 4h 5d"},
                       phase=Phase.AFTER_DRAW, options=TonkOptions(must_spread=True))
    text, view = _panel(table, 1)
    assert "discard" not in _selects(view) and "spread" in _selects(view)
    assert "must spread" in text


def test_many_hits_are_split_over_several_menus_of_at_most_25() -> None:
    table = make_table({1: "4c 8c 8s", 2: "4s 5h 6d", 3: "As 2h 3d"}, phase=Phase.AFTER_DRAW,
                       spreads=[(2, "9c 10c Jc")])
    private = table.private_view(1)
    deck = cards.new_deck()
    fake_hits = [Hit(1, (deck[n % 52], deck[(n * 7 + 1) % 52])) for n in range(80)]
    private = replace(private, legal_moves=(*fake_hits, Discard(cs("8s")[0])))
    panel = hand_panel(table.public_view(), private, table_id=7, counter=3, names=NAMES,
                       lang=EN)
    text, view = panel.content, panel.view
    selects = [c for c in _components(view) if isinstance(c, RoutedSelect)]
    assert len(selects) == 4 and all(len(s.options) <= 25 for s in selects)
    assert "/tonk hit" in text  # 80 hits do not fit in three menus


def test_between_hands_the_table_reveals_hands_and_lists_payments() -> None:
    table = make_table({1: "2s 4h", 2: "As 3h", 3: "4s 5h"}, to_move=1)
    table.apply(1, Drop())
    render = table_render(table.public_view(), ["Hand 1 is over"], table_id=1, counter=4,
                          names=NAMES, lang=EN)
    embed = render.embed.to_dict()
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Hands revealed"].splitlines() == [
        "#1 Anna — **6**: 2♠ 4♥ · −3", "#2 🏆 Bo — **4**: A♠ 3♥ · +4",
        "#3 Cem — **9**: 4♠ 5♥ · −1"]
    # the same two players' payments are one line, with the breakdown
    assert fields["Payments"].splitlines() == [
        "Anna pays Bo 3 (2 caught dropping + 1 lowest after the drop)",
        "Cem pays Bo 1 (lowest after the drop)",
    ]
    # the result is said once: in the description, not again in a field
    said = str(embed).count("caught by")
    assert said == 1 and "This hand" not in fields
    assert "<@" not in (render.content or "")
    assert render.view is not None
    assert [c.label for c in _components(render.view)] == [
        "Deal next hand", "Join", "Leave", "Rules"]
    _, panel = _panel(table, 2)
    assert _labels(panel) == ["Deal next hand", "Refresh"]


def test_revealed_hands_are_pictured_in_the_order_and_under_the_numbers_of_their_lines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: the picture showed each hand as dealt (7♥ 10♠ K♣ J♠ 2♥) under no label,
    where the text sorts them (2♥ 7♥ 10♠ J♠ K♣) and names the player."""
    table = make_table({1: "7h 10s Kc Js 2h", 2: "As 2s 3h"}, to_move=1)
    table.apply(1, Drop())
    view = table.public_view()
    fields = {f["name"]: f["value"] for f in table_render(
        view, [], table_id=1, counter=4, names=NAMES, lang=EN).embed.to_dict()["fields"]}
    lines = fields["Hands revealed"].splitlines()
    assert lines[0].startswith("#1 Anna — **39**: 2♥ 7♥ 10♠ J♠ K♣")
    assert lines[1].startswith("#2 🏆 Bo — **6**: A♠ 2♠ 3♥")
    drawn: list[Any] = []
    real = pictures.render

    def spy(rows: Any, **kw: Any) -> Any:
        drawn.extend(rows)
        return real(rows, **kw)

    monkeypatch.setattr(pictures, "render", spy)
    image = pictures.table_picture(view, {1: "Anna", 2: "Bo"}, EN)
    assert image is not None
    assert [(g.label, [cards.display(c) for c in g.cards]) for [g] in drawn] == [
        ("#1", ["2♥", "7♥", "10♠", "J♠", "K♣"]), ("#2", ["A♠", "2♠", "3♥"])]
    assert image.alt.startswith("Hands revealed: #1 Anna: ")


def test_payment_amounts_are_written_as_the_language_writes_numbers() -> None:
    """Issue 36: "Anna betalar Bo 15000 (10000 …)" beside "5 000 marker"."""
    table = make_table({1: "2s 4h", 2: "As 3h"}, to_move=1, options=TonkOptions(stake=5000))
    table.apply(1, Drop())
    expected = {"en": "15,000", "sv": "15\xa0000", "da": "15.000", "nb": "15\xa0000"}
    for lang, amount in expected.items():
        fields = {f["name"]: f["value"] for f in table_render(
            table.public_view(), [], table_id=1, counter=4, names=NAMES,
            lang=lang).embed.to_dict()["fields"]}
        paid = list(fields.values())[1]
        assert f" {amount} (" in paid, (lang, paid)
        assert "15000" not in paid and "10000" not in paid, (lang, paid)


def test_ledger_standings_are_signed_and_paged() -> None:
    rows = [Standing(player_id=n, name=f"P{n}", is_computer=False, net=10 - 3 * n,
                     hands_played=5, hands_won=n % 2, tonks=1 if n == 1 else 0)
            for n in range(1, 6)]
    first = standings_embed(rows, page=0, scope="this server", lang=EN, page_size=2).to_dict()
    assert first["description"].splitlines() == [
        "1. **P1** +7 · 5 hands played · 1 won · 1 tonk",
        "2. **P2** +4 · 5 hands played · 0 won",
    ]
    assert first["footer"]["text"] == "Page 1 of 3 · 5 players"
    last = standings_embed(rows, page=9, scope="this server", lang=EN, page_size=2).to_dict()
    assert last["description"] == "5. **P5** −5 · 5 hands played · 1 won"
    view = ledger_view(LedgerQuery(None, 12), page=1, count=5, lang=EN, page_size=2)
    assert view is not None
    ids = [c.custom_id for c in view.children]  # type: ignore[attr-defined]
    assert ids == ["kb:tonk:12:ledger:0:s", "kb:tonk:12:ledger:2:s"]
    assert ledger_view(LedgerQuery(), page=0, count=2, lang=EN, page_size=2) is None
    assert LedgerQuery.parse("p42", 0) == LedgerQuery(42, None)
    for query in (LedgerQuery(None, 3), LedgerQuery(7, None, 2), LedgerQuery(None, None, 4)):
        assert LedgerQuery.parse(query.arg, query.table_id or 0) == query


def test_a_players_entries_show_counterpart_amount_and_reason() -> None:
    entries = [
        LedgerEntry(id=2, guild_id=1, kind="tonk", season=1, table_id=4, hand_no=2, payer_id=1,
                    payer_name="Anna",
                    payee_id=2, payee_name="Bo", amount=4, reason="caught", created_at=0),
        LedgerEntry(id=1, guild_id=1, kind="tonk", season=1, table_id=4, hand_no=1, payer_id=3,
                    payer_name="Cem",
                    payee_id=1, payee_name="Anna", amount=2, reason="tonk_out", created_at=0),
    ]
    embed = entries_embed(entries, 1, "Anna", page=0, scope="this server", lang=EN).to_dict()
    assert embed["description"].splitlines() == [
        "Table 4 · hand 2 · **−4** to Bo (caught dropping)",
        "Table 4 · hand 1 · **+2** from Cem (tonk out)",
    ]
    assert embed["fields"][0]["value"] == "−2"


def test_computer_players_are_said_never_to_deal_only_when_some_sit_at_the_table() -> None:
    people = make_table({1: "2s 4h", 2: "As 3h", 3: "4s 5h"}, to_move=1)
    people.apply(1, Drop())
    assert "Deal next hand" in _panel(people, 1)[0]
    assert "computer" not in _panel(people, 1)[0]
    with_computer = make_table({1: "2s 4h", 2: "As 3h", -3: "4s 5h"}, to_move=1)
    with_computer.apply(1, Drop())
    assert "(computer players never deal)" in _panel(with_computer, 1)[0]


def test_latest_keeps_the_newest_lines_within_a_field_whatever_the_names() -> None:
    """Four players with 32-character names (markdown doubles some when escaped): the table's
    fields stay within Discord's limits before any cutting, and Latest keeps the newest line."""
    long = {p: "_*" * 16 for p in (1, 2, 3, 4)}
    names = labelled(long.items())
    table = TonkEngine.new([Seat(p, n) for p, n in long.items()], TonkOptions(), seed=3)
    rng = random.Random(1)
    recent: list[str] = []
    for _ in range(300):
        if table.phase is Phase.HAND_OVER:
            events = table.apply(1, DealNextHand())
        else:
            player = table.to_move
            assert player is not None
            events = table.apply(player, rng.choice(table.legal_moves(player)))
        recent = (recent + describe([public_form(event_to_dict(e)) for e in events], names,
                                    EN))[-6:]
        embed = table_render(table.public_view(), recent, table_id=1, counter=0, names=names,
                             lang=EN).embed
        assert all(len(f.value or "") <= FIELD_LIMIT for f in embed.fields)
        assert len(embed.description or "") <= DESCRIPTION_LIMIT
        latest = next(f.value for f in embed.fields if f.name == "Latest")
        assert (latest is not None and latest.splitlines()[-1] == recent[-1][:LINE_LIMIT - 1]) \
            or latest.splitlines()[-1].endswith("…")


def test_a_finished_table_sums_up_hands_played_and_each_net() -> None:
    table = make_table({1: "2s 4h", 2: "As 3h", 3: "4s 5h"}, to_move=1)
    table.apply(1, Drop())
    text = summary(table.public_view(), NAMES, {1: -3, 2: 4, 3: -1}, EN)
    assert text == "1 hand played. Net at this table: Bo +4, Cem −1, and Anna −3."
    assert summary(table.public_view(), NAMES, None, EN) == "1 hand played."


def test_every_word_on_the_table_and_panel_goes_through_the_translations() -> None:
    """In the pseudo-language every message is wrapped in ⟦…⟧: once the wrapped parts are
    taken out, only names, cards, numbers and signs are left."""
    table = make_table({1: "2s 3h 9d Jc Kc", 2: "4s 5h 6d 8c Qh", 3: "As 2h 3d 4c 5d"},
                       discards="9h", spreads=[(1, "5c 6c 7c")])
    shown = []
    events = table.apply(1, DrawStock())
    for player in NAMES:
        panel = hand_panel(table.public_view(), table.private_view(player), table_id=7,
                           counter=3, names=NAMES, lang="qps")
        shown += [panel.content, *(_all_labels(panel.view))]
    render = table_render(table.public_view(), describe(
        [public_form(event_to_dict(e)) for e in events], NAMES, "qps"), table_id=1, counter=0,
        names=NAMES, lang="qps")
    shown += [str(render.content), *_embed_texts(render.embed), *_all_labels(render.view)]
    for text in shown:
        while re.search(r"⟦[^⟦⟧]*⟧", text):
            text = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
        for name in NAMES.values():
            text = text.replace(name, "")
        assert not re.search(r"[a-zA-Z]{2,}", text), text


def _all_labels(view: Rows | None) -> list[str]:
    out: list[str] = []
    for c in _components(view) if view is not None else []:
        if isinstance(c, RoutedButton):
            out.append(str(c.label))
        elif isinstance(c, RoutedSelect):
            out += [str(c.placeholder), *(o.label for o in c.options),
                    *(o.description or "" for o in c.options)]
    return out


def _embed_texts(embed: discord.Embed) -> list[str]:
    return [str(embed.title), str(embed.description or ""), str(embed.footer.text or ""),
            *(f"{f.name} {f.value}" for f in embed.fields)]


def test_the_activitys_scene_shows_a_hands_result_only_until_the_next_deal() -> None:
    """docs/activity.md: a scene's ``result`` is null while a hand is in play. The engine keeps
    the last hand's result through the next hand (the table message reports it); the scene
    showed it beside the new hand's cards until that hand ended."""
    names = {1: "Anna", -1: "Astrid", -2: "Bo"}
    game = TonkEngine.new([Seat(p, n) for p, n in names.items()], TonkOptions(), seed=3)
    rng = random.Random(1)
    seen = set()
    while game.public_view().hand_number < 4:
        view = game.public_view()
        scene = table_scene(view, names, "en", finished=False)
        seen.add(scene.state)
        if scene.state == "playing":
            assert scene.result is None, view.hand_number
        else:
            assert scene.state == "between" and scene.result
        player = game.to_move if game.to_move is not None else 1
        game.apply(player, rng.choice(game.legal_moves(player)))
    assert seen == {"playing", "between"}
