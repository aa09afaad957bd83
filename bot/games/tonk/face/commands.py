"""``/tonk``: Tonk tables in a channel — the game's own components, its slash commands and the
ledger.

Thin on purpose: handlers turn an interaction into a call on the shared table controller (or a
Tonk move for it); the rules live in ``bot.games.tonk``, the looks in ``render`` and ``ledger``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import cards
from bot.discord import checks
from bot.discord.checks import MAX_TURN_SECONDS, TEXT_LIMIT
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError, quoted
from bot.discord.routing import Handler, Route
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
    TonkOptions,
    TonkTable,
)
from bot.games.tonk.face.ledger import (
    ENTRY_LIMIT,
    LedgerQuery,
    entries_embed,
    ledger_view,
    standings,
    standings_embed,
)
from bot.games.tonk.face.render import (
    card_text,
    cards_text,
    parse_cards_value,
    parse_hit_value,
    rules_text,
    spread_label,
    spread_text,
)
from bot.games.tonk.spreads import hand_total, hits_on, spreads_in
from bot.table.service import TableSnapshot

AUTOCOMPLETE_LIMIT = 25
DEFAULT_TURN_SECONDS = 120
"""Issue 8: Tonk's default turn time; ``turn_time: 0`` turns the timer off."""
_SPREAD_ID = re.compile(r"^\s*s?(\d{1,6})\b", re.IGNORECASE)
MAX_STAKE = 1_000_000


