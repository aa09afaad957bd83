"""Card pictures on Discord: an image made by ``bot.cardart`` rides on the message the bot sends
anyway (the table's edit, the panel's answer) as an attachment with its cards in words as the
description (alt text), so a picture costs no request of its own; other files (exports) go the
same way."""

from __future__ import annotations

import io

import discord

from bot.cardart import CardImage


class _Attachment(discord.File):
    """A ``discord.File`` that leaves no cycle behind once closed (``bot.discord.cycles``)."""

    __slots__ = ()

    def close(self) -> None:
        super().close()
        # discord.File.close puts the file's own close back on it as an attribute: a bound
        # method pointing at its file, in that file's __dict__. The class's close is the same.
        vars(self.fp).pop("close", None)


def attachment(image: CardImage) -> discord.File:
    """A fresh file for one request (a ``discord.File`` is read once, so a retried request
    needs a new one)."""
    return data_file(image.data, image.filename, image.alt)


def data_file(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """Any bytes as a file for one request (an export, say), ``description`` its alt text."""
    return _Attachment(io.BytesIO(data), filename, description=description)


def png_attachment(data: bytes, filename: str, alt: str) -> discord.File:
    """A picture drawn elsewhere (a chart), with its alt text."""
    return _Attachment(io.BytesIO(data), filename, description=alt)


def show_in(embed: discord.Embed, image: CardImage) -> discord.Embed:
    """``embed`` showing ``image``, attached to the same message."""
    return embed.set_image(url=f"attachment://{image.filename}")
