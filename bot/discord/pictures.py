"""Card pictures on Discord: an image made by ``bot.cardart`` rides on the message the bot sends
anyway (the table's edit, the panel's answer) as an attachment with its cards in words as the
description (alt text), so a picture costs no request of its own."""

from __future__ import annotations

import io

import discord

from bot.cardart import CardImage


def attachment(image: CardImage) -> discord.File:
    """A fresh file for one request (a ``discord.File`` is read once, so a retried request
    needs a new one)."""
    return discord.File(io.BytesIO(image.data), image.filename, description=image.alt)


def show_in(embed: discord.Embed, image: CardImage) -> discord.Embed:
    """``embed`` showing ``image``, attached to the same message."""
    return embed.set_image(url=f"attachment://{image.filename}")
