"""The contract between the host and the games, below both: the protocols and the spec a game
registers (``contract``), the JSON codecs' adapter (``codec``) and the expert computer's search
(``search``). Nothing here imports discord, the host or any game."""
