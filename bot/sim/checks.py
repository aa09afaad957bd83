"""How often a simulator checks an engine's invariants."""

FULL_CHECK_EVERY = 64
"""A game's simulator runs the engine's full invariant check (``check_invariants``) at the start,
after at least every this many moves and after the last move of every game or hand; after the
other moves it runs the engine's cheap incremental check, which looks only at running counts and
what the move touched."""
