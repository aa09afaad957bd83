"""``/dubb``: Dubb in a channel — the game's own components and its slash commands.

Thin on purpose: every handler turns an interaction into a call on the shared table controller
(or a Dubb move for it) and nothing else; the rules live in ``bot.games.dubb``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import checks, lobby, moves
from bot.discord.answers import user_lang
from bot.discord.checks import MAX_TURN_SECONDS, TEXT_LIMIT
from bot.discord.common import label
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.hands import show_hand
from bot.discord.layout import answer_layout
from bot.discord.reach import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS, place_of
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedWords
from bot.discord.translator import LEVEL_CHOICES, cmd
from bot.games.dubb import DubbOptions, Play, play_of
from bot.games.dubb.face.render import parse_play_value, play_label, play_text, rules_text
from bot.games.dubb.face.stats import dubb_stats_embed, player_embed
from bot.games.dubb.moves import DRAW, DRAW_PLAY, PASS
from bot.i18n import L

AUTOCOMPLETE_LIMIT = 25
DEFAULT_TURN_SECONDS = 90
"""Issue 8: Dubb's default turn time; ``turn_time: 0`` turns the timer off."""


def routes(controller: TableController) -> dict[str, Handler]:
    """Dubb's own components: the table's Draw, Pass and Rules, the panel's menus."""

    async def rules(i: discord.Interaction, route: Route, _: list[str]) -> None:
        snapshot = await controller.table_for(i, route)
        await i.response.send_message(rules_text(snapshot.options, user_lang(i)),
                                      ephemeral=True)

    async def play(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            rank, naturals, jokers = parse_play_value(values[0])
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a play. Nothing was changed.") from None
        await moves.move(controller, i, play_of(rank, naturals, jokers), route=route,
                         from_panel=True)

    async def rank(i: discord.Interaction, route: Route, values: list[str]) -> None:
        await show_hand(controller, i, route, arg=values[0] if values else None, edit=True)

    return {
        "rules": rules,
        "draw": moves.button(controller, DRAW),
        "pass": moves.button(controller, PASS),
        "draw_play": moves.button(controller, DRAW_PLAY),
        "play": play,
        "rank": rank,
    }


SHARED = SharedWords(
    order=("start", "challenge", "join", "hint", "leave", "hand", "play", "draw", "pass",
           "table", "rules", "stop", "history", "top", "profile", "stats", "daily"),
    descriptions={
        "join": cmd("Sit down at this channel's Dubb lobby"),
        "leave": cmd("Leave the lobby, or leave the game (counts as a loss)"),
        "stop": cmd("Stop this channel's Dubb game (host or moderators)"),
        "history": cmd("This server's recent Dubb games, with replays (only you see it)"),
        "top": cmd("This server's Dubb leaderboard by skill rating"),
        "profile": cmd("A player's Dubb rating, record and rating history"),
    },
    user_command=cmd("Play Dubb with…"),
)
"""The subcommands every game shares, worded for Dubb, among Dubb's own."""


class Dubb(commands.Cog):
    dubb = app_commands.Group(
        name=cmd("dubb"),
        description=cmd("Dubb: get rid of your cards; the last player holding cards loses"),
        allowed_installs=ANYWHERE_INSTALLS,
        allowed_contexts=ANYWHERE_CONTEXTS,
    )

    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    # -- slash commands ------------------------------------------------------------------------

    @dubb.command(name=cmd("start"), description=cmd("Open a Dubb lobby in this channel"))
    @app_commands.rename(decks=cmd("decks"), jokers=cmd("jokers"), hand_limit=cmd("hand_limit"),
                         last_player_draw=cmd("last_player_draw"), cards_each=cmd("cards_each"),
                         computers=cmd("computers"), level=cmd("level"),
                         turn_time=cmd("turn_time"), rated=cmd("rated"))
    @app_commands.describe(
        decks=cmd("How many 52-card packs"),
        jokers=cmd("Play with jokers, 2 per pack"),
        hand_limit=cmd("At most 7 cards in hand"),
        last_player_draw=cmd("The last player with cards may draw and play at once"),
        cards_each=cmd("Cards dealt to each player (the default depends on the player count)"),
        computers=cmd("How many computer players to seat (you can add more in the lobby)"),
        level=cmd("How well the computer players play (default: the server's, else normal)"),
        turn_time=cmd("Seconds per turn before a safe move is made for you (0: no timer)"),
        rated=cmd("Count the result for the skill ratings (tables with computers never count)"),
    )
    @app_commands.choices(
        decks=[app_commands.Choice(name=cmd("1 pack"), value=1),
               app_commands.Choice(name=cmd("2 packs"), value=2)],
        level=LEVEL_CHOICES,
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
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        rated: bool = True,
        level: str | None = None,
    ) -> None:
        checks.one_of(decks, (1, 2), L("The number of packs"))
        if cards_each is not None:
            checks.in_range(cards_each, 1, 25, L("Cards each"))
        options = DubbOptions(
            decks=1 if decks == 1 else 2, jokers=jokers, hand_limit=hand_limit,
            last_player_draw_play=last_player_draw, cards_each=cards_each,
        )
        if cards_each is not None and not any(
            cards_each in options.allowed_cards_each(n) for n in range(2, 7)
        ):
            if hand_limit:
                raise UserFacingError(
                    "{count} cards each can't be dealt: 20 to 25 cards are dealt in all, so 2 "
                    "players get 10 to 12, 3 get 7 or 8, 4 get 5 or 6, 5 get 4 or 5, and 6 get "
                    "4, and the hand limit allows at most 7.", count=cards_each)
            raise UserFacingError(
                "{count} cards each can't be dealt: 20 to 25 cards are dealt in all, so 2 "
                "players get 10 to 12, 3 get 7 or 8, 4 get 5 or 6, 5 get 4 or 5, and 6 get 4.",
                count=cards_each)
        await lobby.open_lobby(self.controller, interaction, options, turn_seconds=turn_time,
                               computers=computers, rated=rated, level=level)

    @dubb.command(name=cmd("play"),
                  description=cmd("Play cards of one rank, e.g. 7h 7s, 7 7 or joker"))
    @app_commands.rename(cards=cmd("cards"))
    @app_commands.describe(cards=cmd("The cards to play: pick one of your legal plays"))
    async def play(self, interaction: discord.Interaction,
                   cards: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards)
        snapshot = await self.controller.table_for(interaction)
        if snapshot.engine is None:
            raise UserFacingError("The game hasn't started yet.")
        if snapshot.seat_of(interaction.user.id) is None:
            raise UserFacingError("You're not playing at this table.")
        move = snapshot.engine.play_from_text(interaction.user.id, cards)
        await moves.move(self.controller, interaction, move)

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
        lang = user_lang(interaction)
        private = snapshot.engine.private_view(player)
        needle = current[:TEXT_LIMIT].strip().lower()
        choices = []
        for move in private.legal_moves:
            if not isinstance(move, Play):
                continue
            value = play_text(move, private.hand)
            name = f"{play_label(move, lang)} — {value}"
            if needle and needle not in name.lower():
                continue
            choices.append(app_commands.Choice(name=name[:100], value=value))
        return choices[:AUTOCOMPLETE_LIMIT]

    @dubb.command(name=cmd("draw"), description=cmd("Draw a card from the draw pile"))
    async def draw(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, DRAW)

    @dubb.command(name=cmd("pass"), description=cmd("Pass your turn (only when you can't draw)"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, PASS)

    @dubb.command(name=cmd("table"),
                  description=cmd("Post the table again at the bottom of the channel"))
    async def table(self, interaction: discord.Interaction) -> None:
        await self.controller.repost(interaction)

    @dubb.command(name=cmd("rules"),
                  description=cmd("A short summary of the rules (only you see it)"))
    async def rules(self, interaction: discord.Interaction) -> None:
        options: Any = None
        if interaction.channel_id is not None:
            snapshot = await self.controller.service.get(interaction.channel_id)
            if snapshot is not None and snapshot.kind == self.controller.game.kind:
                options = snapshot.options
        await interaction.response.send_message(rules_text(options, user_lang(interaction)),
                                                ephemeral=True)

    @dubb.command(name=cmd("stats"), description=cmd("This server's Dubb statistics"))
    @app_commands.rename(player=cmd("player"), private=cmd("private"))
    @app_commands.describe(player=cmd("One person's record"),
                           private=cmd("Show the answer only to you"))
    async def stats(self, interaction: discord.Interaction,
                    player: discord.User | None = None, private: bool = False) -> None:
        place = place_of(interaction)
        if place is None:
            raise UserFacingError("Games are played in server channels.")
        kind = self.controller.game.kind
        rows = await self.controller.service.stats(place, kind)
        # statistics are shown to the channel in its table language only when public
        lang = (user_lang(interaction) if private
                else await self.controller.channel_lang(interaction))
        if player is None:
            embed = dubb_stats_embed(rows, interaction.user.id, lang)
        else:
            row = next((r for r in rows if r.player_id == player.id), None)
            embed = player_embed(row, label(player.id, player.display_name), lang)
        await interaction.response.send_message(view=answer_layout(embed), ephemeral=private)
