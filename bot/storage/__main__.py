"""``python -m bot.storage copy|audit|rerate|backup|restore …``: the documented name of these
commands, kept as an alias of ``python -m bot.ops`` (``bot.ops.database``, ``bot.ops.audit``,
``bot.ops.rerate``), where they now live.

Forwarded by module name, never imported: storage is the lowest package, and the commands reach
up to the games and the table service (the audit replays tables, ``rerate`` ranks them).
"""

import runpy

if __name__ == "__main__":
    runpy.run_module("bot.ops", run_name="__main__", alter_sys=True)
