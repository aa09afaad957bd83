"""The shared replay room: a replay's Share replay button posts a finished table, move by move,
as one animated picture in the channel, for everyone.

Only what the table showed is drawn: each frame is the game's own table picture of the public
view after a move, the same picture the live table carried then. The person's click posts it
(a public follow-up of their interaction), so it works where the bot is not a member too
(``bot.discord.reach``). Drawing a whole game takes a while, so it runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.cardart import CardImage
from bot.cardart.animation import animate, sampled
from bot.discord.answers import user_lang
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.history import finished_record, replayed
from bot.discord.pictures import data_file
from bot.discord.reach import answers_only_privately
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedCommand
from bot.gamekit.contract import Engine
from bot.i18n import tr

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description (its alt text)."""


@dataclass(frozen=True, slots=True)
class ReplayPicture:
    data: bytes
    frames: int
    moves: int
    last: CardImage | None
    """The final table's picture, whose alt text says what the replay ends on."""


def replay_picture(engine: Engine, moves: Sequence[tuple[int, Any]],
                   picture: Callable[[Any], CardImage | None]) -> ReplayPicture:
    """The replay of ``moves`` applied to ``engine`` (as dealt; it is played on), a frame per
    move after the deal's (an even sample of them in a long game), each ``picture`` of the
    engine's public view then, captioned with the moves made so far of all of them."""
    keep = set(sampled(len(moves) + 1))
    frames: list[CardImage | None] = []
    captions: list[str] = []
    for step in range(len(moves) + 1):
        if step:
            engine.apply(*moves[step - 1])
        if step in keep:
            frames.append(picture(engine.public_view()))
            # numbers only: the same in every language
            captions.append(f"{step}/{len(moves)}")
    return ReplayPicture(animate(frames, captions), len(frames), len(moves), frames[-1])


def _alt(lang: str, game: str, table_id: int, shown: ReplayPicture) -> str:
    alt = tr(lang, "Animated replay of {game} #{table}: the cards on the table after each "
                   "move, from the deal to the end.", game=game, table=table_id)
    if shown.last is not None:
        alt = f"{alt} {shown.last.alt}"
    return alt[:ALT_LIMIT]


async def share(controller: TableController, interaction: discord.Interaction,
                table_id: int) -> None:
    """Post the replay of a finished table of this channel's place publicly, as a follow-up of
    the person's click."""
    if answers_only_privately(interaction):
        # Discord would show the post to the clicker alone
        raise UserFacingError("This server lets kortbord answer you only privately, so the "
                              "replay can't be shared here.")
    record = await finished_record(controller, interaction, table_id)
    # acknowledged before the drawing, which may take longer than Discord waits; privately, so
    # that a refusal stays the clicker's and the picture is a public message of its own
    await interaction.response.defer(ephemeral=True, thinking=True)
    records = await controller.service.moves(table_id)
    game, face = controller.game, controller.face
    final = replayed(controller, record, records, len(records) - 1)
    assert final.engine is not None
    plain = dict(final.engine.names)
    lang = controller.table_lang(final)
    frozen = replace(final, engine=None)
    start = replayed(controller, record, records, 0).engine
    assert start is not None
    moves = [(r.player_id, game.moves.from_dict(r.move)) for r in records[1:]]
    shown = await asyncio.to_thread(
        replay_picture, start, moves, lambda view: face.table_picture(frozen, view, plain, lang))
    if len(shown.data) > interaction.filesize_limit:
        raise UserFacingError("That replay is too large to post here. Nothing was sent.")
    await interaction.edit_original_response(
        content=tr(user_lang(interaction), "The replay is posted in the channel."))
    await interaction.followup.send(
        tr(lang, "{person} shares the replay of {game} #{table}.",
           person=interaction.user.mention, game=game.name, table=table_id),
        file=data_file(shown.data, f"replay-{game.kind}-{table_id}.gif",
                       _alt(lang, game.name, table_id, shown)),
        allowed_mentions=discord.AllowedMentions.none())


def routes(controller: TableController) -> Mapping[str, Handler]:
    """A replay's Share replay."""

    async def share_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await share(controller, i, route.table_id)

    return {"share_replay": share_}


def commands(controller: TableController) -> list[SharedCommand]:
    """None: the button is on every replay."""
    return []
