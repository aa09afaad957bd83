"""``/tonk``: Tonk tables in a channel — lobby, hands for stakes, the hand panel, the ledger.

Thin on purpose: handlers turn an interaction into a call on the shared table controller (or a
Tonk move for it); the rules live in ``bot.games.tonk``, the looks in ``bot.render.tonk`` and
``bot.render.ledger``.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import cards
from bot.client import KortbordBot
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Left,
    Move,
    Spread,
    TonkOptions,
    TonkTable,
)
from bot.games.tonk.events import Dealt
from bot.games.tonk.spreads import hand_total, hits_on, spreads_in
from bot.render.ledger import (
    ENTRY_LIMIT,
    LedgerQuery,
    entries_embed,
    ledger_view,
    standings_embed,
)
from bot.render.tonk import (
    TonkUI,
    card_text,
    cards_text,
    names_from_log,
    parse_cards_value,
    parse_hit_value,
    rules_text,
    spread_label,
    spread_text,
)
from bot.service.tables import TableSnapshot
from bot.storage.models import MoveRecord
from bot.ui.errors import UserFacingError
from bot.ui.routing import Route
from bot.ui.tables import MAX_TURN_SECONDS, RECENT_LINES, TableController

AUTOCOMPLETE_LIMIT = 25
DEFAULT_TURN_SECONDS = 120
"""Issue 8: Tonk's default turn time; ``turn_time: 0`` turns the timer off."""
_SPREAD_ID = re.compile(r"^\s*s?(\d+)\b", re.IGNORECASE)


