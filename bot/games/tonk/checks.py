"""What must always hold at a Tonk table (``TonkEngine.check_invariants``), and the cheap part
of it a simulator runs after every move (``TonkEngine.check_quick``)."""

from __future__ import annotations

from bot.games.tonk.settlement import net
from bot.games.tonk.spreads import FULL_DECK, is_spread
from bot.games.tonk.state import TonkState
from bot.games.tonk.terms import (
    AFTER_DRAW,
    HAND_OVER,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START,
    TABLE_CLOSED,
    TURN_CAP,
)


def check_invariants(table: TonkState) -> list[str]:
    """What must always hold; an empty list when all is well.

    The 52 cards are all in the stock, discard pile, hands and spreads, each once; every spread
    is valid (T6); hand sizes stay within what a turn allows; between hands, the last hand's
    payments net to zero. ``check_quick`` is the cheap subset a simulator runs between these.
    """
    problems = _check_seats(table)
    if table.hand_number == 0:
        return problems
    if set(table._hands) != set(table._players):
        problems.append("hands do not match the hand's players")
        return problems
    cards = table._stock + table._discards
    for h in table._hands.values():
        cards += h
    players = table._players
    in_spreads = 0
    for sp in table._spreads:
        cards += sp.cards
        in_spreads += len(sp.cards)
        if not is_spread(sp.cards):
            problems.append(f"spread S{sp.id} is not a valid book or run")
        if sp.owner not in players:
            problems.append(f"spread S{sp.id} has an owner outside the hand")
    if len(cards) != len(FULL_DECK) or set(cards) != FULL_DECK:
        problems.append(f"cards not conserved: {len(cards)} cards, {len(set(cards))} distinct")
    if in_spreads != table._in_spreads:
        problems.append("the running count of cards in spreads is out of date")
    if len({sp.id for sp in table._spreads}) != len(table._spreads):
        problems.append("two spreads share an id")
    _check_turn(table, problems)
    return problems


def check_quick(table: TonkState) -> list[str]:
    """The cheap part of ``check_invariants``, for after every move between full checks: no pass
    over the cards or the seats, only what one move can change. The number of cards, counted from
    the sizes of the piles and the running count of cards in spreads; the spreads the last move
    laid or hit; the hand of the player to move (the only one a move makes larger); the cap and
    the player to move. Cards swapped for others, damage the move did not touch, the seats and a
    hand's payments (a hand's end is always fully checked) wait for the full check."""
    problems: list[str] = []
    if table.hand_number == 0:
        return problems
    hands = table._hands
    count = (len(table._stock) + len(table._discards) + table._in_spreads
             + sum(map(len, hands.values())))
    if count != len(FULL_DECK):
        problems.append(f"cards not conserved: {count} cards")
    for i in table._touched:
        sp = table._spreads[i]
        if not is_spread(sp.cards):
            problems.append(f"spread S{sp.id} is not a valid book or run")
        if sp.owner not in hands:
            problems.append(f"spread S{sp.id} has an owner outside the hand")
    phase = table.phase
    if phase is START or phase is AFTER_DRAW:
        hand = hands.get(table.to_move)  # type: ignore[arg-type]
        if hand is None:
            problems.append("the player to move is not in the hand")
        elif not 0 < len(hand) <= (HAND_SIZE if phase is START else HAND_SIZE + 1):
            problems.append("the hand of the player to move holds no cards or too many")
        if table.turns >= TURN_CAP:
            problems.append("the turn cap was passed")
    elif table.to_move is not None:
        problems.append("a player to move between hands")
    return problems


def _check_seats(table: TonkState) -> list[str]:
    problems: list[str] = []
    seat_ids = [s.player_id for s in table._seats]
    if len(set(seat_ids)) != len(seat_ids):
        problems.append("a player is seated twice")
    if table.phase is not TABLE_CLOSED and not MIN_PLAYERS <= len(seat_ids) <= MAX_PLAYERS:
        problems.append(f"{len(seat_ids)} players seated at an open table")
    return problems


def _check_turn(table: TonkState, problems: list[str]) -> None:
    """Hand sizes, the player to move and the cap during a hand; the payments after it."""
    phase = table.phase
    players = table._players
    if phase is START or phase is AFTER_DRAW:
        if table.to_move not in players or [s.player_id for s in table._seats] != players:
            problems.append("the player to move or the seats do not match the hand")
        else:
            limit = HAND_SIZE if phase is START else HAND_SIZE + 1
            sizes = [len(h) for h in table._hands.values()]
            if max(sizes) > limit:
                problems.append("a hand holds more cards than a turn allows")
            if min(sizes) == 0:
                problems.append("an empty hand while the hand is still being played")
        if table.turns >= TURN_CAP:
            problems.append("the turn cap was passed")
    elif table.to_move is not None:
        problems.append("a player to move between hands")
    result = table.last_hand_result
    if result is not None and phase in (HAND_OVER, TABLE_CLOSED):
        for p in result.payments:
            if p.amount <= 0 or p.payer == p.payee:
                problems.append("a payment of nothing, or to oneself")
            if p.payer not in result.players or p.payee not in result.players:
                problems.append("a payment involving a player outside the hand")
        if sum(net(result.payments).values()) != 0:
            problems.append("the hand's payments do not sum to zero")
