"""What each seat may see: the public view (everyone), the private view (one player), and the
compact ``SeatView`` that strategies decide from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.games.tonk.engine import TURN_CAP, Phase, TableSpread
from bot.games.tonk.moves import Move, move_to_dict
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.spreads import hand_total, sort_cards

if TYPE_CHECKING:
    from bot.games.tonk.engine import TonkTable


def public_view(table: TonkTable) -> dict[str, Any]:
    """Spreads with owners and ids, discard top, stock size, hand sizes, whose turn, phase,
    dealer, stake, hand number, hit-lock status, the cut for deal (T3); the last finished hand
    with every total and hand revealed."""
    in_hand = set(table.hand_players) if table.phase in (Phase.START, Phase.AFTER_DRAW) else set()
    locked = table.hit_locked
    result = table.last_hand_result
    return {
        "kind": table.KIND,
        "hand_number": table.hand_number,
        "phase": table.phase.value,
        "dealer": table.dealer,
        "next_dealer": table.next_dealer,
        "to_move": table.to_move,
        "stake": table.options.stake,
        "options": table.options.model_dump(),
        "seats": [
            {
                "player_id": s.player_id,
                "name": s.name,
                "hand_size": table.hand_size(s.player_id) if s.player_id in in_hand else None,
                "hit_locked": s.player_id in locked,
                "timeouts_in_a_row": table.timeouts_in_a_row(s.player_id),
            }
            for s in table.seats
        ],
        "spreads": [{"id": sp.id, "label": sp.label, "owner": sp.owner, "cards": list(sp.cards)}
                    for sp in table.spreads],
        "discard_top": table.discard_top,
        "discard_size": table.discard_size,
        "stock_size": table.stock_size,
        "turns": table.turns,
        "turn_cap": TURN_CAP,
        "hit_lock": table.options.hit_lock,
        "hit_locked": sorted(locked),
        "cut": None if table.cut is None else {
            "rounds": [[[p, card] for p, card in r] for r in table.cut.rounds],
            "dealer": table.cut.dealer,
        },
        "last_hand_result": None if result is None else result.to_dict(),
    }


def private_view(table: TonkTable, player_id: int) -> dict[str, Any]:
    """The player's own hand (Tonk order), its total, and the moves open to them now."""
    hand = table.hand_of(player_id) if player_id in table.hand_players else ()
    return {
        "player_id": player_id,
        "hand": list(sort_cards(hand)),
        "total": hand_total(hand),
        "taken_discard": table.taken_discard if table.to_move == player_id else None,
        "legal_moves": [move_to_dict(m) for m in table.legal_moves(player_id)],
    }


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know at its decision point, and nothing more.

    ``hand_sizes`` lists the other players of the hand in turn order starting after this seat.
    """

    player_id: int
    phase: Phase
    options: TonkOptions
    hand: tuple[int, ...]
    legal: tuple[Move, ...]
    spreads: tuple[TableSpread, ...]
    discard_top: int | None
    stock_size: int
    hand_sizes: tuple[tuple[int, int], ...]
    taken_discard: int | None
    hit_locked: bool
    turns: int


def seat_view(table: TonkTable, player_id: int) -> SeatView:
    # reads the table's internals directly: the simulator builds one of these per move
    players = table._players
    hands = table._hands
    if player_id in hands:
        i = players.index(player_id)
        others = players[i + 1:] + players[:i]
    else:
        others = players
    discards = table._discards
    return SeatView(
        player_id,
        table.phase,
        table.options,
        tuple(hands.get(player_id, ())),
        tuple(table.legal_moves(player_id)),
        tuple(table._spreads),
        discards[-1] if discards else None,
        len(table._stock),
        tuple((p, len(hands[p])) for p in others),
        table._taken if table.to_move == player_id else None,
        player_id in table._locked,
        table.turns,
    )
