"""The game-blind Discord layer: component routing, the table publisher, the table controller
that runs the flow every game shares (lobby, table message, hand panel, moves, errors), and the
``GameFace`` protocol through which each game's package shows itself.

Modules import only downwards: ``errors`` ← ``routing`` ← ``common`` ← ``face`` ←
``controller``; ``publisher`` stands alone. Nothing here names a game.
"""
