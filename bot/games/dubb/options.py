"""Table options of a Dubb game (D1) and the deal size they allow (D2)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.gamekit.contract import RuleError

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_LIMIT = 7
"""The optional hand limit (Part A, D5, D8)."""
MOVE_CAP = 2000
"""D13: the engine ends a game after this many moves (plays, draws, passes)."""

# D2: players -> (fewest, most, default) cards each, so that 20–25 cards are dealt in total
_DEAL: dict[int, tuple[int, int, int]] = {
    2: (10, 12, 12),
    3: (7, 8, 8),
    4: (5, 6, 6),
    5: (4, 5, 5),
    6: (4, 4, 4),
}


class DubbOptions(BaseModel):
    """The options a table fixes when the game starts (D1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decks: Literal[1, 2] = 1
    jokers: bool = False
    hand_limit: bool = False
    last_player_draw_play: bool = False
    cards_each: int | None = Field(default=None, ge=1)

    def allowed_cards_each(self, players: int) -> tuple[int, ...]:
        """Every ``cards_each`` that D2 allows for ``players`` with these options (for a lobby's
        choices; the default is what ``effective_cards_each`` gives when ``cards_each`` is None)."""
        check_player_count(players)
        low, high, _ = _deal_range(players, self.hand_limit)
        return tuple(range(low, high + 1))

    def effective_cards_each(self, players: int) -> int:
        """The number of cards each player is dealt, or a ``RuleError`` (D1/D2) whose message
        can be shown to users as it is."""
        check_player_count(players)
        low, high, default = _deal_range(players, self.hand_limit)
        if self.cards_each is None:
            return default
        if low <= self.cards_each <= high:
            return self.cards_each
        if self.hand_limit and players <= 3:
            raise RuleError(
                "D2", "with the hand limit on, {players} players get exactly {limit} cards each, "
                "so that no hand starts over the limit", players=players, limit=HAND_LIMIT)
        if low == high:
            raise RuleError("D2", "with {players} players each player gets exactly {low} cards, "
                            "so that 20 to 25 cards are dealt in total", players=players, low=low)
        if high == low + 1:
            raise RuleError("D2", "with {players} players each player gets {low} or {high} cards, "
                            "so that 20 to 25 cards are dealt in total", players=players, low=low,
                            high=high)
        raise RuleError("D2", "with {players} players each player gets {low} to {high} cards, "
                        "so that 20 to 25 cards are dealt in total", players=players, low=low,
                        high=high)

    def summary(self) -> str:
        """A one-line description for lobbies and tables."""
        parts = [f"{self.decks} pack{'s' if self.decks == 2 else ''}"]
        parts.append("jokers" if self.jokers else "no jokers")
        if self.hand_limit:
            parts.append(f"hand limit {HAND_LIMIT}")
        if self.last_player_draw_play:
            parts.append("last-player draw-and-play")
        if self.cards_each is not None:
            parts.append(f"{self.cards_each} cards each")
        return ", ".join(parts)


def check_player_count(players: int) -> None:
    """D1: Dubb is for 2 to 6 players."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError("D1", "Dubb is for {low} to {high} players", low=MIN_PLAYERS,
                        high=MAX_PLAYERS)


def _deal_range(players: int, hand_limit: bool) -> tuple[int, int, int]:
    low, high, default = _DEAL[players]
    if hand_limit:
        # D2: with the limit on, 2 and 3 players get exactly 7 each (for 2 players the one
        # exception to the 20–25 total); 4–6 players are already at or under 7
        if players <= 3:
            return HAND_LIMIT, HAND_LIMIT, HAND_LIMIT
        high = min(high, HAND_LIMIT)
        default = min(default, HAND_LIMIT)
    return low, high, default
