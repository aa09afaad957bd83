"""``python -m bot``: run the Discord bot, once its settings and database are known good."""

from bot.preflight import preflight

settings = preflight()
if settings is None:
    raise SystemExit(2)

# imported only now: a second of CPU that a bad setting need not wait for (bot.preflight)
from bot.main import main  # noqa: E402

raise SystemExit(main(settings))
