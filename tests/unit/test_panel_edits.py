"""What a hand panel shows is trusted only after an edit that overlapped no other edit of it."""

from __future__ import annotations

from bot.discord.panels import PanelEdits

KEY = (1, 7)


def test_an_edit_alone_is_trusted() -> None:
    edits = PanelEdits()
    token = edits.begin(KEY)
    assert token[1] and edits.end(KEY, token)
    again = edits.begin(KEY)
    assert again[1] and edits.end(KEY, again)


def test_overlapping_edits_are_not_trusted_whichever_ends_first() -> None:
    edits = PanelEdits()
    first = edits.begin(KEY)
    second = edits.begin(KEY)
    assert not second[1]
    assert not edits.end(KEY, first)  # another began while it was in flight
    assert not edits.end(KEY, second)  # it began while another was in flight
    later = edits.begin(KEY)
    assert later[1] and edits.end(KEY, later)


def test_other_panels_do_not_overlap() -> None:
    edits = PanelEdits()
    mine = edits.begin(KEY)
    theirs = edits.begin((1, 8))
    assert edits.end((1, 8), theirs) and edits.end(KEY, mine)