class TonkController(TableController):
    """The shared flow, plus what a table of many hands needs: the latest lines are those of
    the hand in play (an earlier hand's cards are dealt again), and players who left are still
    named in results."""

    ui: TonkUI

    async def table_for(self, interaction: discord.Interaction, route: Route | None = None
                        ) -> TableSnapshot:
        snapshot = await super().table_for(interaction, route)
        if not snapshot.is_lobby and (not self.ui.knows(snapshot.table_id)
                                      or snapshot.table_id not in self._recent):
            # after a restart: names and lines come back from the move log before a move adds
            # to them
            self._recall(snapshot, await self.service.moves(snapshot.table_id))
        return snapshot

    async def recent_lines(self, snapshot: TableSnapshot) -> list[str]:
        if snapshot.table_id not in self._recent:
            self._recall(snapshot, await self.service.moves(snapshot.table_id))
        return list(self._recent[snapshot.table_id])

    def _recall(self, snapshot: TableSnapshot, records: Sequence[MoveRecord]) -> None:
        self.ui.learn(snapshot.table_id, names_from_log(records))
        # only this hand's lines: the cards of an earlier hand have been dealt again
        start = max((i for i, r in enumerate(records)
                     if any(e.get("type") == "dealt" for e in r.events)), default=0)
        names = self.ui.names(snapshot)
        lines: deque[str] = deque(maxlen=RECENT_LINES)
        for record in records[start:]:
            lines.extend(self.ui.describe(record.events, names))
        self._recent[snapshot.table_id] = lines

    def _remember(self, snapshot: TableSnapshot, events: Sequence[Any]) -> None:
        if any(isinstance(e, Dealt) for e in events):
            self._recent.pop(snapshot.table_id, None)
        super()._remember(snapshot, events)

    def _drop_table(self, table_id: int) -> None:
        super()._drop_table(table_id)
        self.ui.forget(table_id)

    async def leave(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.leave(snapshot.channel_id, interaction.user.id)
        if result.snapshot.status == "cancelled":
            await self._closed(interaction, result.snapshot, "The lobby closed: nobody is left.")
            return
        if any(isinstance(e, Left) and e.forfeit for e in result.events):
            stake = snapshot.options.stake  # type: ignore[attr-defined]
            text = (f"You left mid-hand and forfeited it: you paid {stake} to each other player "
                    "(T11).")
        else:
            text = "You left the table."
        await self._after_change(interaction, result, text)


class Tonk(commands.Cog):
    tonk = app_commands.Group(
        name="tonk",
        description="Tonk: knock rummy for stakes — hand after hand, with a server ledger",
        guild_only=True,
    )

    def __init__(self, bot: KortbordBot) -> None:
        self.bot = bot
        self.tables = TonkController(bot.tables, bot.publisher, TonkUI(),
                                     on_change=bot.table_changed)
        bot.controllers["tonk"] = self.tables
        self.tables.register_routes(bot.router, {
            "rules": self._rules_button,
            "drop": self.tables.move_button(Drop()),
            "draw_stock": self.tables.move_button(DrawStock()),
            "draw_discard": self.tables.move_button(DrawDiscard()),
            "end_hand": self.tables.move_button(EndHand()),
            "deal": self.tables.move_button(DealNextHand()),
            "spread": self._spread_select,
            "hit": self._hit_select,
            "discard": self._discard_select,
            "ledger": self._ledger_button,
        })

    # -- components ----------------------------------------------------------------------------

    async def _rules_button(self, i: discord.Interaction, route: Route, _: list[str]) -> None:
        snapshot = await self.tables.table_for(i, route)
        await i.response.send_message(rules_text(_options(snapshot)), ephemeral=True)

    async def _spread_select(self, i: discord.Interaction, route: Route, values: list[str]
                             ) -> None:
        try:
            move: Move = Spread(parse_cards_value(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a spread. Nothing was changed.") from None
        await self.tables.move(i, move, route=route, from_panel=True)

    async def _hit_select(self, i: discord.Interaction, route: Route, values: list[str]) -> None:
        try:
            spread_id, chosen = parse_hit_value(values[0])
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a hit. Nothing was changed.") from None
        await self.tables.move(i, Hit(spread_id, chosen), route=route, from_panel=True)

    async def _discard_select(self, i: discord.Interaction, route: Route, values: list[str]
                              ) -> None:
        try:
            move: Move = Discard(int(values[0]))
        except (ValueError, IndexError):
            raise UserFacingError("That choice is not a card. Nothing was changed.") from None
        await self.tables.move(i, move, route=route, from_panel=True)

    async def _ledger_button(self, i: discord.Interaction, route: Route, _: list[str]) -> None:
        guild_id = _guild(i)
        try:
            query = LedgerQuery.parse(route.arg, route.table_id)
        except ValueError:
            raise UserFacingError("This button no longer does anything.") from None
        if query.table_id is not None:
            record = await self.bot.tables.store.table(query.table_id)
            if record is None or record.guild_id != guild_id:
                raise UserFacingError("That ledger is not this server's.")
        embed, view = await self._ledger_page(guild_id, query, route.counter or 0, None)
        await i.response.edit_message(embed=embed, view=view)

    # -- reading the table for commands --------------------------------------------------------

    async def _my_game(self, i: discord.Interaction) -> tuple[TableSnapshot, TonkTable]:
        snapshot = await self.tables.table_for(i)
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
        snapshot = await self.bot.tables.get(i.channel_id)
        if snapshot is None or snapshot.kind != "tonk" or snapshot.engine is None:
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
        stake: app_commands.Range[int, 1, 1_000_000] = 1,
        no_upcard: bool = False,
        must_spread: bool = False,
        double_needs_spread: bool = False,
        hit_lock: bool = False,
        computers: app_commands.Range[int, 0, 3] = 0,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] = DEFAULT_TURN_SECONDS,
    ) -> None:
        options = TonkOptions(stake=stake, upcard=not no_upcard, must_spread=must_spread,
                              double_needs_spread=double_needs_spread, hit_lock=hit_lock)
        await self.tables.open_lobby(interaction, options, turn_seconds=turn_time,
                                     computers=computers)

    @tonk.command(name="join", description="Sit down at this channel's Tonk table (lobby or "
                                           "between hands)")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.tables.join(interaction)

    @tonk.command(name="leave", description="Leave the table; during a hand you forfeit it and "
                                            "pay the stake to each player (T11)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.tables.leave(interaction)

    @tonk.command(name="hand", description="Show your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.tables.show_hand(interaction)

    @tonk.command(name="draw", description="Draw from the stock or take the top discard")
    @app_commands.describe(source="Where to draw from")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["stock", "discard"]) -> None:
        await self.tables.move(interaction, DrawStock() if source == "stock" else DrawDiscard())

    @tonk.command(name="knock", description="Drop: show your hand, claiming the lowest total")
    async def knock(self, interaction: discord.Interaction) -> None:
        await self.tables.move(interaction, Drop())

    @tonk.command(name="end", description="End the hand when the stock is empty (T8)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.tables.move(interaction, EndHand())

    @tonk.command(name="spread", description="Lay a spread: a book or a run, e.g. 5c 6c 7c")
    @app_commands.describe(cards="The cards to lay — pick one of the spreads your hand forms")
    async def spread(self, interaction: discord.Interaction, cards: str) -> None:
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand_of(interaction.user.id))
        await self.tables.move(interaction, Spread(tuple(chosen)))

    @spread.autocomplete("cards")
    async def spread_cards(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        choices = [
            _choice(f"{spread_text(s)} — {hand_total(s)} points", _typed(s))
            for s in spreads_in(engine.hand_of(interaction.user.id))
        ]
        return _filtered(choices, current)

    @tonk.command(name="hit", description="Add cards to a spread on the table, e.g. 8c on S1")
    @app_commands.describe(cards="The cards to add", spread="The spread to hit, e.g. S1")
    async def hit(self, interaction: discord.Interaction, cards: str, spread: str) -> None:
        _, engine = await self._my_game(interaction)
        chosen = _pick(cards, engine.hand_of(interaction.user.id))
        await self.tables.move(interaction, Hit(_spread_id(spread), tuple(chosen)))

    @hit.autocomplete("spread")
    async def hit_spread(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        hand = engine.hand_of(interaction.user.id)
        names = self.tables.ui.names(snapshot)
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
        hand = engine.hand_of(interaction.user.id)
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
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        _, engine = await self._my_game(interaction)
        patterns = cards.parse_cards(card)
        if len(patterns) != 1:
            raise UserFacingError("Discard exactly one card, e.g. `Kh`.")
        chosen = cards.pick_from_hand(patterns, engine.hand_of(interaction.user.id))
        await self.tables.move(interaction, Discard(chosen[0]))

    @discard.autocomplete("card")
    async def discard_card(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        snapshot = await self._seated_table(interaction)
        if snapshot is None:
            return []
        engine: TonkTable = snapshot.engine
        player = interaction.user.id
        legal = [m.card for m in engine.legal_moves(player) if isinstance(m, Discard)]
        offered = legal or list(engine.hand_of(player))
        choices = [_choice(card_text(c), cards.text(c)) for c in sorted(
            offered, key=lambda c: -hand_total((c,)))]
        return _filtered(choices, current)

    @tonk.command(name="deal", description="Deal the next hand (anyone at the table)")
    async def deal(self, interaction: discord.Interaction) -> None:
        await self.tables.move(interaction, DealNextHand())

    @tonk.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction) -> None:
        await self.tables.repost(interaction)

    @tonk.command(name="rules", description="A short summary of the rules (only you see it)")
    async def rules(self, interaction: discord.Interaction) -> None:
        options = None
        if interaction.channel_id is not None:
            snapshot = await self.bot.tables.get(interaction.channel_id)
            if snapshot is not None and snapshot.kind == "tonk":
                options = _options(snapshot)
        await interaction.response.send_message(rules_text(options), ephemeral=True)

    @tonk.command(name="stop", description="Stop this channel's Tonk table (host or moderators)")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.tables.cancel(interaction)

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
        embed, view = await self._ledger_page(guild_id, query, 0, name)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=private)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=private)

    # -- the ledger ----------------------------------------------------------------------------

    async def _channel_table(self, interaction: discord.Interaction) -> int:
        """The channel's Tonk table: the one in play, else the latest that was here."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        snapshot = await self.bot.tables.get(channel_id)
        if snapshot is not None and snapshot.kind == "tonk":
            return snapshot.table_id
        for record in await self.bot.tables.store.tables_of_guild(_guild(interaction)):
            if record.channel_id == channel_id and record.kind == "tonk":
                return record.id
        raise UserFacingError("There has been no Tonk table in this channel.")

    async def _ledger_page(self, guild_id: int, query: LedgerQuery, page: int,
                           player_name: str | None) -> tuple[discord.Embed, discord.ui.View | None]:
        label = None if query.table_id is None else f"table {query.table_id}"
        service = self.bot.tables
        if query.player_id is None:
            rows = await service.ledger_standings(guild_id, query.table_id)
            embed = standings_embed(rows, page=page, table_label=label)
            return embed, ledger_view(query, page=page, count=len(rows))
        entries = await service.ledger_entries(guild_id, query.player_id, ENTRY_LIMIT,
                                               table_id=query.table_id)
        if player_name is None:
            player_name = next(
                ((e.payee_name if e.payee_id == query.player_id else e.payer_name)
                 for e in entries), None) or "That player"
        embed = entries_embed(entries, query.player_id, player_name, page=page,
                              table_label=label)
        return embed, ledger_view(query, page=page, count=len(entries))


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
        raise UserFacingError(f"“{text.strip()}” is not a spread — name it like S1.")
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


async def setup(bot: KortbordBot) -> None:
    await bot.add_cog(Tonk(bot))
