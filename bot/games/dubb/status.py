"""A seat's status in a Dubb game, as the engine keeps it: small ints in a list, one a seat.

ACTIVE seats are exactly those holding cards (and so in the turn order, D5); PENDING seats hold
none but can still be dubbed (D10); OUT seats are out for good (D10, D11); LEFT seats left the
game (a forfeit, decided by the engine). ``PENDING`` follows ``ACTIVE`` so that
``status <= PENDING`` reads "still in the game".
"""

from __future__ import annotations

ACTIVE, PENDING, OUT, LEFT = 0, 1, 2, 3
STATUS_NAMES = ("active", "pending", "out", "left")
"""The stored form of each status, indexed by it."""

NO_LIMIT = 1 << 30
"""The hand limit of a table without one (D1): a bound no hand reaches."""