def routes(controller: TableController) -> dict[str, Handler]:
    """Tonk's own components: the table's draw buttons and Rules, the panel's moves and menus,
    the ledger's pages."""

    async def rules(i: discord.Interaction, route: Route, _: list[str]) -> None:
        snapshot = await controller.table_for(i, route)
        await i.response.send_message(rules_text(_options(snapshot)), ephemeral=True)

    async def spread(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            move: Move = Spread(parse_cards_value(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a spread. Nothing was changed.") from None
        await controller.move(i, move, route=route, from_panel=True)

    async def hit(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            spread_id, chosen = parse_hit_value(values[0])
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a hit. Nothing was changed.") from None
        await controller.move(i, Hit(spread_id, chosen), route=route, from_panel=True)

    async def discard(i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            move: Move = Discard(int(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a card. Nothing was changed.") from None
        await controller.move(i, move, route=route, from_panel=True)

    async def ledger(i: discord.Interaction, route: Route, _: list[str]) -> None:
        guild_id = _guild(i)
        try:
            query = LedgerQuery.parse(route.arg, route.table_id)
        except ValueError:
            raise UserFacingError("This button no longer does anything.") from None
        if query.table_id is not None:
            record = await controller.service.store.table(query.table_id)
            if record is None or record.guild_id != guild_id:
                raise UserFacingError("That ledger is not this server's.")
        embed, view = await ledger_page(controller, guild_id, query, route.counter or 0, None)
        await i.response.edit_message(embed=embed, view=view)

    return {
        "rules": rules,
        "drop": controller.move_button(Drop()),
        "draw_stock": controller.move_button(DrawStock()),
        "draw_discard": controller.move_button(DrawDiscard()),
        "end_hand": controller.move_button(EndHand()),
        "deal": controller.move_button(DealNextHand()),
        "spread": spread,
        "hit": hit,
        "discard": discard,
        "ledger": ledger,
    }


async def ledger_page(controller: TableController, guild_id: int, query: LedgerQuery, page: int,
                      player_name: str | None) -> tuple[discord.Embed, discord.ui.View | None]:
    label = None if query.table_id is None else f"table {query.table_id}"
    service = controller.service
    kind = controller.game.kind
    if query.player_id is None:
        rows = standings(await service.balances(guild_id, kind, query.table_id),
                         await service.stats(guild_id, kind, query.table_id))
        embed = standings_embed(rows, page=page, table_label=label)
        return embed, ledger_view(query, page=page, count=len(rows))
    entries = await service.ledger_entries(guild_id, kind, query.player_id, ENTRY_LIMIT,
                                           table_id=query.table_id)
    if player_name is None:
        player_name = next(
            ((e.payee_name if e.payee_id == query.player_id else e.payer_name)
             for e in entries), None) or "That player"
    embed = entries_embed(entries, query.player_id, player_name, page=page, table_label=label)
    return embed, ledger_view(query, page=page, count=len(entries))


class Tonk(commands.Cog):
    tonk = app_commands.Group(
        name="tonk",
        description="Tonk: knock rummy for stakes — hand after hand, with a server ledger",
        guild_only=True,
    )

    def __init__(self, controller: TableController) -> None:
        self.controller = controller

    # -- reading the table for commands --------------------------------------------------------

    async def _my_game(self, i: discord.Interaction) -> tuple[TableSnapshot, TonkTable]:
        snapshot = await self.controller.table_for(i)
        if snapshot.engine is None:
            raise UserFacingError("The game hasn't started yet.")
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

    @tonk.command(name="start", description="Open a Tonk lobby in this channel")
    @app_commands.describe(
        stake="Chips each loser pays the winner per hand (T1)",
        no_upcard="Turn no card up after the deal; the first player draws from the stock",
        must_spread="You may not discard while holding a complete spread (T6)",
        double_needs_spread="Going out without a discard pays double only with a new spread (T6)",
        hit_lock="A player whose spread was hit may not drop on their next turn (T9)",
        computers="How many computer players to seat (you can add more in the lobby)",
        turn_time=f"Seconds per turn before T11's automatic move is made for you (default "
                  f"{DEFAULT_TURN_SECONDS}; 0 = no timer)",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        stake: app_commands.Range[int, 1, MAX_STAKE] = 1,
        no_upcard: bool = False,
        must_spread: bool = False,
        double_needs_spread: bool = False,
        hit_lock: bool = False,
        computers: app_commands.Range[int, 0, 3] = 0,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] = DEFAULT_TURN_SECONDS,
    ) -> None:
        checks.in_range(stake, 1, MAX_STAKE, "The stake")
        options = TonkOptions(stake=stake, upcard=not no_upcard, must_spread=must_spread,
                              double_needs_spread=double_needs_spread, hit_lock=hit_lock)
        await self.controller.open_lobby(interaction, options, turn_seconds=turn_time,
                                     computers=computers)

    @tonk.command(name="join", description="Sit down at this channel's Tonk table (lobby or "
                                           "between hands)")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.controller.join(interaction)

    @tonk.command(name="leave", description="Leave the table; during a hand you forfeit it and "
                                            "pay the stake to each player (T11)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.controller.leave(interaction)

    @tonk.command(name="hand", description="Show your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction)

    @tonk.command(name="draw", description="Draw from the stock or take the top discard")
    @app_commands.describe(source="Where to draw from")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["stock", "discard"]) -> None:
        await self.controller.move(interaction, DrawStock() if source == "stock" else DrawDiscard())

    @tonk.command(name="knock", description="Drop: show your hand, claiming the lowest total")
    async def knock(self, interaction: discord.Interaction) -> None:
        await self.controller.move(interaction, Drop())

    @tonk.command(name="end", description="End the hand when the stock is empty (T8)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.controller.move(interaction, EndHand())

    @tonk.command(name="spread", description="Lay a spread: a book or a run, e.g. 5c 6c 7c")
    @app_commands.describe(cards="The cards to lay — pick one of the spreads your hand forms")
    async def spread(self, interaction: discord.Interaction,
                     cards: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards, "card text")
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand(interaction.user.id))
        await self.controller.move(interaction, Spread(tuple(chosen)))

    @spread.autocomplete("cards")
    async def spread_cards(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        choices = [
            _choice(f"{spread_text(s)} — {hand_total(s)} points", _typed(s))
            for s in spreads_in(engine.hand(interaction.user.id))
        ]
        return _filtered(choices, current)

    @tonk.command(name="hit", description="Add cards to a spread on the table, e.g. 8c on S1")
    @app_commands.describe(cards="The cards to add", spread="The spread to hit, e.g. S1")
    async def hit(self, interaction: discord.Interaction,
                  cards: app_commands.Range[str, 1, TEXT_LIMIT],
                  spread: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(cards, "card text")
        checks.text(spread, "spread name")
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand(interaction.user.id))
        await self.controller.move(interaction, Hit(_spread_id(spread), tuple(chosen)))

    @hit.autocomplete("spread")
    async def hit_spread(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        hand = engine.hand(interaction.user.id)
        names = self.controller.names(snapshot)
        spreads = [s for s in engine.spreads if hits_on(hand, s.cards)] or list(engine.spreads)
        choices = [_choice(spread_label(s.id, s.cards, s.owner, names), s.label)
                   for s in spreads]
        return _filtered(choices, current)

    @hit.autocomplete("cards")
    async def hit_cards(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        hand = engine.hand(interaction.user.id)
        wanted = _optional_spread_id(getattr(interaction.namespace, "spread", None))
        choices = []
        for s in engine.spreads:
            if wanted is not None and s.id != wanted:
                continue
            for chosen in hits_on(hand, s.cards):
                choices.append(_choice(f"{cards_text(chosen)} on {s.label} {spread_text(s.cards)}",
                                       _typed(chosen)))
        return _filtered(choices, current)

    @tonk.command(name="discard", description="Discard a card, ending your turn")
    @app_commands.describe(card="The card to discard, e.g. Kh")
    async def discard(self, interaction: discord.Interaction,
                      card: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        checks.text(card, "card text")
        _, engine = await self._my_game(interaction)
        patterns = cards.parse_cards(card)
        if len(patterns) != 1:
            raise UserFacingError("Discard exactly one card, e.g. `Kh`.")
        chosen = cards.pick_from_hand(patterns, engine.hand(interaction.user.id))
        await self.controller.move(interaction, Discard(chosen[0]))

    @discard.autocomplete("card")
    async def discard_card(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        player = interaction.user.id
        legal = [m.card for m in engine.legal_moves(player) if isinstance(m, Discard)]
        offered = legal or list(engine.hand(player))
        choices = [_choice(card_text(c), cards.text(c)) for c in sorted(
            offered, key=lambda c: -hand_total((c,)))]
        return _filtered(choices, current)

    @tonk.command(name="deal", description="Deal the next hand (anyone at the table)")
    async def deal(self, interaction: discord.Interaction) -> None:
        await self.controller.move(interaction, DealNextHand())

    @tonk.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction) -> None:
        await self.controller.repost(interaction)

    @tonk.command(name="rules", description="A short summary of the rules (only you see it)")
    async def rules(self, interaction: discord.Interaction) -> None:
        options = None
        if interaction.channel_id is not None:
            snapshot = await self.controller.service.get(interaction.channel_id)
            if snapshot is not None and snapshot.kind == self.controller.game.kind:
                options = _options(snapshot)
        await interaction.response.send_message(rules_text(options), ephemeral=True)

    @tonk.command(name="stop", description="Stop this channel's Tonk table (host or moderators)")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.controller.cancel(interaction)

    @tonk.command(name="ledger", description="This server's Tonk standings and payments")
    @app_commands.describe(
        player="Show this player's recent ledger entries",
        table="Only this channel's table",
        private="Answer only to you",
    )
    async def ledger(self, interaction: discord.Interaction, player: discord.User | None = None,
                     table: bool = False, private: bool = False) -> None:
        guild_id = _guild(interaction)
        table_id = await self._channel_table(interaction) if table else None
        query = LedgerQuery(None if player is None else player.id, table_id)
        name = None if player is None else player.display_name
        embed, view = await ledger_page(self.controller, guild_id, query, 0, name)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=private)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=private)

    # -- the ledger ----------------------------------------------------------------------------

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
        raise UserFacingError("There has been no Tonk table in this channel.")


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("Tonk is played in server channels.")
    return interaction.guild_id


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
        raise UserFacingError(f"{quoted(text)} is not a spread — name it like S1.")
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
