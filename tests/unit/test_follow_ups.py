"""Where only interactions write a table (issue 45), Discord lets each interaction of a
user-installed app have five follow-ups: the table's posts count them, and a click whose answer
came late (as a follow-up itself) leaves the table one fewer."""

from __future__ import annotations

from bot.discord.reach import FOLLOWUPS_PER_INTERACTION, FollowUps


def test_the_table_posts_at_most_five_follow_ups_of_one_click() -> None:
    sent = FollowUps()
    for _ in range(FOLLOWUPS_PER_INTERACTION - 1):
        assert sent.room("click")
        sent.spend("click")
    assert sent.room("click")
    sent.spend("click")
    assert not sent.room("click")
    assert sent.room("another click")


def test_a_click_answered_late_leaves_the_table_one_follow_up_fewer() -> None:
    sent = FollowUps()
    for _ in range(FOLLOWUPS_PER_INTERACTION - 1):
        sent.spend("late click")
    assert sent.room("late click")
    # its own answer was a follow-up (acknowledged late): the fifth is already taken
    assert not sent.room("late click", answered=True)
