"""The Tonk table: a series of hands with seeded deals, turns, spreads, hits and settlement.

Pure and reproducible: ``TonkEngine.new(seats, options, seed)`` followed by the same moves gives
the same table. ``seed`` is the host's ``DealSource`` (committed deals, ``bot.deals``), asked for
each shuffle by hand number (the cut for deal belongs to hand 1); or, for tables stored before
those, a plain ``int``: then shuffles draw from ``random.Random`` seeded by the table seed and a
shuffle counter, so the counter is the whole RNG state and the stored form stays small.

``TonkEngine`` extends the table's state (``TonkState``, in ``state``) with its flow. What must
always hold is checked in ``checks``; the stored form is written and read back in ``stored``;
both take the state and never import the engine.
"""

from __future__ import annotations

import random
from typing import Any, Self

from bot.gamekit.contract import DealSource, RuleError, Seat
from bot.games.tonk.autoplay import auto_discard, largest_spread, legal_discards
from bot.games.tonk.checks import check_invariants, check_quick
from bot.games.tonk.events import (
    CutForDeal,
    Dealt,
    Discarded,
    DrewFromDiscard,
    DrewFromStock,
    Dropped,
    EndedHand,
    Event,
    HandDrawn,
    HandEnded,
    Joined,
    Left,
    SpreadHit,
    SpreadLaid,
    TableClosed,
    TableDealt,
    TimedOut,
)
from bot.games.tonk.moves import (
    DISCARD_OF,
    MAX_NAME_LENGTH,
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Join,
    Leave,
    Move,
    Spread,
    TableCloses,
    TableDeals,
    Timeout,
)
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.settlement import HandEnd, HandResult, drop_outcome, settle
from bot.games.tonk.spreads import (
    DECK_ORDER,
    TONK_RANK,
    VALUE,
    hand_mask,
    hits_on,
    is_spread,
    is_three_aces,
    may_hit,
    may_spread,
    required_spreads,
    sort_cards,
    spreads_in,
)
from bot.games.tonk.state import TonkState
from bot.games.tonk.stored import restore, stored_form
from bot.games.tonk.terms import (
    AFTER_DRAW,
    HAND_OVER,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START,
    TABLE_CLOSED,
    TIMEOUTS_TO_REMOVE,
    TONK_TOTALS,
    TURN_CAP,
    TableSpread,
)
from bot.games.tonk.views import SeatPublic, SeatView, TonkPrivateView, TonkPublicView
from bot.i18n import N_

_DROP = Drop()
_DRAW_STOCK = DrawStock()
_DRAW_DISCARD = DrawDiscard()
_END_HAND = EndHand()
_DEAL_NEXT = DealNextHand()


