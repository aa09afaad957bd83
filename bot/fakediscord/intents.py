"""The gateway intents (Discord docs, "Gateway Intents"): which events a session asked for.

A low module: the state, the REST routes and the gateway all read these bits, and none of them
needs the others for it.
"""

from __future__ import annotations

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_WEBHOOKS = 1 << 5
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
ALL_INTENTS = (1 << 26) - 1
