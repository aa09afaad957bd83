"""High card: a tiny third game that lives entirely in this folder, to prove that a game is one
package plus one registry line. Two players are dealt one card each; each in turn shows it; the
higher rank wins (ace high), equal ranks draw. Tests register it with
``GAMES.with_game(SPEC)``."""

from tests.highcard.spec import SPEC

__all__ = ["SPEC"]
