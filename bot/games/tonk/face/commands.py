"""``/tonk``: Tonk tables in a channel — the game's own components, its slash commands, the
ledger and its seasons.

Thin on purpose: handlers turn an interaction into a call on the shared table controller (or a
Tonk move for it); the rules live in ``bot.games.tonk``, the looks in ``render`` and ``ledger``.
Every command, option and choice is declared with ``cmd`` so Discord shows it in the user's
language; answers are in the user's language, the table in the table's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot import cards
from bot.discord import checks, lobby, moves
from bot.discord.answers import user_lang
from bot.discord.checks import MAX_TURN_SECONDS, TEXT_LIMIT
from bot.discord.common import as_typed
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError, quoted
from bot.discord.exports import ledger_export
from bot.discord.layout import answer_layout
from bot.discord.reach import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS, place_of
from bot.discord.routing import Handler, Route
from bot.discord.rows import Rows
from bot.discord.shared import SharedWords
from bot.discord.translator import LEVEL_CHOICES, cmd, slash
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Move,
    Spread,
    TonkEngine,
    TonkOptions,
)
from bot.games.tonk.face.ledger import (
    ENTRY_LIMIT,
    LedgerQuery,
    entries_embed,
    ledger_view,
    scope_text,
    standings,
    standings_embed,
)
from bot.games.tonk.face.render import (
    cards_text,
    chips,
    parse_cards_value,
    parse_hit_value,
    rules_text,
    spread_label,
    spread_text,
)
from bot.games.tonk.spreads import hand_total, hits_on, spreads_in
from bot.i18n import L, tr, trn
from bot.table.service import TableSnapshot

AUTOCOMPLETE_LIMIT = 25
_SPREAD_ID = re.compile(r"^\s*s?(\d{1,6})\b", re.IGNORECASE)
MAX_STAKE = 1_000_000
DEFAULT_STAKE = 1


def routes(controller: TableController) -> dict[str, Handler]:
    """Tonk's own components: the table's draw buttons and Rules, the panel's moves and menus,
    the ledger's pages."""

    async def rules(i: discord.Interaction, route: Route, _: list[str]) -> None:
        snapshot = await controller.table_for(i, route)
        await i.response.send_message(rules_text(_options(snapshot), user_lang(i)),
                                      ephemeral=True)

    async def spread(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            move: Move = Spread(parse_cards_value(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a spread. Nothing was changed.") from None
        await moves.move(controller, i, move, route=route, from_panel=True)

    async def hit(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            spread_id, chosen = parse_hit_value(values[0])
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a hit. Nothing was changed.") from None
        await moves.move(controller, i, Hit(spread_id, chosen), route=route, from_panel=True)

    async def discard(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            move: Move = Discard(int(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a card. Nothing was changed.") from None
        await moves.move(controller, i, move, route=route, from_panel=True)

    async def ledger(i: discord.Interaction, route: Route, _: list[str]) -> None:
        guild_id = _guild(i)
        try:
            query = LedgerQuery.parse(route.arg, route.table_id)
        except ValueError:
            raise UserFacingError("This button no longer does anything. Ask for the ledger "
                                  "again with {command}.",
                                  command=slash(user_lang(i), "tonk", "ledger")) from None
        if query.table_id is not None:
            record = await controller.service.store.table(query.table_id)
            if record is None or record.guild_id != guild_id:
                raise UserFacingError("That ledger belongs to another server. Nothing was "
                                      "changed.")
        embed, view = await ledger_page(controller, guild_id, query, route.counter or 0, None,
                                        user_lang(i))
        # a page shown before the layout was an embed: an edit that empties it turns it
        await i.response.edit_message(content=None, embed=None, view=answer_layout(embed, view))

    return {
        "rules": rules,
        "drop": moves.button(controller, Drop()),
        "draw_stock": moves.button(controller, DrawStock()),
        "draw_discard": moves.button(controller, DrawDiscard()),
        "end_hand": moves.button(controller, EndHand()),
        "deal": moves.button(controller, DealNextHand()),
        "spread": spread,
        "hit": hit,
        "discard": discard,
        "ledger": ledger,
    }


async def ledger_page(controller: TableController, guild_id: int, query: LedgerQuery, page: int,
                      player_name: str | None, lang: str
                      ) -> tuple[discord.Embed, Rows | None]:
    """One page of the ledger: a table's (all its payments), else one season's of the server
    (the current one unless the query names one)."""
    store = controller.service.store
    kind = controller.game.kind
    season = query.season
    shown_season: int | None = None
    if query.table_id is None:
        seasons = [s.season for s in await store.seasons(guild_id, kind)]
        season = season or seasons[-1]
        # a server that never started a new season needs no season in its titles
        shown_season = season if len(seasons) > 1 else None
    scope = scope_text(lang, table_id=query.table_id, season=shown_season)
    if query.player_id is None:
        balances = await store.balances(guild_id, kind, table_id=query.table_id, season=season)
        # hands are counted per table, not per season: shown when they cover the same span
        stats = (await controller.service.stats(guild_id, kind, query.table_id)
                 if query.table_id is not None or shown_season is None else None)
        rows = standings(balances, stats)
        embed = standings_embed(rows, page=page, scope=scope, lang=lang)
        return embed, ledger_view(query, page=page, count=len(rows), lang=lang)
    entries = await store.ledger_entries(guild_id, kind=kind, player_id=query.player_id,
                                         table_id=query.table_id, season=season,
                                         limit=ENTRY_LIMIT)
    if player_name is None:
        player_name = next(
            ((e.payee_name if e.payee_id == query.player_id else e.payer_name)
             for e in entries), None) or tr(lang, "That player")
    embed = entries_embed(entries, query.player_id, player_name, page=page, scope=scope,
                          lang=lang)
    return embed, ledger_view(query, page=page, count=len(entries), lang=lang)


SHARED = SharedWords(
    order=("season", "start", "challenge", "join", "hint", "leave", "hand", "draw", "knock",
           "end", "spread", "hit", "discard", "deal", "table", "rules", "stop", "history", "top",
           "profile", "ledger", "defaults", "daily"),
    descriptions={
        "join": cmd("Sit down at this channel's Tonk table (lobby or between hands)"),
        "leave": cmd("Leave the table; during a hand you forfeit it and pay the stake to each "
                     "player"),
        "stop": cmd("Stop this channel's Tonk table (host or moderators)"),
        "history": cmd("This server's recent Tonk tables, with replays (only you see it)"),
        "top": cmd("This server's Tonk leaderboard by skill rating"),
        "profile": cmd("A player's Tonk rating, record and rating history"),
    },
    user_command=cmd("Play Tonk with…"),
)
"""The subcommands every game shares, worded for Tonk, among Tonk's own."""


class Tonk(commands.Cog):
    tonk = app_commands.Group(
        name=cmd("tonk"),
        description=cmd("Tonk: knock rummy for chips (play money), hand after hand, with a server "
                        "ledger"),
        allowed_installs=ANYWHERE_INSTALLS,
        allowed_contexts=ANYWHERE_CONTEXTS,
    )
    season = app_commands.Group(
        name=cmd("season"),
        description=cmd("Seasons of this server's Tonk ledger"),
        parent=tonk,
    )

    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    # -- reading the table for commands --------------------------------------------------------

    async def _my_game(self, i: discord.Interaction) -> tuple[TableSnapshot, TonkEngine]:
        snapshot = await self.controller.table_for(i)
        if snapshot.engine is None:
            raise UserFacingError("The game hasn't started yet: your cards come when it does.")
        if snapshot.seat_of(i.user.id) is None:
            raise UserFacingError("You're not playing at this table.")
        return snapshot, snapshot.engine

    async def _seated_table(self, i: discord.Interaction) -> TableSnapshot | None:
        """For autocomplete: the channel's Tonk game if the user plays in it (no errors: an
        autocomplete answers with choices or nothing)."""
        if i.channel_id is None:
            return None
        snapshot = await self.controller.service.get(i.channel_id)
        if (snapshot is None or snapshot.kind != self.controller.game.kind
                or snapshot.engine is None):
            return None
        return snapshot if snapshot.seat_of(i.user.id) is not None else None

    # -- slash commands ------------------------------------------------------------------------

    @tonk.command(name=cmd("start"), description=cmd("Open a Tonk lobby in this channel"))
    @app_commands.describe(
        stake=cmd("Chips each loser pays the winner per hand (default: the server's, else 1)"),
        no_upcard=cmd("Turn no card up after the deal; the first player draws from the stock"),
        must_spread=cmd("You may not discard while holding a complete spread"),
        double_needs_spread=cmd("Going out without a discard pays double only with a new "
                                "spread"),
        hit_lock=cmd("A player whose spread was hit may not drop on their next turn"),
        computers=cmd("How many computer players to seat (you can add more in the lobby)"),
        level=cmd("How well the computer players play (default: the server's, else normal)"),
        turn_time=cmd("Seconds per turn before a move is made for you (0 = no timer; default: "
                      "the server's)"),
        rated=cmd("Count the result for the skill ratings (tables with computers never count)"),
    )
    @app_commands.rename(
        stake=cmd("stake"), no_upcard=cmd("no_upcard"), must_spread=cmd("must_spread"),
        double_needs_spread=cmd("double_needs_spread"), hit_lock=cmd("hit_lock"),
        computers=cmd("computers"), level=cmd("level"), turn_time=cmd("turn_time"),
        rated=cmd("rated"),
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        stake: app_commands.Range[int, 1, MAX_STAKE] | None = None,
        no_upcard: bool = False,
        must_spread: bool = False,
        double_needs_spread: bool = False,
        hit_lock: bool = False,
        computers: app_commands.Range[int, 0, 3] = 0,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        rated: bool = True,
        level: str | None = None,
    ) -> None:
        if stake is None:
            stake = await self._default_stake(interaction)
        checks.in_range(stake, 1, MAX_STAKE, L("The stake"))
        options = TonkOptions(stake=stake, upcard=not no_upcard, must_spread=must_spread,
                              double_needs_spread=double_needs_spread, hit_lock=hit_lock)
        await lobby.open_lobby(self.controller, interaction, options, turn_seconds=turn_time,
                               computers=computers, rated=rated, level=level)

    async def _default_stake(self, interaction: discord.Interaction) -> int:
        """The server's default stake for new Tonk tables, else the game's."""
        stake = (await self.controller.defaults(_guild(interaction))).options.get("stake")
        # a stored setting is checked when it is set; an odd one falls back rather than block
        if isinstance(stake, int) and not isinstance(stake, bool) and 1 <= stake <= MAX_STAKE:
            return stake
        return DEFAULT_STAKE

    @tonk.command(name=cmd("draw"), description=cmd("Draw from the stock or take the top "
                                                    "discard"))
    @app_commands.describe(source=cmd("Where to draw from"))
    @app_commands.rename(source=cmd("source"))
    @app_commands.choices(source=[
        app_commands.Choice(name=cmd("stock"), value="stock"),
        app_commands.Choice(name=cmd("discard pile"), value="discard"),
    ])
    async def draw(self, interaction: discord.Interaction,
                   source: app_commands.Choice[str]) -> None:
        move: Move = DrawStock() if source.value == "stock" else DrawDiscard()
        await moves.move(self.controller, interaction, move)

    # the design's moves are "draw, play, knock and pass", and the Swedish and Danish names
    # were knock already (knacka, bank): /tonk knock since issue 36, where it was /tonk drop
    @tonk.command(name=cmd("knock"), description=cmd("Drop, also called knocking: show your "
                                                     "hand, claiming the lowest total"))
    async def knock(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, Drop())

    @tonk.command(name=cmd("end"), description=cmd("End the hand when the stock is empty"))
    async def end(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, EndHand())

    @tonk.command(name=cmd("spread"), description=cmd("Lay a spread: a book or a run, e.g. "
                                                      "5c 6c 7c"))
    @app_commands.describe(cards=cmd("The cards to lay: pick one of the spreads your hand "
                                     "forms"))
    @app_commands.rename(cards=cmd("cards"))
    async def spread(self, interaction: discord.Interaction,
                     cards: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards)
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand(interaction.user.id))
        await moves.move(self.controller, interaction, Spread(tuple(chosen)))

    @spread.autocomplete("cards")
    async def spread_cards(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkEngine = snapshot.engine
        lang = user_lang(interaction)
        choices = [
            _choice(trn(lang, "{spread}: {n} point", "{spread}: {n} points", hand_total(s),
                        spread=spread_text(s, cards.letters)), _typed(s))
            for s in spreads_in(engine.hand(interaction.user.id))
        ]
        return _filtered(choices, current)

    @tonk.command(name=cmd("hit"), description=cmd("Add cards to a spread on the table, e.g. "
                                                   "8c on S1"))
    @app_commands.describe(cards=cmd("The cards to add"), spread=cmd("The spread to hit, e.g. "
                                                                     "S1"))
    @app_commands.rename(cards=cmd("cards"), spread=cmd("spread"))
    async def hit(self, interaction: discord.Interaction,
                  cards: app_commands.Range[str, 1, TEXT_LIMIT],
                  spread: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards)
        checks.text(spread)
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand(interaction.user.id))
        await moves.move(self.controller, interaction, Hit(_spread_id(spread), tuple(chosen)))

    @hit.autocomplete("spread")
    async def hit_spread(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkEngine = snapshot.engine
        hand = engine.hand(interaction.user.id)
        # a choice shows text as it is: the owners' names as typed
        names = {p: as_typed(name) for p, name in self.controller.names(snapshot).items()}
        lang = user_lang(interaction)
        spreads = [s for s in engine.spreads if hits_on(hand, s.cards)] or list(engine.spreads)
        choices = [_choice(spread_label(s.id, s.cards, s.owner, names, lang, cards.letters),
                           s.label)
                   for s in spreads]
        return _filtered(choices, current)

    @hit.autocomplete("cards")
    async def hit_cards(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkEngine = snapshot.engine
        hand = engine.hand(interaction.user.id)
        lang = user_lang(interaction)
        wanted = _optional_spread_id(getattr(interaction.namespace, "spread", None))
        choices = []
        for s in engine.spreads:
            if wanted is not None and s.id != wanted:
                continue
            for chosen in hits_on(hand, s.cards):
                choices.append(_choice(tr(lang, "{cards} on {spread} {spread_cards}",
                                          cards=cards_text(chosen, cards.letters),
                                          spread=s.label,
                                          spread_cards=spread_text(s.cards, cards.letters)),
                                       _typed(chosen)))
        return _filtered(choices, current)

    @tonk.command(name=cmd("discard"), description=cmd("Discard a card, ending your turn"))
    @app_commands.describe(card=cmd("The card to discard, e.g. Kh"))
    @app_commands.rename(card=cmd("card"))
    async def discard(self, interaction: discord.Interaction,
                      card: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(card)
        _, engine = await self._my_game(interaction)
        patterns = cards.parse_cards(card)
        if len(patterns) != 1:
            raise UserFacingError("That is more than one card: discard exactly one, e.g. "
                                  "`Kh`.")
        chosen = cards.pick_from_hand(patterns, engine.hand(interaction.user.id))
        await moves.move(self.controller, interaction, Discard(chosen[0]))

    @discard.autocomplete("card")
    async def discard_card(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkEngine = snapshot.engine
        player = interaction.user.id
        legal = [m.card for m in engine.legal_moves(player) if isinstance(m, Discard)]
        offered = legal or list(engine.hand(player))
        choices = [_choice(cards.letters(c), cards.text(c)) for c in sorted(
            offered, key=lambda c: -hand_total((c,)))]
        return _filtered(choices, current)

    @tonk.command(name=cmd("deal"), description=cmd("Deal the next hand (anyone at the table)"))
    async def deal(self, interaction: discord.Interaction) -> None:
        await moves.move(self.controller, interaction, DealNextHand())

    @tonk.command(name=cmd("table"), description=cmd("Post the table again at the bottom of the "
                                                     "channel"))
    async def table(self, interaction: discord.Interaction) -> None:
        await self.controller.repost(interaction)

    @tonk.command(name=cmd("rules"), description=cmd("A short summary of the rules (only you "
                                                     "see it)"))
    async def rules(self, interaction: discord.Interaction) -> None:
        options = None
        if interaction.channel_id is not None:
            snapshot = await self.controller.service.get(interaction.channel_id)
            if snapshot is not None and snapshot.kind == self.controller.game.kind:
                options = _options(snapshot)
        await interaction.response.send_message(rules_text(options, user_lang(interaction)),
                                                ephemeral=True)

    @tonk.command(name=cmd("ledger"), description=cmd("This server's Tonk standings and "
                                                      "payments"))
    @app_commands.describe(
        player=cmd("Show this player's recent ledger entries"),
        table=cmd("Only this channel's table"),
        season=cmd("An earlier season of the ledger (default: the current one)"),
        private=cmd("Answer only to you"),
        export=cmd("Attach the ledger as a CSV file with its chain digests (Manage Server)"),
    )
    @app_commands.rename(player=cmd("player"), table=cmd("table"), season=cmd("season"),
                         private=cmd("private"), export=cmd("export"))
    @app_commands.choices(export=[
        app_commands.Choice(name=cmd("the season"), value="season"),
        app_commands.Choice(name=cmd("all time"), value="all"),
    ])
    async def ledger(self, interaction: discord.Interaction, player: discord.User | None = None,
                     table: bool = False, season: app_commands.Range[int, 1, 1_000_000] | None
                     = None, private: bool = False, export: str | None = None) -> None:
        guild_id = _guild(interaction)
        if export not in (None, "season", "all"):
            raise UserFacingError("Export the season or all time. Nothing was sent.")
        if export == "all" and season is not None:
            raise UserFacingError("An export of all time covers every season: leave out "
                                  "`season:`, or export the season. Nothing was sent.")
        if season is not None:
            await self._check_season(guild_id, season)
        table_id = await self._channel_table(interaction) if table else None
        if export is not None:
            await ledger_export(self.controller, interaction, season=season,
                                all_time=export == "all", table_id=table_id,
                                player_id=None if player is None else player.id)
            return
        query = LedgerQuery(None if player is None else player.id, table_id, season)
        name = None if player is None else player.display_name
        embed, view = await ledger_page(self.controller, guild_id, query, 0, name,
                                        user_lang(interaction))
        await interaction.response.send_message(view=answer_layout(embed, view),
                                                ephemeral=private)

    @season.command(name=cmd("new"), description=cmd("Start a new ledger season: standings "
                                                     "start from zero (Manage Server)"))
    @app_commands.default_permissions(manage_guild=True)
    async def season_new(self, interaction: discord.Interaction) -> None:
        guild_id = _guild(interaction)
        # Discord applies default permissions to whole command groups only, so the check that
        # counts is this one
        if not interaction.permissions.manage_guild:
            raise UserFacingError("Only members with the Manage Server permission can start a "
                                  "new season. Nothing was changed.")
        season = await self.controller.service.store.start_season(
            guild_id, self.controller.game.kind, by_id=interaction.user.id, now=time.time())
        lang = user_lang(interaction)
        await interaction.response.send_message(tr(
            lang, "Season {season} of the Tonk ledger has started: the standings start from "
                  "zero. Earlier seasons stay readable with `{command} season:`.",
            season=season, command=slash(lang, "tonk", "ledger")), ephemeral=True)

    @tonk.command(name=cmd("defaults"),
                  description=cmd("This server's defaults for new Tonk tables (Manage Server)"))
    @app_commands.describe(stake=cmd("Chips each loser pays the winner per hand at new tables"))
    @app_commands.default_permissions(manage_guild=True)
    async def defaults(self, interaction: discord.Interaction,
                       stake: app_commands.Range[int, 1, MAX_STAKE]) -> None:
        guild_id = _guild(interaction)
        checks.in_range(stake, 1, MAX_STAKE, L("The stake"))
        # as for seasons: Discord applies default permissions to whole groups only
        if not interaction.permissions.manage_guild:
            raise UserFacingError("Only members with the Manage Server permission can change "
                                  "the server's settings. Nothing was changed.")
        settings = self.controller.settings
        kind = self.controller.game.kind
        current = await settings.server(guild_id)
        games = {k: v.model_dump() for k, v in current.games.items()}
        mine = games.get(kind, {})
        games[kind] = {**mine, "options": {**mine.get("options", {}), "stake": stake}}
        await settings.update_server(guild_id, games=games)
        lang = user_lang(interaction)
        await interaction.response.send_message(tr(
            lang, "New Tonk tables on this server are played for {chips} unless their host "
                  "chooses a stake.", chips=chips(lang, stake)), ephemeral=True)

    # -- the ledger ----------------------------------------------------------------------------

    async def _check_season(self, guild_id: int, season: int) -> None:
        seasons = await self.controller.service.store.seasons(guild_id, self.controller.game.kind)
        last = seasons[-1].season
        if season > last:
            raise UserFacingError("There is no season {season} yet: this server's Tonk ledger "
                                  "has seasons 1 to {last}.", season=season, last=last)

    async def _channel_table(self, interaction: discord.Interaction) -> int:
        """The channel's Tonk table: the one in play, else the latest that was here."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        service = self.controller.service
        kind = self.controller.game.kind
        snapshot = await service.get(channel_id)
        if snapshot is not None and snapshot.kind == kind:
            return snapshot.table_id
        for record in await service.store.tables_of_guild(_guild(interaction)):
            if record.channel_id == channel_id and record.kind == kind:
                return record.id
        raise UserFacingError("There has been no Tonk table in this channel. Leave out "
                              "`table:` to see the whole server's ledger.")


def _guild(interaction: discord.Interaction) -> int:
    """Whose ledger: the server's, or a DM's or group DM's own (``reach.place_of``)."""
    place = place_of(interaction)
    if place is None:
        raise UserFacingError("Tonk is played in server channels.")
    return place


def _options(snapshot: TableSnapshot) -> TonkOptions | None:
    options = snapshot.options
    return options if isinstance(options, TonkOptions) else None


def _pick(text: str, hand: Sequence[int]) -> list[int]:
    return cards.pick_from_hand(cards.parse_cards(text), hand)


def _typed(chosen: Sequence[int]) -> str:
    """What a user would type for these cards: ``5c 6c 7c``."""
    return " ".join(cards.text(c) for c in chosen)


def _spread_id(text: str) -> int:
    spread_id = _optional_spread_id(text)
    if spread_id is None:
        raise UserFacingError("{text} is not a spread on the table: name one like S1.",
                              text=quoted(text))
    return spread_id


def _optional_spread_id(text: object) -> int | None:
    if not isinstance(text, str):
        return None
    match = _SPREAD_ID.match(text)
    return int(match.group(1)) if match else None


def _choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=name[:100], value=value[:100])


def _filtered(choices: list[app_commands.Choice[str]], current: str
              ) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    if needle:
        choices = [c for c in choices if needle in c.name.lower() or needle in c.value.lower()]
    return choices[:AUTOCOMPLETE_LIMIT]
