"""``/kortbord``: the bot's own commands — help, ping, a person's pings and card pictures, the
checks of a finished table, and a server's settings."""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import KortbordBot
from bot.discord.answers import user_lang
from bot.discord.checks import MAX_TURN_SECONDS
from bot.discord.common import level_text, turn_time_text
from bot.discord.errors import UserFacingError
from bot.discord.exports import MAX_TABLE_ID, verify_answer
from bot.discord.reach import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS
from bot.discord.translator import LEVEL_CHOICES, cmd, slash
from bot.gamekit.contract import GameSpec
from bot.i18n import LANGUAGES, join, lang_of, tr
from bot.table.computers import game_levels, level_name
from bot.table.settings import GameDefaults, ServerSettings

AUTOCOMPLETE_LIMIT = 25


def help_text(games: Iterable[GameSpec], lang: str) -> str:
    """What the bot plays, one line a game from the registry."""
    lines = [tr(lang, "• **{game}**: {summary} Start with `{command}`.", game=g.name,
                summary=tr(lang, g.summary), command=slash(lang, g.kind, "start"))
             for g in games]
    return "\n".join([
        tr(lang, "**kortbord** plays card games in this channel:"), *lines,
        tr(lang, "Your cards are only ever shown to you: press **Your hand** on the table."),
        tr(lang, "`{pings}` turns your turn pings on or off; `{cards}` chooses pictures or "
                 "text for your cards.", pings=slash(lang, "kortbord", "pings"),
           cards=slash(lang, "kortbord", "cards")),
    ])


def _pong_text(lang: str, count: int) -> str:
    return tr(lang, "Pong! ({count})", count=count)


class PingAgainButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kortbord:ping:(?P<n>\d{1,6})"
):
    """Carries its count in the custom id, so it keeps working after a restart."""

    def __init__(self, count: int, lang: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(lang, "Ping again"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"kortbord:ping:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PingAgainButton:
        return cls(int(match["n"]), user_lang(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        count = self.count + 1
        await interaction.response.edit_message(content=_pong_text(lang, count),
                                                view=_ping_view(count, lang))


def _ping_view(count: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PingAgainButton(count, lang))
    return view


def settings_text(settings: ServerSettings, games: Iterable[GameSpec], lang: str) -> str:
    """A server's settings as its managers read them."""
    language = (LANGUAGES[settings.language] if settings.language in LANGUAGES
                else tr(lang, "the server's own (Discord's community setting)"))
    channels = (tr(lang, "every channel") if settings.channels is None
                else join(lang, (f"<#{c}>" for c in settings.channels)) or tr(lang, "none"))
    if settings.blocked:
        channels = tr(lang, "{channels}, but not in {blocked}", channels=channels,
                      blocked=join(lang, (f"<#{c}>" for c in settings.blocked)))
    lines = [
        tr(lang, "**Server settings**"),
        tr(lang, "• Language of tables: {language}", language=language),
        tr(lang, "• Turn pings: {state}", state=tr(lang, "on") if settings.pings
           else tr(lang, "off")),
        tr(lang, "• Cards on tables: {shown}", shown=tr(lang, "pictures")
           if settings.cards == "pictures" else tr(lang, "text")),
        tr(lang, "• Games may be played in: {channels}", channels=channels),
        tr(lang, "• Events are opened by: {who}", who=tr(lang, "Manage Server")
           if settings.event_role is None
           else tr(lang, "Manage Server or <@&{role}>", role=settings.event_role)),
        tr(lang, "• Hints: {state}", state=tr(lang, "on") if settings.hints else tr(lang, "off")),
        tr(lang, "• Players on the daily boards across servers: {state}",
           state=tr(lang, "on") if settings.daily_everywhere else tr(lang, "off")),
    ]
    for game in games:
        defaults = settings.games.get(game.kind, GameDefaults())
        seconds = (game.default_turn_seconds if defaults.turn_seconds is None
                   else defaults.turn_seconds)
        lines.append(tr(lang, "• {game}: {turn_time}", game=game.name,
                        turn_time=turn_time_text(seconds, lang)))
        level = level_name(defaults.computer_level)
        if level is not None and level in game_levels(game):
            lines.append(tr(lang, "• {game}: computer players play {level}", game=game.name,
                            level=level_text(level, lang)))
    return "\n".join(lines)


class Meta(commands.Cog):
    # installable to a person too, like the games' commands: pings, cards, help and verify are
    # a person's own; settings answers outside a server that added kortbord with one line
    kortbord = app_commands.Group(name=cmd("kortbord"),
                                  description=cmd("About the kortbord card-game bot"),
                                  allowed_installs=ANYWHERE_INSTALLS,
                                  allowed_contexts=ANYWHERE_CONTEXTS)

    def __init__(self, bot: KortbordBot) -> None:
        self.bot = bot

    @kortbord.command(name=cmd("ping"),
                      description=cmd("Check that the bot is awake (only you see it)"))
    async def ping(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        await interaction.response.send_message(_pong_text(lang, 1), view=_ping_view(1, lang),
                                                ephemeral=True)

    @kortbord.command(name=cmd("pings"),
                      description=cmd("Whether you are pinged when it is your turn"))
    @app_commands.rename(choice=cmd("choice"))
    @app_commands.describe(choice=cmd("on: a ping each turn; off: no ping, the table still "
                                      "shows whose turn it is"))
    @app_commands.choices(choice=[app_commands.Choice(name=cmd("on"), value="on"),
                                  app_commands.Choice(name=cmd("off"), value="off")])
    async def pings(self, interaction: discord.Interaction, choice: str) -> None:
        if choice not in ("on", "off"):
            raise UserFacingError("Choose on or off. Nothing was changed.")
        await self.bot.preferences.update_person(interaction.user.id, pings=choice == "on")
        lang = user_lang(interaction)
        text = (tr(lang, "You'll be pinged when it's your turn.") if choice == "on" else
                tr(lang, "You won't be pinged any more; the table still shows when it's your "
                         "turn."))
        await interaction.response.send_message(text, ephemeral=True)

    @kortbord.command(name=cmd("cards"),
                      description=cmd("Show your cards as pictures or as text"))
    @app_commands.rename(shown=cmd("shown"))
    @app_commands.describe(shown=cmd("pictures: card faces; text: cards as 7♥ Q♠"))
    @app_commands.choices(shown=[app_commands.Choice(name=cmd("pictures"), value="pictures"),
                                 app_commands.Choice(name=cmd("text"), value="text")])
    async def cards(self, interaction: discord.Interaction, shown: str) -> None:
        if shown not in ("pictures", "text"):
            raise UserFacingError("Choose pictures or text. Nothing was changed.")
        await self.bot.preferences.update_person(interaction.user.id, cards=shown)
        lang = user_lang(interaction)
        text = (tr(lang, "Your hand will be shown as pictures.") if shown == "pictures" else
                tr(lang, "Your hand will be shown as text."))
        await interaction.response.send_message(text, ephemeral=True)

    @kortbord.command(name=cmd("help"),
                      description=cmd("What the bot does and how to start a game"))
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            help_text(self.bot.games.values(), user_lang(interaction)), ephemeral=True)

    @kortbord.command(name=cmd("verify"),
                      description=cmd("Check a finished table's deals, moves and ledger rows "
                                      "(only you see it)"))
    @app_commands.rename(table=cmd("table"))
    @app_commands.describe(table=cmd("The table's number, as #12 shows it"))
    async def verify(self, interaction: discord.Interaction,
                     table: app_commands.Range[int, 1, MAX_TABLE_ID]) -> None:
        await verify_answer(self.bot.service.store, self.bot.games, interaction, table)

    @kortbord.command(name=cmd("settings"),
                      description=cmd("This server's settings (Manage Server to change them)"))
    @app_commands.rename(language=cmd("language"), pings=cmd("pings"), cards=cmd("cards"),
                         games_here=cmd("games_here"), game=cmd("game"),
                         turn_time=cmd("turn_time"), event_role=cmd("event_role"),
                         computer_level=cmd("computer_level"), hints=cmd("hints"),
                         daily_everywhere=cmd("daily_everywhere"))
    @app_commands.describe(
        language=cmd("The language of the server's tables"),
        pings=cmd("Whether players are pinged on their turn, unless they chose themselves"),
        cards=cmd("Cards on the server's tables as pictures or text"),
        games_here=cmd("Whether games may be started in this channel"),
        game=cmd("The game whose default turn time to set"),
        turn_time=cmd("The game's default seconds per turn (0: no timer)"),
        event_role=cmd("A role whose members may open events (@everyone: only Manage Server)"),
        computer_level=cmd("The game's default level of computer players"),
        hints=cmd("Whether players may ask for hints (rated tables never give them)"),
        daily_everywhere=cmd("Whether this server's players appear on the daily boards across "
                             "servers"),
    )
    @app_commands.choices(
        language=[app_commands.Choice(name=cmd("the server's own"), value="auto"),
                  *(app_commands.Choice(name=name, value=code)
                    for code, name in LANGUAGES.items())],
        cards=[app_commands.Choice(name=cmd("pictures"), value="pictures"),
               app_commands.Choice(name=cmd("text"), value="text")],
        games_here=[app_commands.Choice(name=cmd("allow"), value="allow"),
                    app_commands.Choice(name=cmd("don't allow"), value="deny"),
                    app_commands.Choice(name=cmd("only here"), value="only"),
                    app_commands.Choice(name=cmd("every channel"), value="all")],
        computer_level=LEVEL_CHOICES,
    )
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction, language: str | None = None,
        pings: bool | None = None, cards: str | None = None, games_here: str | None = None,
        game: str | None = None,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        event_role: discord.Role | None = None,
        computer_level: str | None = None, hints: bool | None = None,
        daily_everywhere: bool | None = None,
    ) -> None:
        if interaction.guild_id is None or not interaction.is_guild_integration():
            # a server's settings shape the tables the bot posts there: only where it is added
            raise UserFacingError("Server settings are made in a server that added kortbord.")
        lang = user_lang(interaction)
        service = self.bot.preferences
        current = await service.server(interaction.guild_id)
        changes = _changes(current, interaction, self.bot.games.values(), language=language,
                           pings=pings, cards=cards, games_here=games_here, game=game,
                           turn_time=turn_time, computer_level=computer_level)
        if event_role is not None:
            # @everyone's id is the server's: picking it leaves events to Manage Server
            changes["event_role"] = (None if event_role.id == interaction.guild_id
                                     else event_role.id)
        if hints is not None:
            changes["hints"] = hints
        if daily_everywhere is not None:
            changes["daily_everywhere"] = daily_everywhere
        if changes:
            if not interaction.permissions.manage_guild:
                raise UserFacingError("Only members with the Manage Server permission can "
                                      "change the server's settings. Nothing was changed.")
            current = await service.update_server(interaction.guild_id, **changes)
        await interaction.response.send_message(
            settings_text(current, self.bot.games.values(), lang), ephemeral=True)

    @settings.autocomplete("game")
    async def settings_game(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        needle = current[:32].lower()
        return [app_commands.Choice(name=g.name, value=g.kind)
                for g in self.bot.games.values()
                if needle in g.name.lower()][:AUTOCOMPLETE_LIMIT]


def _changes(current: ServerSettings, interaction: discord.Interaction, games: Iterable[GameSpec],
             *, language: str | None, pings: bool | None, cards: str | None,
             games_here: str | None, game: str | None, turn_time: int | None,
             computer_level: str | None = None) -> dict[str, object]:
    """The settings a ``/kortbord settings`` call asks for, checked (``UserFacingError`` for a
    value the bot did not offer)."""
    changes: dict[str, object] = {}
    if language is not None:
        if language != "auto" and language not in LANGUAGES:
            raise UserFacingError("That language is not one the bot speaks. Nothing was "
                                  "changed.")
        changes["language"] = None if language == "auto" else lang_of(language)
    if pings is not None:
        changes["pings"] = pings
    if cards is not None:
        if cards not in ("pictures", "text"):
            raise UserFacingError("Choose pictures or text. Nothing was changed.")
        changes["cards"] = cards
    if games_here is not None:
        changes.update(_channels(current, interaction, games_here))
    if turn_time is not None or game is not None or computer_level is not None:
        by_kind = {g.kind: g for g in games}
        if game not in by_kind:
            raise UserFacingError("Choose one of the bot's games for a turn time. Nothing was "
                                  "changed.")
        if turn_time is None and computer_level is None:
            raise UserFacingError("Give a turn_time for the game. Nothing was changed.")
        game_changes: dict[str, object] = {}
        if turn_time is not None:
            if turn_time != 0 and not 10 <= turn_time <= MAX_TURN_SECONDS:
                raise UserFacingError("A turn time is 0 (no timer) or {low} to {high} seconds. "
                                      "Nothing was changed.", low=10, high=MAX_TURN_SECONDS)
            game_changes["turn_seconds"] = turn_time
        if computer_level is not None:
            if computer_level not in game_levels(by_kind[game]):
                raise UserFacingError("That is not a computer level of this game. Nothing was "
                                      "changed.")
            game_changes["computer_level"] = computer_level
        defaults = current.games.get(game, GameDefaults())
        games_now = {k: v.model_dump() for k, v in current.games.items()}
        games_now[game] = {**defaults.model_dump(), **game_changes}
        changes["games"] = games_now
    return changes


def _channels(current: ServerSettings, interaction: discord.Interaction,
              games_here: str) -> dict[str, object]:
    channel = interaction.channel_id
    assert channel is not None
    # a thread counts as its channel: allowing a channel allows its threads
    channel = getattr(interaction.channel, "parent_id", None) or channel
    allowed = list(current.channels or ())
    blocked = [c for c in current.blocked if c != channel]
    match games_here:
        case "all":
            return {"channels": None, "blocked": []}
        case "only":
            return {"channels": [channel], "blocked": []}
        case "allow":
            if current.channels is not None and channel not in allowed:
                allowed.append(channel)
            return {"channels": allowed if current.channels is not None else None,
                    "blocked": blocked}
        case "deny":
            return {"channels": [c for c in allowed if c != channel]
                    if current.channels is not None else None,
                    "blocked": [*blocked, channel]}
    raise UserFacingError("Choose where games may be played. Nothing was changed.")


async def setup(bot: KortbordBot) -> None:
    bot.add_dynamic_items(PingAgainButton)
    await bot.add_cog(Meta(bot))