class TonkEngine(TonkState):
    """One Tonk table. Create with ``new``; restore with ``from_stored``. The state it holds
    (``TonkState``) is its parts' to read and write; the engine adds the table's flow and the
    views."""

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, seats: list[Seat], options: TonkOptions, seed: int | DealSource) -> TonkEngine:
        """Seat the players (in clockwise order), cut for deal (T3) and deal the first hand (T4
        checked at once). The events of both are in ``opening_events``."""
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise RuleError("T1", "a table has {low} to {high} players", low=MIN_PLAYERS,
                            high=MAX_PLAYERS)
        if len({s.player_id for s in seats}) != len(seats):
            raise RuleError("T1", "a player can sit at a table only once")
        table = cls(options, seed, seats)
        cut = table._cut_for_deal()
        table.cut = cut
        table.opening_events = [cut, *table._deal(cut.dealer)]
        return table

    def _shuffle(self, hand: int, deck: list[int]) -> None:
        if self._deals is None:
            self._rng().shuffle(deck)
        else:
            self._deals.shuffle(hand, deck)

    def _rng(self) -> random.Random:
        """The old shuffles' generator (tables with an ``int`` seed)."""
        rng = random.Random(f"kortbord-tonk:{self.seed}:{self._shuffles}")
        self._shuffles += 1
        return rng

    def _cut_for_deal(self) -> CutForDeal:
        # T3: highest Tonk rank deals (K high, ace low); only the tied players cut again
        contenders = [s.player_id for s in self._seats]
        rounds: list[tuple[tuple[int, int], ...]] = []
        while True:
            deck = list(DECK_ORDER)
            self._shuffle(self.hand_number + 1, deck)
            cut = tuple((p, deck[i]) for i, p in enumerate(contenders))
            rounds.append(cut)
            best = max(TONK_RANK[c] for _, c in cut)
            contenders = [p for p, c in cut if TONK_RANK[c] == best]
            if len(contenders) == 1:
                return CutForDeal(tuple(rounds), contenders[0])

    def _deal(self, dealer: int) -> list[Event]:
        self.hand_number += 1
        self.dealer = dealer
        self.next_dealer = None
        ids = [s.player_id for s in self._seats]
        self._players = ids
        d = ids.index(dealer)
        order = ids[d + 1:] + ids[:d + 1]
        deck = list(DECK_ORDER)
        self._shuffle(self.hand_number, deck)
        hands: dict[int, list[int]] = {p: [] for p in ids}
        for _ in range(HAND_SIZE):
            for p in order:
                hands[p].append(deck.pop())
        upcard = deck.pop() if self.options.upcard else None
        self._hands = hands
        self._discards = [] if upcard is None else [upcard]
        self._stock = deck
        self._spreads = []
        self._in_spreads = 0
        self._next_spread_id = 1
        self._taken = None
        self._laid_new = False
        self._locked = set()
        self.turns = 0
        self.to_move = order[0]
        self.phase = START
        events: list[Event] = [Dealt(
            self.hand_number, dealer, tuple(ids), upcard, len(deck),
            tuple((p, tuple(hands[p])) for p in ids),
        )]
        # T4: the engine spots 49/50 on the deal; one holder wins 2s, several make a draw
        holders = tuple(p for p in ids if sum(VALUE[c] for c in hands[p]) in TONK_TOTALS)
        if len(holders) == 1:
            events.append(self._end_hand(HandEnd.TONK_ON_DEAL, winner=holders[0]))
        elif holders:
            events.append(HandDrawn(self.hand_number, holders))
            events.append(self._end_hand(HandEnd.DRAW_ON_DEAL))
        return events

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """The table has closed: fewer than two players remain (T11)."""
        return self.phase is TABLE_CLOSED

    @property
    def deals_done(self) -> int:
        """Hands dealt and over (a hand ends before the table closes)."""
        if self.phase is START or self.phase is AFTER_DRAW:
            return self.hand_number - 1
        return self.hand_number

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self._seats)

    @property
    def player_ids(self) -> tuple[int, ...]:
        return tuple(s.player_id for s in self._seats)

    @property
    def hand_players(self) -> tuple[int, ...]:
        """The players dealt into the current (or last) hand, in seat order."""
        return tuple(self._players)

    @property
    def spreads(self) -> tuple[TableSpread, ...]:
        return tuple(self._spreads)

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def discard_top(self) -> int | None:
        return self._discards[-1] if self._discards else None

    @property
    def discard_size(self) -> int:
        return len(self._discards)

    @property
    def taken_discard(self) -> int | None:
        """The card the player to move took from the discard pile this turn (T5)."""
        return self._taken

    @property
    def hit_locked(self) -> frozenset[int]:
        """T9: players who may not drop on their next turn."""
        return frozenset(self._locked)

    @property
    def names(self) -> dict[int, str]:
        """Everyone who sat at the table, those who left included."""
        return {**self._departed, **{s.player_id: s.name for s in self._seats}}

    def hand(self, player_id: int) -> tuple[int, ...]:
        """``player_id``'s cards in Tonk order, ace low (private: only for their eyes)."""
        return sort_cards(self._hands.get(player_id, ()))

    def hand_size(self, player_id: int) -> int:
        return len(self._hands.get(player_id, ()))

    def total_of(self, player_id: int) -> int:
        return sum(VALUE[c] for c in self._hands.get(player_id, ()))

    def timeouts_in_a_row(self, player_id: int) -> int:
        return self._timeouts.get(player_id, 0)

    def is_seated(self, player_id: int) -> bool:
        return any(s.player_id == player_id for s in self._seats)

    def legal_moves(self, player_id: int) -> list[Move]:
        """The play moves open to ``player_id`` now, and ``DealNextHand`` between hands.

        ``Join``, ``Leave`` and ``Timeout`` are never listed: they are table actions the service
        sends on a player's behalf, accepted by ``apply`` whenever their rulings allow.
        """
        return list(self._legal(player_id))

    def _legal(self, player_id: int) -> tuple[Move, ...]:
        moves = tuple(self._list_legal(player_id))
        if moves:
            self._offered = (player_id, moves)
        return moves

    def _list_legal(self, player_id: int) -> list[Move]:
        phase = self.phase
        if phase is START:
            if player_id != self.to_move:
                return []
            moves: list[Move] = []
            if not (self.options.hit_lock and player_id in self._locked):
                moves.append(_DROP)
            if self._stock:
                moves.append(_DRAW_STOCK)
            if self._discards:
                moves.append(_DRAW_DISCARD)
            if not self._stock:
                moves.append(_END_HAND)
            return moves
        if phase is AFTER_DRAW:
            if player_id != self.to_move:
                return []
            hand = self._hands[player_id]
            mask = hand_mask(hand)
            possible = spreads_in(hand) if may_spread(mask) else []
            moves = [Spread(s) for s in possible]
            for sp in self._spreads:
                if may_hit(mask, sp.cards):
                    sid = sp.id
                    moves.extend(Hit(sid, cards) for cards in hits_on(hand, sp.cards))
            if not (self.options.must_spread and _any_required(possible)):
                moves.extend(map(DISCARD_OF.__getitem__,
                                 sort_cards(legal_discards(hand, self._taken))))
            return moves
        if phase is HAND_OVER and self.is_seated(player_id):
            return [_DEAL_NEXT]
        return []

    # ------------------------------------------------------------------ moves

    def apply(self, player_id: int, move: Move) -> list[Event]:
        """Apply ``move`` by ``player_id``; raise ``RuleError`` and change nothing if illegal."""
        offered = self._offered
        self._offered = None
        self._touched = []
        if offered is not None and offered[0] == player_id and _listed(move, offered[1]):
            # the very move legal_moves listed for this state: its checks have been made
            events = _UNCHECKED[type(move)](self, player_id, move)
        else:
            handler = _HANDLERS.get(type(move))
            if handler is None:
                raise RuleError("T5", "that is not a Tonk move")
            if self.phase is TABLE_CLOSED:
                raise RuleError("T1", "the table has closed")
            events = handler(self, player_id, move)
        # the table dealing in someone's name is not that player's own move
        if player_id in self._timeouts and type(move) is not Timeout and type(
                move) is not TableDeals:
            del self._timeouts[player_id]
        return events

    def _need_turn(self, player_id: int) -> list[int]:
        if self.phase is HAND_OVER:
            raise RuleError("T5", "no hand is being played: deal the next hand first")
        if player_id != self.to_move:
            raise RuleError("T5", "it is not your turn")
        return self._hands[player_id]

    def _need_after_draw(self, player_id: int, template: str) -> list[int]:
        """``template``: what the player is told when they have not drawn yet."""
        hand = self._need_turn(player_id)
        if self.phase is not AFTER_DRAW:
            raise RuleError("T5", template)
        return hand

    def _need_start(self, player_id: int, template: str) -> None:
        """``template``: what the player is told when they have drawn already."""
        self._need_turn(player_id)
        if self.phase is not START:
            raise RuleError("T5", template)

    def _do_drop(self, player_id: int, move: Drop) -> list[Event]:
        self._need_start(player_id, N_("you can drop only at the start of your turn, before "
                                       "drawing"))
        if self.options.hit_lock and player_id in self._locked:
            raise RuleError("T9", "a spread of yours was hit since your last turn, so you may not "
                                  "drop this turn")
        return self._drop(player_id, move)

    def _drop(self, player_id: int, move: Drop) -> list[Event]:
        totals = {p: self.total_of(p) for p in self._players}
        how = drop_outcome(player_id, totals)
        return [Dropped(player_id), self._end_hand(how, dropper=player_id)]

    def _do_draw_stock(self, player_id: int, move: DrawStock) -> list[Event]:
        self._need_start(player_id, N_("you have drawn already this turn"))
        if not self._stock:
            raise RuleError("T8", "the stock is empty: take the discard, drop, or end the hand")
        return [self._draw_stock(player_id)]

    def _take_stock(self, player_id: int, move: DrawStock) -> list[Event]:
        return [self._draw_stock(player_id)]

    def _draw_stock(self, player_id: int) -> Event:
        card = self._stock.pop()
        self._hands[player_id].append(card)
        self.phase = AFTER_DRAW
        return DrewFromStock(player_id, len(self._stock), card)

    def _do_draw_discard(self, player_id: int, move: DrawDiscard) -> list[Event]:
        self._need_start(player_id, N_("you have drawn already this turn"))
        if not self._discards:
            raise RuleError("T5", "the discard pile is empty: draw from the stock")
        return self._take_discard(player_id, move)

    def _take_discard(self, player_id: int, move: DrawDiscard) -> list[Event]:
        card = self._discards.pop()
        self._hands[player_id].append(card)
        self._taken = card
        self.phase = AFTER_DRAW
        return [DrewFromDiscard(player_id, card)]

    def _do_end_hand(self, player_id: int, move: EndHand) -> list[Event]:
        self._need_start(player_id, N_("you can end the hand only at the start of your turn, "
                                       "before drawing"))
        if self._stock:
            raise RuleError("T8", "you can end the hand only when the stock is empty")
        return self._end_by_empty_stock(player_id)

    def _end_by_choice(self, player_id: int, move: EndHand) -> list[Event]:
        return self._end_by_empty_stock(player_id)

    def _end_by_empty_stock(self, player_id: int) -> list[Event]:
        return [EndedHand(player_id), self._end_hand(HandEnd.STOCK_OUT)]

    def _do_spread(self, player_id: int, move: Spread) -> list[Event]:
        hand = self._need_after_draw(player_id, N_("draw a card before you lay a spread"))
        cards = move.cards
        _need_own_cards(hand, cards)
        if not is_spread(cards):
            raise RuleError("T6", "a spread is a book (3–4 of a rank) or a run (3+ in a suit, ace "
                                  "low)")
        return self._lay(player_id, cards)

    def _lay_spread(self, player_id: int, move: Spread) -> list[Event]:
        return self._lay(player_id, move.cards)

    def _lay(self, player_id: int, cards: tuple[int, ...]) -> list[Event]:
        hand = self._hands[player_id]
        for c in cards:
            hand.remove(c)
        sp = TableSpread(self._next_spread_id, player_id, sort_cards(cards))
        self._next_spread_id += 1
        self._touched.append(len(self._spreads))
        self._spreads.append(sp)
        self._in_spreads += len(cards)
        self._laid_new = True
        events: list[Event] = [SpreadLaid(player_id, sp.id, sp.cards)]
        if not hand:
            # T7: laying the last cards is a tonk out
            events.append(self._end_hand(HandEnd.TONK_OUT, winner=player_id))
        return events

    def _do_hit(self, player_id: int, move: Hit) -> list[Event]:
        hand = self._need_after_draw(player_id, N_("draw a card before you hit a spread"))
        cards = move.cards
        i = self._spread_index(move.spread_id)
        if i is None:
            raise RuleError("T6", "there is no spread S{spread} on the table",
                            spread=move.spread_id)
        sp = self._spreads[i]
        _need_own_cards(hand, cards)
        if not is_spread(sp.cards + tuple(cards)):
            raise RuleError("T6", "those cards do not fit {spread}: a book holds at most four "
                                  "of a rank, a run grows by consecutive cards of its suit",
                            spread=sp.label)
        return self._hit(player_id, move)

    def _spread_index(self, spread_id: int) -> int | None:
        return next((i for i, sp in enumerate(self._spreads) if sp.id == spread_id), None)

    def _hit(self, player_id: int, move: Hit) -> list[Event]:
        i = self._spread_index(move.spread_id)
        assert i is not None
        sp = self._spreads[i]
        cards = move.cards
        hand = self._hands[player_id]
        for c in cards:
            hand.remove(c)
        self._spreads[i] = TableSpread(sp.id, sp.owner, sort_cards(sp.cards + tuple(cards)))
        self._touched.append(i)
        self._in_spreads += len(cards)
        if self.options.hit_lock and sp.owner != player_id:
            # T9: the owner may not drop on their next turn
            self._locked.add(sp.owner)
        events: list[Event] = [SpreadHit(player_id, sp.id, sp.owner, sort_cards(cards))]
        if not hand:
            events.append(self._end_hand(HandEnd.TONK_OUT, winner=player_id))
        return events

    def _do_discard(self, player_id: int, move: Discard) -> list[Event]:
        hand = self._need_after_draw(player_id, N_("draw a card before you discard"))
        card = move.card
        if card not in hand:
            raise RuleError("T5", "you can only discard a card from your hand")
        if card == self._taken and len(hand) > 1:
            raise RuleError("T5", "you may not discard the card you just took from the discard "
                                  "pile (unless it is your last card)")
        if self.options.must_spread and required_spreads(hand):
            raise RuleError("T6", "this table plays must spread: lay down the complete spread in "
                                  "your hand first (only three aces may be kept)")
        return self._discard(player_id, card)

    def _throw(self, player_id: int, move: Discard) -> list[Event]:
        return self._discard(player_id, move.card)

    def _discard(self, player_id: int, card: int) -> list[Event]:
        hand = self._hands[player_id]
        hand.remove(card)
        self._discards.append(card)
        self.turns += 1
        self._taken = None
        self._laid_new = False
        self._locked.discard(player_id)  # T9: the lock lasts until the end of that turn
        events: list[Event] = [Discarded(player_id, card)]
        if not hand:
            events.append(self._end_hand(HandEnd.OUT_BY_DISCARD, winner=player_id))
        elif self.turns >= TURN_CAP:
            events.append(self._end_hand(HandEnd.STOCK_OUT, capped=True))
        else:
            players = self._players
            self.to_move = players[(players.index(player_id) + 1) % len(players)]
            self.phase = START
        return events

    def _do_deal_next(self, player_id: int, move: DealNextHand) -> list[Event]:
        if self.phase is not HAND_OVER:
            raise RuleError("T5", "the hand is still being played")
        if not self.is_seated(player_id):
            raise RuleError("T1", "only a player at the table can deal the next hand")
        return self._deal_next(player_id, move)

    def _deal_next(self, player_id: int, move: DealNextHand) -> list[Event]:
        assert self.next_dealer is not None
        return self._deal(self.next_dealer)

    def _do_table_closes(self, player_id: int, move: TableCloses) -> list[Event]:
        if self.phase is not HAND_OVER:
            raise RuleError("T1", "the table closes only between hands")
        if player_id != self.next_dealer:
            raise RuleError("T1", "the table closes in the next dealer's name")
        # everyone stays seated, so a closed table with two or more players is one that closed
        # for want of a deal (the render tells the two closings apart by that)
        self.phase = TABLE_CLOSED
        self.next_dealer = None
        return [TableClosed(len(self._seats))]

    def _do_table_deals(self, player_id: int, move: TableDeals) -> list[Event]:
        if self.phase is not HAND_OVER:
            raise RuleError("T11", "the table deals only between hands")
        if player_id != self.next_dealer:
            raise RuleError("T11", "the table deals in the next dealer's name")
        return [TableDealt(self.hand_number + 1), *self._deal(self.next_dealer)]

    def _do_join(self, player_id: int, move: Join) -> list[Event]:
        if self.phase is not HAND_OVER:
            raise RuleError("T1", "players join between hands")
        if self.is_seated(player_id):
            raise RuleError("T1", "you are already at this table")
        if len(self._seats) >= MAX_PLAYERS:
            raise RuleError("T1", "the table is full: it seats {most} players", most=MAX_PLAYERS)
        name = move.name
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
            raise RuleError("T1", "a player needs a name")
        # T1: at the right of the next dealer, so the newcomer deals last
        ids = [s.player_id for s in self._seats]
        index = ids.index(self.next_dealer) if self.next_dealer in ids else len(ids)
        self._seats.insert(index, Seat(player_id, name))
        self._departed.pop(player_id, None)
        return [Joined(player_id, name, index)]

    def _do_leave(self, player_id: int, move: Leave) -> list[Event]:
        if not self.is_seated(player_id):
            raise RuleError("T1", "you are not at this table")
        return self._leave(player_id)

    def _leave(self, player_id: int) -> list[Event]:
        if self.phase is HAND_OVER:
            events: list[Event] = [Left(player_id, False)]
        else:
            # T11: leaving during a hand forfeits it and throws the hand in
            events = [Left(player_id, True), self._end_hand(HandEnd.FORFEIT, leaver=player_id)]
        ids = [s.player_id for s in self._seats]
        i = ids.index(player_id)
        if self.next_dealer == player_id:
            # T1: the deal passes to the next seat clockwise
            self.next_dealer = ids[(i + 1) % len(ids)] if len(ids) > 1 else None
        self._departed[player_id] = self._seats[i].name
        del self._seats[i]
        self._timeouts.pop(player_id, None)
        if len(self._seats) < MIN_PLAYERS:
            self.phase = TABLE_CLOSED
            self.next_dealer = None
            events.append(TableClosed(len(self._seats)))
        return events

    def _do_timeout(self, player_id: int, move: Timeout) -> list[Event]:
        if self.phase not in (START, AFTER_DRAW) or player_id != self.to_move:
            raise RuleError("T11", "only the player to move can time out")
        count = self._timeouts.get(player_id, 0) + 1
        self._timeouts[player_id] = count
        events: list[Event] = [TimedOut(player_id, count)]
        events.extend(self._automatic_turn(player_id))
        if count >= TIMEOUTS_TO_REMOVE:
            events.extend(self._leave(player_id))
        return events

    def _automatic_turn(self, player_id: int) -> list[Event]:
        # T11: draw from the stock (empty stock: end the hand), lay only what must-spread
        # requires, largest total first, then discard by T11's order; never drop
        events: list[Event] = []
        if self.phase is START:
            if not self._stock:
                return self._end_by_empty_stock(player_id)
            events.append(self._draw_stock(player_id))
        hand = self._hands[player_id]
        if self.options.must_spread:
            while required := required_spreads(hand):
                events.extend(self._lay(player_id, largest_spread(required)))
                if self.phase is not AFTER_DRAW:
                    return events
        events.extend(self._discard(player_id, auto_discard(hand, self._taken)))
        return events

    # ------------------------------------------------------------------ hand end

    def _end_hand(self, how: HandEnd, *, winner: int | None = None, dropper: int | None = None,
                  leaver: int | None = None, capped: bool = False) -> HandEnded:
        players = tuple(self._players)
        totals = tuple(sum(VALUE[c] for c in self._hands[p]) for p in players)
        payments = settle(
            how, players, dict(zip(players, totals, strict=True)), self.options.stake,
            winner=winner, dropper=dropper, leaver=leaver, laid_new_spread=self._laid_new,
            double_needs_spread=self.options.double_needs_spread,
        )
        assert self.dealer is not None
        result = HandResult(
            hand_number=self.hand_number, dealer=self.dealer, how=how, players=players,
            totals=totals, hands=tuple(tuple(self._hands[p]) for p in players),
            payments=tuple(payments), winner=winner, dropper=dropper, leaver=leaver,
            capped=capped,
        )
        self.last_hand_result = result
        self.phase = HAND_OVER
        self.to_move = None
        self._taken = None
        self._laid_new = False
        self._locked = set()
        # T3: the deal moves one seat clockwise, also after a 49/50 draw; worked out while the
        # dealer is still seated (a forfeiting dealer leaves only after this)
        ids = [s.player_id for s in self._seats]
        self.next_dealer = ids[(ids.index(self.dealer) + 1) % len(ids)]
        return HandEnded(result)

    # ------------------------------------------------------------------ stored form

    def to_stored(self) -> dict[str, Any]:
        """The whole table as JSON-safe data (``stored.stored_form``)."""
        return stored_form(self)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self:
        """Restore a table from ``to_stored``'s form; ``ValueError`` if it is not valid."""
        return restore(cls, data)

    # ------------------------------------------------------------------ views

    def public_view(self) -> TonkPublicView:
        """What everyone may see; hands only as sizes, until a hand's end reveals them."""
        in_hand = set(self._players) if self.phase in (START, AFTER_DRAW) else set()
        locked = self._locked
        return TonkPublicView(
            hand_number=self.hand_number,
            phase=self.phase,
            dealer=self.dealer,
            next_dealer=self.next_dealer,
            to_move=self.to_move,
            options=self.options,
            seats=tuple(
                SeatPublic(s.player_id, s.name,
                           self.hand_size(s.player_id) if s.player_id in in_hand else None,
                           s.player_id in locked, self.timeouts_in_a_row(s.player_id))
                for s in self._seats
            ),
            spreads=tuple(self._spreads),
            discard_top=self.discard_top,
            discard_size=len(self._discards),
            stock_size=len(self._stock),
            turns=self.turns,
            turn_cap=TURN_CAP,
            cut=self.cut,
            last_hand_result=self.last_hand_result,
        )

    def private_view(self, player_id: int) -> TonkPrivateView:
        hand = self.hand(player_id)
        return TonkPrivateView(
            player_id=player_id,
            hand=hand,
            total=sum(VALUE[c] for c in hand),
            taken_discard=self._taken if self.to_move == player_id else None,
            legal_moves=tuple(self.legal_moves(player_id)),
        )

    def observe(self, player_id: int) -> SeatView:
        players = self._players
        hands = self._hands
        if player_id in hands:
            i = players.index(player_id)
            others = players[i + 1:] + players[:i]
        else:
            others = players
        discards = self._discards
        return SeatView(
            player_id,
            self.phase,
            self.options,
            tuple(hands.get(player_id, ())),
            self._legal(player_id),
            tuple(self._spreads),
            discards[-1] if discards else None,
            len(self._stock),
            tuple([(p, len(hands[p])) for p in others]),
            self._taken if self.to_move == player_id else None,
            player_id in self._locked,
            self.turns,
        )

    def check_invariants(self) -> list[str]:
        return check_invariants(self)

    def check_quick(self) -> list[str]:
        return check_quick(self)


