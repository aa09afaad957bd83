"""``/dubb``: Dubb in a channel — the game's own components and its slash commands.

Thin on purpose: every handler turns an interaction into a call on the shared table controller
(or a Dubb move for it) and nothing else; the rules live in ``bot.games.dubb``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import checks
from bot.discord.checks import MAX_TURN_SECONDS, TEXT_LIMIT
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.routing import Handler, Route
from bot.games.dubb import DubbOptions, Play, play_of
from bot.games.dubb.face.render import parse_play_value, play_label, play_text, rules_text
from bot.games.dubb.face.stats import dubb_stats_embed
from bot.games.dubb.moves import DRAW, DRAW_PLAY, PASS

AUTOCOMPLETE_LIMIT = 25
DEFAULT_TURN_SECONDS = 90
"""Issue 8: Dubb's default turn time; ``turn_time: 0`` turns the timer off."""


def routes(controller: TableController) -> dict[str, Handler]:
    """Dubb's own components: the table's Draw, Pass and Rules, the panel's menus."""

    async def rules(i: discord.Interaction, route: Route, _: list[str]) -> None:
        snapshot = await controller.table_for(i, route)
        await i.response.send_message(rules_text(snapshot.options), ephemeral=True)

    async def play(i: discord.Interaction, route: Route, values: list[str]) -> None:
        rank, naturals, jokers = parse_play_value(values[0])
        await controller.move(i, play_of(rank, naturals, jokers), route=route, from_panel=True)

    async def rank(i: discord.Interaction, route: Route, values: list[str]) -> None:
        await controller.show_hand(i, route, arg=values[0], edit=True)

    return {
        "rules": rules,
        "draw": controller.move_button(DRAW),
        "pass": controller.move_button(PASS),
        "draw_play": controller.move_button(DRAW_PLAY),
        "play": play,
        "rank": rank,
    }


class Dubb(commands.Cog):
    dubb = app_commands.Group(
        name="dubb",
        description="Dubb: get rid of your cards — the last player holding cards loses",
        guild_only=True,
    )

    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    # -- slash commands ------------------------------------------------------------------------

    @dubb.command(name="start", description="Open a Dubb lobby in this channel")
    @app_commands.describe(
        decks="How many 52-card packs (D1)",
        jokers="Play with jokers, 2 per pack (D9)",
        hand_limit="At most 7 cards in hand (D2, D5, D8)",
        last_player_draw="The last player with cards may draw and play at once (D12)",
        cards_each="Cards dealt to each player (D2; default depends on the player count)",
        computers="How many computer players to seat (you can add more in the lobby)",
        turn_time=f"Seconds per turn before a safe move is made for you (default "
                  f"{DEFAULT_TURN_SECONDS}; 0 = no timer)",
    )
    @app_commands.choices(
        decks=[app_commands.Choice(name="1 pack", value=1),
               app_commands.Choice(name="2 packs", value=2)]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        decks: int = 1,
        jokers: bool = False,
        hand_limit: bool = False,
        last_player_draw: bool = False,
        cards_each: app_commands.Range[int, 1, 25] | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] = DEFAULT_TURN_SECONDS,
    ) -> None:
        checks.one_of(decks, (1, 2), "The number of packs")
        if cards_each is not None:
            checks.in_range(cards_each, 1, 25, "Cards each")
        options = DubbOptions(
            decks=1 if decks == 1 else 2, jokers=jokers, hand_limit=hand_limit,
            last_player_draw_play=last_player_draw, cards_each=cards_each,
        )
        if cards_each is not None and not any(
            cards_each in options.allowed_cards_each(n) for n in range(2, 7)
        ):
            raise UserFacingError(
                f"{cards_each} cards each can't be dealt (D2): 20–25 cards are dealt in total — "
                "2 players get 10–12, 3 get 7–8, 4 get 5–6, 5 get 4–5, 6 get 4"
                + (", and the hand limit allows at most 7." if hand_limit else ".")
            )
        await self.controller.open_lobby(interaction, options, turn_seconds=turn_time,
                                     computers=computers)

    @dubb.command(name="join", description="Sit down at this channel's Dubb lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.controller.join(interaction)

    @dubb.command(name="leave", description="Leave the lobby, or leave the game (counts as a loss)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.controller.leave(interaction)

    @dubb.command(name="hand", description="Show your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction)

    @dubb.command(name="play", description="Play cards of one rank, e.g. 7h 7s, 7 7 or joker")
    @app_commands.describe(cards="The cards to play — pick one of your legal plays")
    async def play(self, interaction: discord.Interaction,
                   cards: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards, "card text")
        snapshot = await self.controller.table_for(interaction)
        if snapshot.engine is None:
            raise UserFacingError("The game hasn't started yet.")
        if snapshot.seat_of(interaction.user.id) is None:
            raise UserFacingError("You're not playing at this table.")
        move = snapshot.engine.play_from_text(interaction.user.id, cards)
        await self.controller.move(interaction, move)

    @play.autocomplete("cards")
    async def play_cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        snapshot = await self.controller.service.get(interaction.channel_id)
        if (snapshot is None or snapshot.kind != self.controller.game.kind
                or snapshot.engine is None):
            return []
        player = interaction.user.id
        if snapshot.seat_of(player) is None:
            return []
        private = snapshot.engine.private_view(player)
        needle = current.strip().lower()
        choices = []
        for move in private.legal_moves:
            if not isinstance(move, Play):
                continue
            value = play_text(move, private.hand)
            name = f"{play_label(move)} — {value}"
            if needle and needle not in name.lower():
                continue
            choices.append(app_commands.Choice(name=name, value=value))
        return choices[:AUTOCOMPLETE_LIMIT]

    @dubb.command(name="draw", description="Draw a card from the draw pile")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.controller.move(interaction, DRAW)

    @dubb.command(name="pass", description="Pass your turn (only when you cannot draw)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.controller.move(interaction, PASS)

    @dubb.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction) -> None:
        await self.controller.repost(interaction)

    @dubb.command(name="rules", description="A short summary of the rules (only you see it)")
    async def rules(self, interaction: discord.Interaction) -> None:
        options: Any = None
        if interaction.channel_id is not None:
            snapshot = await self.controller.service.get(interaction.channel_id)
            if snapshot is not None and snapshot.kind == self.controller.game.kind:
                options = snapshot.options
        await interaction.response.send_message(rules_text(options), ephemeral=True)

    @dubb.command(name="stop", description="Stop this channel's Dubb game (host or moderators)")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.controller.cancel(interaction)

    @dubb.command(name="stats", description="This server's Dubb statistics")
    async def stats(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        rows = await self.controller.service.stats(interaction.guild_id,
                                                      self.controller.game.kind)
        await interaction.response.send_message(
            embed=dubb_stats_embed(rows, interaction.user.id)
        )
