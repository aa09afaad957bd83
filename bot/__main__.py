"""``python -m bot``: run the Discord bot."""

from bot.main import main

raise SystemExit(main())
