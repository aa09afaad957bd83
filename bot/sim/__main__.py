"""``python -m bot.sim <game> [options]``: the documented name of ``python -m bot.ops sim``
(``bot.ops.sim``), kept as an alias. Forwarded by module name, never imported: this package's
helpers sit below the games, and the runner, which knows every game, above them."""

import runpy
import sys

if __name__ == "__main__":
    sys.argv[1:1] = ["sim"]
    runpy.run_module("bot.ops", run_name="__main__", alter_sys=True)
