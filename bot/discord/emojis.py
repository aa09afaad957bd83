"""The cards as the application's own emojis: drawn by ``bot.cardart``, uploaded at start-up
when missing, then shown in text and on buttons and menu options everywhere.

Application emojis live with the application, not with a process: every start lists them and
creates only those missing, so a restart creates none. Two processes starting together (shards)
may both find a card missing; Discord refuses the second of two emojis of one name (400), and
the loser lists again and uses the winner's, so the application ends with one emoji per card.
Until every card has its emoji (first start, an upload refused, Discord down), cards are shown
as letters (``7♥``) and the log says why.
"""

from __future__ import annotations

import logging
import random
import time

import discord

from bot import cards
from bot.cardart import BACK, EMOJI_FACES, emoji_image, emoji_name
from bot.cards import CardEmoji

_log = logging.getLogger(__name__)

APPLICATION_LIMIT = 2000
"""Discord's limit on an application's emojis."""


class NoRoom(Exception):
    """The application has too few free emojis for the cards."""


async def install(client: discord.Client) -> int:
    """Make sure the application has every card's emoji and show cards as them; on failure,
    log why and show letters. Returns how many emojis this call created."""
    cards.use_emojis({})
    began = time.monotonic()
    try:
        found, created = await _ensure(client)
    except (discord.HTTPException, NoRoom) as exc:
        _log.warning("card emojis: could not upload them (%s); cards are shown as letters",
                     _reason(exc))
        return 0
    except Exception:
        _log.exception("card emojis: could not upload them; cards are shown as letters")
        return 0
    cards.use_emojis({cards.face_of(face): found[name] for name, face in _wanted().items()
                      if face != BACK})
    _log.info("card emojis: %d in use, %d created now (%.1f s)", len(found), created,
              time.monotonic() - began)
    return created


def card_emoji(card: int) -> discord.PartialEmoji | None:
    """The card's emoji for a button or a menu option, whose label stays in letters (labels
    show no emoji markup); ``None`` while cards are letters."""
    found = cards.emoji(card)
    return None if found is None else discord.PartialEmoji(name=found.name, id=found.id)


def _wanted() -> dict[str, int]:
    return {emoji_name(face): face for face in EMOJI_FACES}


async def _ensure(client: discord.Client) -> tuple[dict[str, CardEmoji], int]:
    wanted = _wanted()
    have = await _listed(client)
    missing = [name for name in wanted if name not in have]
    others = len(have) - (len(wanted) - len(missing))
    if others + len(wanted) > APPLICATION_LIMIT:
        raise NoRoom(f"the application has {others} other emojis of at most "
                     f"{APPLICATION_LIMIT}, and the cards need {len(wanted)}")
    # two processes starting together would otherwise go down the list in step, the later
    # refused every name and listing again after each: each starts at its own place instead,
    # so they make different cards and meet only near the end
    start = random.randrange(len(missing)) if missing else 0
    created = 0
    for name in missing[start:] + missing[:start]:
        if name in have:  # another process made it while this one was uploading
            continue
        try:
            emoji = await client.create_application_emoji(name=name,
                                                          image=emoji_image(wanted[name]))
        except discord.HTTPException as exc:
            if exc.status != 400:
                raise
            # Discord refuses a name the application has: someone else just made it
            have = await _listed(client)
            if name not in have:
                raise
            continue
        have[name] = CardEmoji(emoji.name, emoji.id)
        created += 1
    return {name: have[name] for name in wanted}, created


async def _listed(client: discord.Client) -> dict[str, CardEmoji]:
    return {e.name: CardEmoji(e.name, e.id) for e in await client.fetch_application_emojis()}


def _reason(exc: Exception) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"Discord answered {exc.status}: {exc.text or exc.__class__.__name__}"
    return str(exc)