def _listed(move: Move, moves: tuple[Move, ...]) -> bool:
    """Whether ``move`` is one of ``moves`` itself (not merely an equal move)."""
    for m in moves:  # noqa: SIM110 - a plain loop: any() over a generator takes twice as long
        if m is move:
            return True
    return False


def _any_required(spreads: list[tuple[int, ...]]) -> bool:
    return any(not is_three_aces(s) for s in spreads)


def _need_own_cards(hand: list[int], cards: tuple[int, ...]) -> None:
    if not cards:
        raise RuleError("T6", "name the cards to lay")
    if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
        raise RuleError("T6", "you can only lay cards from your own hand, each once")


_UNCHECKED: dict[type, Any] = {
    Drop: TonkEngine._drop,
    DrawStock: TonkEngine._take_stock,
    DrawDiscard: TonkEngine._take_discard,
    EndHand: TonkEngine._end_by_choice,
    Spread: TonkEngine._lay_spread,
    Hit: TonkEngine._hit,
    Discard: TonkEngine._throw,
    DealNextHand: TonkEngine._deal_next,
}
"""The moves ``legal_moves`` lists, made without a second validation."""

_HANDLERS: dict[type, Any] = {
    Drop: TonkEngine._do_drop,
    DrawStock: TonkEngine._do_draw_stock,
    DrawDiscard: TonkEngine._do_draw_discard,
    EndHand: TonkEngine._do_end_hand,
    Spread: TonkEngine._do_spread,
    Hit: TonkEngine._do_hit,
    Discard: TonkEngine._do_discard,
    DealNextHand: TonkEngine._do_deal_next,
    TableCloses: TonkEngine._do_table_closes,
    TableDeals: TonkEngine._do_table_deals,
    Join: TonkEngine._do_join,
    Leave: TonkEngine._do_leave,
    Timeout: TonkEngine._do_timeout,
}
