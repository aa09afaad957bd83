"""``python -m bot.verify``: the name the bot gives players for checking a table from its export
(``bot.ops.verify``, also ``python -m bot.ops verify``), kept as an alias that forwards there by
module name."""

import runpy
import sys

if __name__ == "__main__":
    sys.argv[1:1] = ["verify"]
    runpy.run_module("bot.ops", run_name="__main__", alter_sys=True)
