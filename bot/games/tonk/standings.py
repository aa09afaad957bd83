"""How a Tonk table ranks its players for the skill ratings.

A rated Tonk result is a **session**: one table from its first hand to its last, however it
ended (closed itself, stopped by its host, or fewer than two players left, T1/T11). Everyone
dealt into at least one hand is ranked by their net chips at the table (T12: the hands'
payments), equal nets tied. A player who forfeited a hand by leaving during it, or was removed
after three automatic moves (T11), ranks below everyone else, a later leaver above an earlier
one; leaving between hands costs nothing (T1), so such a player keeps their place by chips.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

from bot.games.tonk.terms import TIMEOUTS_TO_REMOVE


class TonkStandings:
    def places(self, seats: Sequence[int], events: Sequence[Mapping[str, Any]],
               finished: bool) -> list[list[int]] | None:
        net: dict[int, int] = defaultdict(int)
        dealt: list[int] = []
        gone: list[int] = []
        for e in events:
            kind = e.get("type")
            if kind == "hand_ended":
                for row in e["players"]:
                    if int(row["player"]) not in dealt:
                        dealt.append(int(row["player"]))
                for p in e["payments"]:
                    net[int(p["payer"])] -= int(p["amount"])
                    net[int(p["payee"])] += int(p["amount"])
            elif (kind == "left" and e.get("forfeit")) or (
                    kind == "timed_out" and int(e["in_a_row"]) >= TIMEOUTS_TO_REMOVE):
                player = int(e["player"])
                if player in gone:
                    gone.remove(player)
                gone.append(player)
        if len(dealt) < 2:
            return None
        stayed = sorted((p for p in dealt if p not in gone), key=lambda p: -net[p])
        places = [list(group) for _, group in groupby(stayed, key=lambda p: net[p])]
        return places + [[p] for p in reversed(gone) if p in dealt]
