"""What must always hold in a Dubb game (``DubbEngine.check_invariants``), and the cheap part
of it a simulator runs after every move (``DubbEngine.check_quick``)."""

from __future__ import annotations

from bot.cards import ACE
from bot.games.dubb.deal import packs_set
from bot.games.dubb.options import MOVE_CAP
from bot.games.dubb.state import DubbState, rank_counts, streak_length
from bot.games.dubb.status import ACTIVE, NO_LIMIT, OUT, PENDING, STATUS_NAMES


def check_invariants(game: DubbState, full_deck: bool = True) -> list[str]:
    """Broken invariants, as text (empty when all hold): no card twice, every card of the
    packs somewhere (``full_deck``), statuses match hands and the streak, the hand limit,
    D6/D7 settled before the player to move acts, and a consistent end."""
    problems: list[str] = []
    pile = game._pile
    hands = game._hands
    all_cards = [c for h in hands for c in h]
    all_cards += game._draw
    for play in pile:
        all_cards += play[2]
    distinct = set(all_cards)
    if len(distinct) != len(all_cards):
        problems.append("a card is in two places")
    if full_deck and distinct != packs_set(game._options.decks, game._options.jokers):
        problems.append("the cards in play are not exactly the packs")
    if len(all_cards) != game._card_total:
        problems.append("cards not conserved")
    if game._pile_cards != sum(len(p[2]) for p in pile):
        problems.append("the running count of cards on the pile is out of date")
    if game._counts != [rank_counts(h) for h in hands]:
        problems.append("the running rank counts of a hand are out of date")
    streak = game._streak
    if streak != streak_length(pile):
        problems.append("streak length out of date")
    in_streak = {p[0] for p in pile[len(pile) - streak:]} if pile else set()
    over = game._to_move < 0
    outs: list[int] = []
    lefts: list[int] = []
    for i, st in enumerate(game._status):
        size = len(hands[i])
        if st == ACTIVE:
            # the last move of a game may leave its loser empty-handed but not yet pending
            if not size and not over:
                problems.append(f"seat {i} is active with no cards")
        elif size:
            problems.append(f"seat {i} is {STATUS_NAMES[st]} with {size} cards")
        elif st == PENDING:
            if i not in in_streak:
                problems.append(f"seat {i} is pending without a play in the streak (D10)")
        elif st == OUT:
            outs.append(i)
        else:
            lefts.append(i)
        if size > game._limit:
            problems.append(f"seat {i} holds {size} cards, over the hand limit")
    if sorted(game._out_order) != outs:
        problems.append("finishing order does not match the statuses")
    if sorted(game._left_order) != lefts:
        problems.append("leaving order does not match the statuses")
    _check_turn(game, problems)
    return problems


def check_quick(game: DubbState) -> list[str]:
    """The cheap part of ``check_invariants``, for after every move between full checks: no
    pass over the cards or the statuses. The number of cards, counted from the sizes of the
    hands and piles and the running count of cards on the pile; the hand limit; D7 and D6
    settled and the player to move holding cards; the cap. Cards swapped for others,
    statuses, the streak, the end and the running counts themselves wait for the full
    check (which a simulator runs after a game's last move)."""
    problems: list[str] = []
    hands = game._hands
    if len(game._draw) + game._pile_cards + sum(map(len, hands)) != game._card_total:
        problems.append("cards not conserved")
    if game._limit < NO_LIMIT and max(map(len, hands)) > game._limit:
        problems.append("a hand holds more cards than the hand limit")
    t = game._to_move
    pile = game._pile
    if pile:
        seat, rank, _ = pile[-1]
        if rank == ACE:
            problems.append("aces on top of the pile (D7)")
        if seat == t:
            problems.append("the player to move owns the top play (D6)")
    if t >= 0 and (game._status[t] != ACTIVE or game._move_count >= MOVE_CAP):
        problems.append(f"seat {t} is to move but is not active, or the cap is passed")
    return problems


def _check_turn(game: DubbState, problems: list[str]) -> None:
    """D7 settled; the player to move active, D6 settled, two players in and the cap not
    reached; or, once the game is over, every player ranked once."""
    pile = game._pile
    if pile and pile[-1][1] == ACE:
        problems.append("aces on top of the pile (D7)")
    t = game._to_move
    if t >= 0:
        if game._status[t] != ACTIVE:
            problems.append(f"seat {t} is to move but is {STATUS_NAMES[game._status[t]]}")
        if pile and pile[-1][0] == t:
            problems.append("the player to move owns the top play (D6)")
        if game._n - len(game._out_order) - len(game._left_order) < 2:
            problems.append("the game goes on with fewer than two players in")
        if game._move_count >= MOVE_CAP:
            problems.append("the game goes on past the move cap (D13)")
    elif sorted(game._ranking) != list(range(game._n)):
        problems.append("the final ranking is not every player once")
