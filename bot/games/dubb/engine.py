"""The Dubb rules engine: D1–D14 of ``shared/rules/dubb.md``, plus leaving and turn timeouts.

The state is plain lists of ints so that ``legal_moves`` and ``apply`` stay fast: seats are
indexes into the seat order, cards are ``bot.cards`` codes, and the top of every pile is the end
of its list. Every automatic step — turning the pile (D6, D7, D10), skipping pending and out
players, ending the game (D11) and the move cap (D13) — happens inside ``apply``, so after any
move the game waits on ``to_move`` (or is over).

Leaving (not in the rules; decided here, see ``_leave``): the leaver forfeits and is ranked
below everyone who stays; their hand is shuffled into the draw pile; their plays stay on the pile
and can no longer be dubbed, and when the turn passes their seat while their play is on top the
pile is turned as for a pending player (D10), since nobody else may turn it (D6).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Self

from bot.cards import (
    ACE,
    JOKER_RANK,
    new_deck,
    parse_cards,
    pick_from_hand,
    rank_name,
    sort_key,
    sorted_hand,
)
from bot.deals import CommittedDeals
from bot.gamekit.contract import DealSource, RuleError, Seat
from bot.games.dubb.events import (
    AutoAction,
    DrawPlayed,
    Drew,
    Dubbed,
    DubPickup,
    EndReason,
    Event,
    GameOver,
    Passed,
    PileTurned,
    PileTurnReason,
    Played,
    PlayerLeft,
    PlayerOut,
    PlayerPending,
    PlayerRejoined,
    TimedOut,
)
from bot.games.dubb.moves import (
    DRAW,
    DRAW_PLAY,
    PASS,
    PLAY_TABLE,
    PLAYS_UP_TO,
    Draw,
    DrawPlay,
    Leave,
    Move,
    Pass,
    Play,
    Timeout,
)
from bot.games.dubb.options import HAND_LIMIT, MOVE_CAP, DubbOptions, check_player_count
from bot.games.dubb.views import (
    DubbPrivateView,
    DubbPublicView,
    DubbResult,
    PlayerStatus,
    PlayerView,
    PlayView,
)

# seat statuses; ACTIVE seats are exactly those holding cards
ACTIVE, PENDING, OUT, LEFT = 0, 1, 2, 3
_STATUS_NAMES = ("active", "pending", "out", "left")
_NO_LIMIT = 1 << 30
_STRIKES_TO_REMOVE = 3

PilePlay = tuple[int, int, tuple[int, ...]]
"""(seat, rank, cards) of one play on the play pile."""


class DubbEngine:
    """One game of Dubb. Create with ``new``; restore with ``from_stored``."""

    KIND = "dubb"
    STATE_VERSION = 3
    """Version 2 stores the shuffling RNG as the number of numbers drawn from the seed. A game
    stored as version 1 (the RNG's whole state) loads into version 2; one whose state is not
    its seed's keeps version 1. Version 3 is a game dealt from committed deals (``bot.deals``):
    it keeps its deal source (``deals``) instead of a seed; a game with an ``int`` seed stores
    as version 2 (or 1) as before. A game is one hand: its deal and every reshuffle are hand
    1's."""

    __slots__ = (
        "_card_total",
        "_cards_each",
        "_counts",
        "_deals",
        "_draw",
        "_draw_play",
        "_end_reason",
        "_first_move",
        "_hands",
        "_ids",
        "_index",
        "_left_order",
        "_limit",
        "_loser",
        "_move_count",
        "_n",
        "_offered",
        "_options",
        "_out_order",
        "_pile",
        "_pile_cards",
        "_public",
        "_ranking",
        "_rng",
        "_rng_draws",
        "_seats",
        "_seed",
        "_status",
        "_streak",
        "_strikes",
        "_to_move",
    )

    def __init__(
        self,
        *,
        seats: Sequence[Seat],
        options: DubbOptions,
        cards_each: int,
        seed: int,
        rng: random.Random,
        rng_draws: int | None,
        hands: list[list[int]],
        draw_pile: list[int],
        pile: list[PilePlay],
        status: list[int],
        out_order: list[int],
        left_order: list[int],
        to_move: int,
        first_move: bool,
        move_count: int,
        strikes: list[int],
        end: tuple[EndReason, list[int], int] | None,
        deals: DealSource | None = None,
    ) -> None:
        """Internal: use ``new``, ``from_stored`` or ``from_position``. With ``deals``, shuffles
        come from there and ``seed``, ``rng`` and ``rng_draws`` are unused."""
        self._deals = deals
        self._seats = tuple(seats)
        self._ids = tuple(s.player_id for s in seats)
        self._index = {pid: i for i, pid in enumerate(self._ids)}
        self._n = len(seats)
        self._options = options
        self._cards_each = cards_each
        self._limit = HAND_LIMIT if options.hand_limit else _NO_LIMIT
        self._draw_play = options.last_player_draw_play
        self._seed = seed
        self._rng = rng
        self._rng_draws = rng_draws
        self._hands = hands
        # bookkeeping for speed, kept up to date with the state and checked by check_invariants:
        # every seat's cards per rank (jokers at 0), the number of cards on the play pile, and
        # the number of cards in the game
        self._counts = [_rank_counts(h) for h in hands]
        self._draw = draw_pile
        self._pile = pile
        self._pile_cards = sum(len(p[2]) for p in pile)
        self._card_total = len(draw_pile) + self._pile_cards + sum(len(h) for h in hands)
        self._offered: tuple[int, tuple[Move, ...]] | None = None
        self._public: DubbPublicView | None = None
        self._streak = _streak_length(pile)
        self._status = status
        self._out_order = out_order
        self._left_order = left_order
        self._to_move = to_move
        self._first_move = first_move
        self._move_count = move_count
        self._strikes = strikes
        if end is None:
            self._end_reason: EndReason | None = None
            self._ranking: tuple[int, ...] = ()
            self._loser = -1
        else:
            self._end_reason, ranking, self._loser = end
            self._ranking = tuple(ranking)

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, seats: list[Seat], options: DubbOptions, seed: int | DealSource) -> Self:
        """Deal a new game (D2) to ``seats`` in seat order; the starter is chosen by D4.
        ``seed``: the host's committed deals, or an ``int`` for the old Mersenne Twister
        shuffles."""
        _check_seats(seats)
        n = len(seats)
        cards_each = options.effective_cards_each(n)
        deals = None if isinstance(seed, int) else seed
        rng = random.Random(seed if deals is None else 0)
        deck = list(_deck(options.decks, options.jokers))
        if deals is None:
            shuffle_cards(rng, deck)
        else:
            deals.shuffle(1, deck)
        drawn = len(deck)
        hands: list[list[int]] = [[] for _ in range(n)]
        # D2: one card at a time from the first seat, off the top (end) of the shuffled deck
        for i in range(cards_each * n):
            hands[i % n].append(deck.pop())
        return cls(
            seats=seats, options=options, cards_each=cards_each,
            seed=0 if deals is not None else seed, rng=rng,
            rng_draws=drawn, hands=hands, draw_pile=deck, pile=[], status=[ACTIVE] * n,
            out_order=[],
            left_order=[], to_move=_starter(hands), first_move=True, move_count=0,
            strikes=[0] * n, end=None, deals=deals,
        )

    @classmethod
    def from_position(
        cls,
        seats: list[Seat],
        *,
        hands: Sequence[Iterable[int]],
        draw_pile: Iterable[int] = (),
        pile: Iterable[tuple[int, Iterable[int]]] = (),
        to_move: int | None = None,
        options: DubbOptions | None = None,
        out: Iterable[int] = (),
        left: Iterable[int] = (),
        first_move: bool = False,
        move_count: int = 0,
        seed: int = 0,
    ) -> Self:
        """A game in a given position, for tests, puzzles and tools.

        ``hands`` in seat order; ``draw_pile`` bottom first (its last card is drawn next);
        ``pile`` as (player id, cards) plays, bottom first — a jokers-only play takes the rank of
        the play under it (D9). Players in ``out`` (in finishing order) and ``left`` (in leaving
        order) must hold no cards; other empty-handed players are pending. ``to_move`` defaults
        to the D4 starter when ``first_move`` is true. No automatic step is run, so the player to
        move must hold cards and must not own the top play (D6 would already have turned it).
        """
        _check_seats(seats)
        options = options or DubbOptions()
        n = len(seats)
        index = {s.player_id: i for i, s in enumerate(seats)}
        if len(hands) != n:
            raise ValueError(f"{len(hands)} hands for {n} seats")
        hand_lists = [list(h) for h in hands]
        plays: list[PilePlay] = []
        for pid, cards in pile:
            cards_t = tuple(cards)
            naturals = {c & 15 for c in cards_t if c & 15 != JOKER_RANK}
            if not cards_t or len(naturals) > 1 or (not naturals and not plays):
                raise ValueError(f"not a possible play: {cards_t}")
            rank = naturals.pop() if naturals else plays[-1][1]
            plays.append((index[pid], rank, cards_t))
        out_seats = [index[pid] for pid in out]
        left_seats = [index[pid] for pid in left]
        streak_seats = {p[0] for p in plays[len(plays) - _streak_length(plays):]}
        status = []
        for i, hand in enumerate(hand_lists):
            if i in out_seats:
                status.append(OUT)
            elif i in left_seats:
                status.append(LEFT)
            elif hand:
                status.append(ACTIVE)
            elif i in streak_seats:
                status.append(PENDING)
            else:
                raise ValueError(f"seat {i} holds no cards and has no play in the streak")
        if first_move and to_move is None:
            seat_to_move = _starter(hand_lists)
        elif to_move is None:
            raise ValueError("to_move is required unless first_move is set")
        else:
            seat_to_move = index[to_move]
        game = cls(
            seats=seats, options=options,
            cards_each=options.effective_cards_each(n), seed=seed, rng=random.Random(seed),
            rng_draws=0, hands=hand_lists, draw_pile=list(draw_pile), pile=plays, status=status,
            out_order=out_seats, left_order=left_seats, to_move=seat_to_move,
            first_move=first_move, move_count=move_count, strikes=[0] * n, end=None,
        )
        problems = game.check_invariants(full_deck=False)
        if problems:
            raise ValueError("; ".join(problems))
        return game

    @classmethod
    def replay(
        cls,
        seats: list[Seat],
        options: DubbOptions,
        seed: int | DealSource,
        moves: Iterable[tuple[int, Move]],
    ) -> Self:
        """The game reached from a new deal by applying ``(player id, move)`` in order."""
        game = cls.new(seats, options, seed)
        for player_id, move in moves:
            game.apply(player_id, move)
        return game

    # ------------------------------------------------------------------ read access

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Everyone still at the table: players who are out stay until the end; those who left
        do not."""
        return tuple(seat for seat, st in zip(self._seats, self._status, strict=True)
                     if st != LEFT)

    @property
    def names(self) -> dict[int, str]:
        """Everyone dealt into the game, those who left included."""
        return {s.player_id: s.name for s in self._seats}

    @property
    def opening_events(self) -> tuple[Event, ...]:
        """The deal shows nothing beyond the table itself (D2, D4)."""
        return ()

    @property
    def options(self) -> DubbOptions:
        return self._options

    @property
    def cards_each(self) -> int:
        return self._cards_each

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def deals_done(self) -> int:
        """A game is one deal, over when the game is."""
        return 1 if self._to_move < 0 else 0

    @property
    def move_count(self) -> int:
        """Moves made so far (plays, draws, passes, draw-and-plays); D13 caps it."""
        return self._move_count

    @property
    def to_move(self) -> int | None:
        """The player id whose turn it is, or None once the game is over."""
        return None if self._to_move < 0 else self._ids[self._to_move]

    @property
    def is_over(self) -> bool:
        return self._to_move < 0

    @property
    def result(self) -> DubbResult | None:
        if self._end_reason is None:
            return None
        ids = self._ids
        return DubbResult(
            ranking=tuple(ids[s] for s in self._ranking),
            loser=ids[self._loser],
            reason=self._end_reason,
            leavers=tuple(ids[s] for s in self._left_order),
        )

    def hand(self, player_id: int) -> tuple[int, ...]:
        """``player_id``'s cards, sorted for display (private: only for that player's eyes)."""
        return tuple(sorted_hand(self._hands[self._seat_of(player_id)]))

    def hand_size(self, player_id: int) -> int:
        return len(self._hands[self._seat_of(player_id)])

    def hand_sizes(self) -> list[int]:
        """The number of cards every seat holds, in seat order (those who left included)."""
        return [len(h) for h in self._hands]

    @property
    def top_rank(self) -> int:
        """The rank of the top play (D3), 0 on an empty pile."""
        return self._pile[-1][1] if self._pile else 0

    def streak_players(self) -> list[int]:
        """Player ids with a play in the streak (D8), oldest play first, each once."""
        seen: dict[int, None] = {}
        for seat, _, _ in self._pile[len(self._pile) - self._streak:]:
            seen[self._ids[seat]] = None
        return list(seen)

    def legal_moves(self, player_id: int) -> list[Move]:
        """Every turn move ``player_id`` may make now; empty when it is not their turn.

        Draw or pass first (D5; draw-and-play after draw, D12), then each distinct play by rank,
        number of naturals and number of jokers (D5, D9), jokers-only plays last.
        """
        s = self._index.get(player_id, -1)
        if s < 0 or s != self._to_move:
            return []
        return self._legal(s)

    def public_view(self) -> DubbPublicView:
        """What everyone at the table may see (D14).

        Kept until the next ``apply``, the one way a game changes: a move's table, panel and
        picture all ask for it (issue 16), and the view is immutable."""
        if self._public is None:
            self._public = self._make_public_view()
        return self._public

    def _make_public_view(self) -> DubbPublicView:
        ids = self._ids
        pile = self._pile
        streak = tuple(
            PlayView(ids[seat], rank, cards)
            for seat, rank, cards in pile[len(pile) - self._streak:]
        )
        return DubbPublicView(
            players=tuple(self._player_view(i) for i in range(self._n)),
            to_move=self.to_move,
            top=streak[-1] if streak else None,
            top_rank=self.top_rank,
            streak=streak,
            pile_size=sum(len(p[2]) for p in pile),
            draw_pile_size=len(self._draw),
            move_count=self._move_count,
            move_cap=MOVE_CAP,
            first_move=self._first_move,
            options=self._options,
            cards_each=self._cards_each,
            result=self.result,
        )

    def private_view(self, player_id: int) -> DubbPrivateView:
        """What only ``player_id`` may see: their sorted hand and their legal moves (D14)."""
        return DubbPrivateView(
            player_id=player_id,
            hand=self.hand(player_id),
            legal_moves=tuple(self.legal_moves(player_id)),
        )

    def observe(self, player_id: int) -> DubbObservation:
        """A read-only window on the game limited to what ``player_id`` may see (strategies)."""
        return DubbObservation(self, self._seat_of(player_id))

    def play_for_cards(self, player_id: int, cards: Sequence[int]) -> Play:
        """The play of exactly ``cards`` (as a user named them): rank from the naturals, or the
        top rank for jokers only (D9). ``apply`` still checks the hand and the pile."""
        self._seat_of(player_id)
        if not cards:
            raise RuleError("D5", "name at least one card to play")
        naturals = [c for c in cards if c & 15 != JOKER_RANK]
        ranks = {c & 15 for c in naturals}
        if len(ranks) > 1:
            raise RuleError("D5", "cards played together must all have the same rank")
        if ranks:
            rank = ranks.pop()
        elif self._pile:
            rank = self._pile[-1][1]
        else:
            raise RuleError("D9", "jokers cannot be played on an empty pile")
        return Play(rank, len(naturals), len(cards) - len(naturals), tuple(cards))

    def play_from_text(self, player_id: int, text: str) -> Play:
        """The play a user typed (``7h 7s``, ``7 7``, ``joker``), picking unnamed suits lowest
        first. Raises ``CardTextError`` for text that names no card or cards not in the hand,
        and ``RuleError`` for cards that cannot go together."""
        hand = sorted(self._hands[self._seat_of(player_id)])
        return self.play_for_cards(player_id, pick_from_hand(parse_cards(text), hand))

    # ------------------------------------------------------------------ moves

    def apply(self, player_id: int, move: Move) -> list[Event]:
        """Make ``move`` for ``player_id`` and return what it caused, in order. A move the rules
        do not allow raises ``RuleError`` and changes nothing."""
        offered = self._offered
        self._offered = None
        self._public = None
        if self._to_move < 0:
            raise RuleError("D11", "the game is over")
        s = self._index.get(player_id, -1)
        if s < 0:
            self._seat_of(player_id)  # raises
        events: list[Event] = []
        kind = type(move)
        if kind is Leave:
            self._check_can_leave(s)
            self._leave(s, False, events)
            return events
        if s != self._to_move:
            name = self._seats[self._to_move].name
            raise RuleError("D5", "it is not your turn: {name} is to move", name=name)
        if kind is Timeout:
            self._timeout(s, events)
            return events
        cards: list[int] | None = None
        if offered is not None and offered[0] == s and _listed(move, offered[1]):
            # the very move _legal listed for this state: its checks have been made
            if kind is Play:
                cards = self._pick(s, move)  # type: ignore[arg-type]
        elif kind is Draw:
            self._check_draw(s)
        elif kind is Pass:
            self._check_pass(s)
        elif kind is Play:
            cards = self._check_play(s, move)  # type: ignore[arg-type]
        elif kind is DrawPlay:
            self._check_draw_play(s)
        else:
            raise RuleError("D5", "that is not a move in this game")
        self._strikes[s] = 0
        self._do_turn(s, move, False, events, cards)
        return events

    def _seat_of(self, player_id: int) -> int:
        s = self._index.get(player_id, -1)
        if s < 0:
            raise RuleError("D1", "you are not playing in this game")
        return s

    def _can_draw(self, s: int) -> bool:
        # D5: the draw pile must hold a card, and with the hand limit the hand fewer than 7
        return bool(self._draw) and len(self._hands[s]) < self._limit

    def _legal(self, s: int) -> list[Move]:
        """Seat ``s``'s moves, kept (as a tuple) until the next ``apply`` as the moves that need
        no second validation."""
        counts = self._counts[s]
        if self._first_move:
            low = _lowest(counts)
            plays = PLAYS_UP_TO[low][counts[low]][0]
            self._offered = (s, plays)
            return list(plays)
        jokers = counts[JOKER_RANK]
        moves: list[Move]
        if self._draw and len(self._hands[s]) < self._limit:
            moves = [DRAW]
            if self._draw_play and self._status.count(ACTIVE) == 1:
                moves.append(DRAW_PLAY)
        else:
            moves = [PASS]
        pile = self._pile
        if pile:
            top = pile[-1][1]
            for r in range(top, ACE + 1):
                k = counts[r]
                if k:
                    moves.extend(PLAYS_UP_TO[r][k][jokers])
            if jokers:
                # D9: jokers alone take the top rank
                moves.extend(PLAY_TABLE[top][0][1 : jokers + 1])
        else:
            # D9: no jokers on an empty pile
            for r in range(2, ACE + 1):
                k = counts[r]
                if k:
                    moves.extend(PLAYS_UP_TO[r][k][0])
        self._offered = (s, tuple(moves))
        return moves

    def _check_draw(self, s: int) -> None:
        if self._first_move:
            raise RuleError("D4", "the first move must be a play of your lowest rank")
        if not self._draw:
            raise RuleError("D5", "the draw pile is empty — play or pass")
        if len(self._hands[s]) >= self._limit:
            raise RuleError("D5", "you hold {limit} cards, the hand limit: play or pass",
                            limit=HAND_LIMIT)

    def _check_pass(self, s: int) -> None:
        if self._first_move:
            raise RuleError("D4", "the first move must be a play of your lowest rank")
        if self._can_draw(s):
            raise RuleError("D5", "you can only pass when you cannot draw")

    def _check_draw_play(self, s: int) -> None:
        if not self._draw_play:
            raise RuleError("D12", "last-player draw-and-play is not on at this table")
        if self._first_move:
            raise RuleError("D4", "the first move must be a play of your lowest rank")
        if self._status.count(ACTIVE) != 1:
            raise RuleError("D12", "you can only draw-and-play when nobody else holds cards")
        if not self._can_draw(s):
            raise RuleError("D12", "you can only draw-and-play when you could draw")

    def _check_play(self, s: int, move: Play) -> list[int]:
        """The cards ``move`` plays from seat ``s``'s hand, or a ``RuleError``."""
        rank, naturals, jokers = move.rank, move.naturals, move.jokers
        if naturals < 0 or jokers < 0 or naturals + jokers < 1:
            raise RuleError("D5", "a play needs at least one card")
        if not 2 <= rank <= ACE:
            raise RuleError("D3", "there is no such rank")
        pile = self._pile
        hand = self._hands[s]
        if self._first_move:
            low = _lowest(self._counts[s])
            if jokers:
                raise RuleError("D9", "the first play goes on an empty pile, so no jokers")
            if rank != low:
                raise RuleError("D4", "the first move must be a play of your lowest rank, {rank}",
                                rank=rank_name(low))
        if jokers and not pile:
            raise RuleError("D9", "jokers cannot be played on an empty pile")
        if pile:
            top = pile[-1][1]
            if naturals == 0 and rank != top:
                raise RuleError("D9", "jokers played alone take the top card's rank, {rank}",
                                rank=rank_name(top))
            if rank < top:
                raise RuleError("D5", "you must play {rank} or higher", rank=rank_name(top))
        if move.cards is None:
            counts = self._counts[s]
            if counts[rank] < naturals:
                raise RuleError("D5", "you don't hold {count}× {rank}", count=naturals,
                                rank=rank_name(rank))
            if counts[JOKER_RANK] < jokers:
                raise RuleError("D5", "you don't hold that many jokers")
            return self._pick(s, move)
        cards = list(move.cards)
        if len(set(cards)) != len(cards):
            raise RuleError("D5", "the same card is named twice")
        if any(c not in hand for c in cards):
            raise RuleError("D5", "you don't hold all of those cards")
        got_jokers = sum(1 for c in cards if c & 15 == JOKER_RANK)
        if any(c & 15 not in (rank, JOKER_RANK) for c in cards):
            raise RuleError("D5", "cards played together must all have the same rank")
        if got_jokers != jokers or len(cards) - got_jokers != naturals:
            raise RuleError("D5", "those cards do not match the play")
        return cards

    def _pick(self, s: int, move: Play) -> list[int]:
        """The cards a play seat ``s`` can make takes: exactly ``move.cards`` if it names them,
        otherwise the lowest codes of its rank, then the lowest joker codes."""
        if move.cards is not None:
            return list(move.cards)
        rank = move.rank
        hand = self._hands[s]
        cards = sorted([c for c in hand if c & 15 == rank])[:move.naturals]
        if move.jokers:
            cards += sorted([c for c in hand if c & 15 == JOKER_RANK])[:move.jokers]
        return cards

    def _do_turn(
        self, s: int, move: Move, auto: bool, events: list[Event], cards: list[int] | None = None
    ) -> None:
        """A checked turn move by seat ``s`` (``cards``: those a checked Play takes)."""
        kind = type(move)
        if kind is Play and cards is None:
            cards = self._check_play(s, move)  # type: ignore[arg-type]
        self._first_move = False  # D4 binds the opening move only
        self._move_count += 1
        pid = self._ids[s]
        if kind is Draw:
            card = self._draw.pop()
            self._hands[s].append(card)
            self._counts[s][card & 15] += 1
            events.append(Drew(pid, 1, (card,), auto))
            self._advance(s, events)
        elif kind is Pass:
            events.append(Passed(pid, auto))
            self._advance(s, events)
        elif kind is DrawPlay:
            card = self._draw.pop()
            r = card & 15
            pile = self._pile
            top = pile[-1][1] if pile else 0
            # D12: played if legal on the pile (D5, D9), otherwise kept
            playable = r >= top if r != JOKER_RANK else bool(pile)
            events.append(DrawPlayed(pid, card, playable))
            if playable:
                self._play(s, r if r != JOKER_RANK else top, [card], False, events, from_hand=False)
            else:
                self._hands[s].append(card)
                self._counts[s][r] += 1
                self._advance(s, events)
        else:
            self._play(s, move.rank, cards, auto, events)  # type: ignore[arg-type, union-attr]
        # D13: the cap is applied once the move and its automatic steps are done
        if self._to_move >= 0 and self._move_count >= MOVE_CAP:
            self._finish("cap", events)

    def _play(
        self, s: int, rank: int, cards: list[int], auto: bool, events: list[Event],
        from_hand: bool = True,
    ) -> None:
        hand = self._hands[s]
        if from_hand:
            counts = self._counts[s]
            for c in cards:
                hand.remove(c)
                counts[c & 15] -= 1
        played = tuple(sorted(cards, key=_SHOW_ORDER.__getitem__) if len(cards) > 1 else cards)
        events.append(Played(self._ids[s], rank, played, auto))
        self._pile_cards += len(played)
        pile = self._pile
        status = self._status
        if pile and pile[-1][1] == rank:
            # D8: a play of the top rank dubs every other player with a play in the streak
            victims = {
                seat for seat, _, _ in pile[len(pile) - self._streak:]
                if seat != s and status[seat] <= PENDING
            }
            pile.append((s, rank, played))
            self._streak += 1
            if victims:
                self._dub(s, rank, victims, len(played), events)
            broken: list[int] = []
        else:
            # D10/D11: a higher rank ends the streak; its pending players go out, in turn order
            # after the mover
            broken = self._streak_pending(s) if pile and PENDING in status else []
            pile.append((s, rank, played))
            self._streak = 1
        if rank == ACE:
            # D7: aces turn the pile at once and the player takes another turn
            self._turn_pile(s, "D7", events)
        for seat in broken:
            if self._go_out(seat, events):
                return
        if rank == ACE:
            if hand:
                return
            # D11: the mover's last cards left the streak with the pile, so they go out last
            if self._go_out(s, events):
                return
        elif not hand:
            status[s] = PENDING
            events.append(PlayerPending(self._ids[s]))
        self._advance(s, events)

    def _dub(self, s: int, rank: int, victims: set[int], k: int, events: list[Event]) -> None:
        n = self._n
        order = [(s + i) % n for i in range(1, n) if (s + i) % n in victims]
        got: dict[int, list[int]] = {v: [] for v in order}
        draw = self._draw
        hands = self._hands
        limit = self._limit
        # D8: one card at a time, round-robin from the seat after the dubber; what the draw
        # pile or the hand limit does not allow is forgiven
        taking = order
        for _ in range(k):
            still: list[int] = []
            for v in taking:
                if not draw:
                    break
                hand = hands[v]
                if len(hand) < limit:
                    card = draw.pop()
                    hand.append(card)
                    self._counts[v][card & 15] += 1
                    got[v].append(card)
                    still.append(v)
            taking = still
            if not taking or not draw:
                break
        events.append(Dubbed(
            self._ids[s], rank, k,
            tuple(DubPickup(self._ids[v], len(got[v]), k - len(got[v]), tuple(got[v]))
                  for v in order),
        ))
        status = self._status
        for v in order:
            if status[v] == PENDING and got[v]:
                # D10: a dubbed pending player who picks up cards is back in the turn order
                status[v] = ACTIVE
                events.append(PlayerRejoined(self._ids[v], len(got[v])))

    def _streak_pending(self, seat: int) -> list[int]:
        """Pending seats with a play in the streak, in turn order after ``seat``."""
        status = self._status
        pile = self._pile
        in_streak = {p[0] for p in pile[len(pile) - self._streak:]}
        n = self._n
        return [
            t for t in ((seat + i) % n for i in range(1, n))
            if status[t] == PENDING and t in in_streak
        ]

    def _shuffle(self, cards: list[int]) -> None:
        if self._deals is not None:
            self._deals.shuffle(1, cards)
            return
        shuffle_cards(self._rng, cards)
        if self._rng_draws is not None:
            self._rng_draws += len(cards)

    def _turn_pile(self, seat: int, reason: PileTurnReason, events: list[Event]) -> None:
        cards = [c for p in self._pile for c in p[2]]
        draw = self._draw
        draw.extend(cards)
        self._shuffle(draw)
        self._pile.clear()
        self._pile_cards = 0
        self._streak = 0
        events.append(PileTurned(self._ids[seat], reason, len(cards)))

    def _go_out(self, seat: int, events: list[Event]) -> bool:
        """Seat ``seat`` is out (D10); True when that ended the game (D11)."""
        self._status[seat] = OUT
        self._out_order.append(seat)
        events.append(PlayerOut(self._ids[seat], len(self._out_order)))
        if self._n - len(self._out_order) - len(self._left_order) == 1:
            self._finish("normal", events)
            return True
        return False

    def _advance(self, s: int, events: list[Event]) -> None:
        """Pass the turn on from seat ``s`` to the next seat holding cards, running D6 and D10."""
        n = self._n
        status = self._status
        pile = self._pile
        for step in range(1, 2 * n + 1):
            t = (s + step) % n
            st = status[t]
            if st == OUT:
                continue
            owns_top = bool(pile) and pile[-1][0] == t
            if st == ACTIVE:
                self._to_move = t
                if owns_top:
                    # D6: their own play is on top as their turn begins; the streak's pending
                    # players go out (turn order after this seat) and the turn goes on
                    broken = self._streak_pending(t)
                    self._turn_pile(t, "D6", events)
                    for seat in broken:
                        if self._go_out(seat, events):
                            return
                return
            if owns_top:
                # D10: a pending seat whose play is on top turns the pile; the streak's other
                # pending players go out first, then the seat's owner. A departed player's top
                # play is turned the same way (see the module docstring).
                broken = self._streak_pending(t)
                self._turn_pile(t, "D10", events)
                for seat in broken:
                    if self._go_out(seat, events):
                        return
                if st == PENDING and self._go_out(t, events):
                    return
        raise AssertionError("no seat can take the turn")  # excluded by the D10 invariants

    def _finish(self, reason: EndReason, events: list[Event]) -> None:
        n = self._n
        status = self._status
        if reason == "cap":
            # D13: most cards loses (ties: first in turn order from the player to move); the
            # others still in rank after those out, fewest cards first, ties in turn order
            t = self._to_move
            still_in = [(t + i) % n for i in range(n) if status[(t + i) % n] <= PENDING]
            sizes = [len(h) for h in self._hands]
            loser = max(still_in, key=lambda x: sizes[x])
            rest = sorted((x for x in still_in if x != loser), key=lambda x: sizes[x])
            staying = [*self._out_order, *rest, loser]
        else:
            staying = [*self._out_order, *(i for i in range(n) if status[i] <= PENDING)]
        ranking = staying + self._left_order[::-1]
        self._ranking = tuple(ranking)
        self._loser = self._left_order[0] if self._left_order else staying[-1]
        self._end_reason = reason
        self._to_move = -1
        ids = self._ids
        events.append(GameOver(
            tuple(ids[x] for x in ranking), ids[self._loser], reason,
            tuple(ids[x] for x in self._left_order),
        ))

    def _check_can_leave(self, s: int) -> None:
        st = self._status[s]
        if st == OUT:
            raise RuleError("D10", "you are already out of this game")
        if st == LEFT:
            raise RuleError("D1", "you have already left this game")

    def _leave(self, s: int, auto: bool, events: list[Event]) -> None:
        """Seat ``s`` leaves: a forfeit, ranked below everyone who stays (decided here).

        Their hand is shuffled into the draw pile. If they were to move, the turn passes on as
        after a move; if the starter leaves before the first move, the next player takes an
        ordinary turn (D4 binds only the starter). Plays they made stay on the pile: dubbing
        skips them (D8 needs a player to pick up), and their top play is turned when their seat
        comes up (D10). With fewer than two players left in, the game ends at once.
        """
        hand = self._hands[s]
        returned = len(hand)
        if hand:
            self._draw.extend(hand)
            hand.clear()
            self._counts[s] = [0] * (ACE + 1)
            self._shuffle(self._draw)
        self._status[s] = LEFT
        self._left_order.append(s)
        self._strikes[s] = 0
        events.append(PlayerLeft(self._ids[s], self._n - len(self._left_order) + 1, returned, auto))
        if self._n - len(self._out_order) - len(self._left_order) < 2:
            self._finish("left", events)
            return
        if s == self._to_move:
            self._first_move = False
            self._advance(s, events)

    def _timeout(self, s: int, events: list[Event]) -> None:
        """The turn timer of seat ``s`` (to move) ran out: draw, or pass when drawing is not
        allowed, or on the D4 first move play one card of the lowest rank. The third timeout in
        a row makes that move and then removes the player as if they had left."""
        self._strikes[s] += 1
        strike = self._strikes[s]
        move: Move
        action: AutoAction
        if self._first_move:
            move, action = PLAY_TABLE[_lowest(self._counts[s])][1][0], "play"
        elif self._can_draw(s):
            move, action = DRAW, "draw"
        else:
            move, action = PASS, "pass"
        events.append(TimedOut(self._ids[s], action, strike))
        self._do_turn(s, move, True, events)
        if strike >= _STRIKES_TO_REMOVE and self._to_move >= 0:
            self._leave(s, True, events)

    # ------------------------------------------------------------------ views and checks

    def _player_view(self, i: int) -> PlayerView:
        st = self._status[i]
        status: PlayerStatus
        if st == LEFT:
            status = "left"
        elif st == OUT:
            status = "out"
        elif st == PENDING:
            status = "pending"
        else:
            status = "to_move" if i == self._to_move else "waiting"
        place: int | None = None
        if self._ranking:
            place = self._ranking.index(i) + 1
        elif st == OUT:
            place = self._out_order.index(i) + 1
        elif st == LEFT:
            place = self._n - self._left_order.index(i)
        return PlayerView(self._ids[i], self._seats[i].name, len(self._hands[i]), status, place)

    def check_invariants(self, full_deck: bool = True) -> list[str]:
        """Broken invariants, as text (empty when all hold): no card twice, every card of the
        packs somewhere (``full_deck``), statuses match hands and the streak, the hand limit,
        D6/D7 settled before the player to move acts, and a consistent end."""
        problems: list[str] = []
        pile = self._pile
        hands = self._hands
        all_cards = [c for h in hands for c in h]
        all_cards += self._draw
        for play in pile:
            all_cards += play[2]
        distinct = set(all_cards)
        if len(distinct) != len(all_cards):
            problems.append("a card is in two places")
        if full_deck and distinct != _deck_set(self._options.decks, self._options.jokers):
            problems.append("the cards in play are not exactly the packs")
        if len(all_cards) != self._card_total:
            problems.append("cards not conserved")
        if self._pile_cards != sum(len(p[2]) for p in pile):
            problems.append("the running count of cards on the pile is out of date")
        if self._counts != [_rank_counts(h) for h in hands]:
            problems.append("the running rank counts of a hand are out of date")
        streak = self._streak
        if streak != _streak_length(pile):
            problems.append("streak length out of date")
        in_streak = {p[0] for p in pile[len(pile) - streak:]} if pile else set()
        over = self._to_move < 0
        outs: list[int] = []
        lefts: list[int] = []
        for i, st in enumerate(self._status):
            size = len(hands[i])
            if st == ACTIVE:
                # the last move of a game may leave its loser empty-handed but not yet pending
                if not size and not over:
                    problems.append(f"seat {i} is active with no cards")
            elif size:
                problems.append(f"seat {i} is {_STATUS_NAMES[st]} with {size} cards")
            elif st == PENDING:
                if i not in in_streak:
                    problems.append(f"seat {i} is pending without a play in the streak (D10)")
            elif st == OUT:
                outs.append(i)
            else:
                lefts.append(i)
            if size > self._limit:
                problems.append(f"seat {i} holds {size} cards, over the hand limit")
        if sorted(self._out_order) != outs:
            problems.append("finishing order does not match the statuses")
        if sorted(self._left_order) != lefts:
            problems.append("leaving order does not match the statuses")
        self._check_turn(problems)
        return problems

    def check_quick(self) -> list[str]:
        """The cheap part of ``check_invariants``, for after every move between full checks: no
        pass over the cards or the statuses. The number of cards, counted from the sizes of the
        hands and piles and the running count of cards on the pile; the hand limit; D7 and D6
        settled and the player to move holding cards; the cap. Cards swapped for others,
        statuses, the streak, the end and the running counts themselves wait for the full
        check (which a simulator runs after a game's last move)."""
        problems: list[str] = []
        hands = self._hands
        if len(self._draw) + self._pile_cards + sum(map(len, hands)) != self._card_total:
            problems.append("cards not conserved")
        if self._limit < _NO_LIMIT and max(map(len, hands)) > self._limit:
            problems.append("a hand holds more cards than the hand limit")
        t = self._to_move
        pile = self._pile
        if pile:
            seat, rank, _ = pile[-1]
            if rank == ACE:
                problems.append("aces on top of the pile (D7)")
            if seat == t:
                problems.append("the player to move owns the top play (D6)")
        if t >= 0 and (self._status[t] != ACTIVE or self._move_count >= MOVE_CAP):
            problems.append(f"seat {t} is to move but is not active, or the cap is passed")
        return problems

    def _check_turn(self, problems: list[str]) -> None:
        """D7 settled; the player to move active, D6 settled, two players in and the cap not
        reached; or, once the game is over, every player ranked once."""
        pile = self._pile
        if pile and pile[-1][1] == ACE:
            problems.append("aces on top of the pile (D7)")
        t = self._to_move
        if t >= 0:
            if self._status[t] != ACTIVE:
                problems.append(f"seat {t} is to move but is {_STATUS_NAMES[self._status[t]]}")
            if pile and pile[-1][0] == t:
                problems.append("the player to move owns the top play (D6)")
            if self._n - len(self._out_order) - len(self._left_order) < 2:
                problems.append("the game goes on with fewer than two players in")
            if self._move_count >= MOVE_CAP:
                problems.append("the game goes on past the move cap (D13)")
        elif sorted(self._ranking) != list(range(self._n)):
            problems.append("the final ranking is not every player once")

    # ------------------------------------------------------------------ stored form

    def to_stored(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, RNG included, so play continues identically.

        The RNG is stored as how many numbers the game drew from its seed: a shuffle draws one
        per card, so that count and the seed give back the generator's exact state. Its whole
        state, 625 numbers (about 6.5 KB of JSON against 0.6 KB for everything else), was
        written with every move (issue 16); only a game whose RNG did not come from its seed
        (stored so by hand) still keeps the whole state."""
        rng: dict[str, Any]
        if self._deals is not None:
            form, rng = self.STATE_VERSION, {"deals": self._deals.to_stored()}
        elif self._rng_draws is None:
            version, internal, gauss = self._rng.getstate()
            form, rng = 1, {"rng_state": [version, list(internal), gauss]}
        else:
            form, rng = 2, {"seed": self._seed, "rng_draws": self._rng_draws}
        if form == 1:
            rng = {"seed": self._seed, **rng}
        return {
            "format_version": form,
            "kind": self.KIND,
            "seats": [{"player_id": s.player_id, "name": s.name} for s in self._seats],
            "options": self._options.model_dump(),
            "cards_each": self._cards_each,
            **rng,
            "hands": [list(h) for h in self._hands],
            "draw_pile": list(self._draw),
            "pile": [{"seat": s, "rank": r, "cards": list(c)} for s, r, c in self._pile],
            "status": [_STATUS_NAMES[st] for st in self._status],
            "out_order": list(self._out_order),
            "left_order": list(self._left_order),
            "to_move": None if self._to_move < 0 else self._to_move,
            "first_move": self._first_move,
            "move_count": self._move_count,
            "strikes": list(self._strikes),
            "end": None if self._end_reason is None else {
                "reason": self._end_reason,
                "ranking": list(self._ranking),
                "loser": self._loser,
            },
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self:
        """Restore a game from ``to_stored``'s form; ``ValueError`` if it is not valid."""
        from bot.games.dubb.stored import load_stored

        s = load_stored(data)
        draws = s.rng_draws
        deals = None if s.deals is None else CommittedDeals.from_stored(s.deals)
        seed = s.seed or 0
        if deals is not None:
            rng = random.Random(0)
        elif draws is None:
            rng = random.Random()
            try:
                rng.setstate((s.rng_state[0], tuple(s.rng_state[1]), s.rng_state[2]))
            except (TypeError, ValueError) as e:
                raise ValueError(f"bad RNG state in stored Dubb game: {e}") from e
            # a game stored in version 1 goes on in version 2 when its state is the seed's
            draws = _draws_to(seed, rng.getstate())
        else:
            rng = random.Random(seed)
            _draw_numbers(rng, draws)
        game = cls(
            seats=[Seat(x.player_id, x.name) for x in s.seats],
            options=s.options,
            cards_each=s.cards_each,
            seed=seed,
            rng=rng,
            rng_draws=draws,
            hands=[list(h) for h in s.hands],
            draw_pile=list(s.draw_pile),
            pile=[(p.seat, p.rank, tuple(p.cards)) for p in s.pile],
            status=[_STATUS_NAMES.index(x) for x in s.status],
            out_order=list(s.out_order),
            left_order=list(s.left_order),
            to_move=-1 if s.to_move is None else s.to_move,
            first_move=s.first_move,
            move_count=s.move_count,
            strikes=list(s.strikes),
            end=None if s.end is None else (s.end.reason, list(s.end.ranking), s.end.loser),
            deals=deals,
        )
        problems = game.check_invariants(full_deck=False)
        if problems:
            raise ValueError("inconsistent stored Dubb game: " + "; ".join(problems))
        return game


class DubbObservation:
    """What one seat may see, for strategies (D14): their own hand and legal moves, the public
    view, and a few public facts cheap enough for a simulator's inner loop."""

    __slots__ = ("_game", "_seat")

    def __init__(self, game: DubbEngine, seat: int) -> None:
        self._game = game
        self._seat = seat

    @property
    def player_id(self) -> int:
        return self._game._ids[self._seat]

    @property
    def hand(self) -> tuple[int, ...]:
        """Their own cards, unsorted."""
        return tuple(self._game._hands[self._seat])

    @property
    def legal_moves(self) -> list[Move]:
        game = self._game
        return game._legal(self._seat) if game._to_move == self._seat else []

    @property
    def top_rank(self) -> int:
        return self._game.top_rank

    @property
    def first_move(self) -> bool:
        """Whether the game's opening move (D4) is still to be made."""
        return self._game._first_move

    @property
    def move_count(self) -> int:
        return self._game._move_count

    @property
    def cards_each(self) -> int:
        return self._game._cards_each

    def others_holding_count(self) -> int:
        """How many other players hold cards."""
        status = self._game._status
        return status.count(ACTIVE) - (status[self._seat] == ACTIVE)

    def others_holding(self) -> list[int]:
        """The hand sizes of the other players holding cards, in seat order."""
        game = self._game
        me = self._seat
        return [len(h) for i, (h, st) in enumerate(zip(game._hands, game._status, strict=True))
                if st == ACTIVE and i != me]

    def others_in(self) -> int:
        """How many other players are still in: holding cards, or pending (D10)."""
        me = self._seat
        return sum(1 for i, st in enumerate(self._game._status) if st <= PENDING and i != me)

    def public_view(self) -> DubbPublicView:
        return self._game.public_view()

    def private_view(self) -> DubbPrivateView:
        return self._game.private_view(self.player_id)


def _check_seats(seats: Sequence[Seat]) -> None:
    check_player_count(len(seats))
    if len({s.player_id for s in seats}) != len(seats):
        raise RuleError("D1", "a player cannot take two seats at one table")


@cache
def _deck(decks: int, jokers: bool) -> tuple[int, ...]:
    """``new_deck``, made once."""
    return tuple(new_deck(decks, jokers))


@cache
def _deck_set(decks: int, jokers: bool) -> frozenset[int]:
    return frozenset(_deck(decks, jokers))


_SEARCHED_DRAWS = 100_000
"""How far ``_draws_to`` looks: some hundred times a long game's draws, about 7 ms at most."""


def _draws_to(seed: int, state: tuple[Any, ...]) -> int | None:
    """How many numbers ``random.Random(seed).random()`` had drawn when the generator was in
    ``state``, if that is what it came from (else ``None``).

    Each number takes two of the Mersenne Twister's 624 words, and the state records the
    position of the next word, so only every 312th count can match: the search steps through
    those, a few microseconds each."""
    _, internal, gauss = state
    position = internal[-1]
    if gauss is not None or position % 2:
        return None
    rng = random.Random(seed)
    count = position // 2 % 312
    _draw_numbers(rng, count)
    while count <= _SEARCHED_DRAWS:
        if rng.getstate()[1] == internal:
            return count
        _draw_numbers(rng, 312)
        count += 312
    return None


def _draw_numbers(rng: random.Random, count: int) -> None:
    """Move ``rng`` on by ``count`` numbers, as ``count`` cards shuffled would."""
    draw = rng.random
    for _ in range(count):
        draw()


def shuffle_cards(rng: random.Random, cards: list[int]) -> None:
    """A seeded uniform shuffle in place: a fresh random key per card, drawn in the cards'
    order, then the cards sorted by (key, card). It is about three times faster than
    ``random.shuffle`` (whose per-card ``_randbelow`` runs in Python), which matters because
    every pile turn shuffles the draw pile; every stored game was shuffled this way."""
    rand = rng.random
    keyed = sorted([(rand(), c) for c in cards])
    cards[:] = [c for _, c in keyed]


def _streak_length(pile: Sequence[PilePlay]) -> int:
    """D8: the number of plays at the top of the pile that share the top rank."""
    if not pile:
        return 0
    top = pile[-1][1]
    k = 0
    for _, r, _ in reversed(pile):
        if r != top:
            break
        k += 1
    return k


_SHOW_ORDER: tuple[tuple[int, int, int], ...] = tuple(sort_key(c) for c in range(128))
"""``bot.cards.sort_key`` of every card code of two packs, looked up instead of computed."""


def _rank_counts(hand: Iterable[int]) -> list[int]:
    """How many cards of each rank ``hand`` holds, indexed by rank (jokers at 0)."""
    counts = [0] * (ACE + 1)
    for c in hand:
        counts[c & 15] += 1
    return counts


def _lowest(counts: Sequence[int]) -> int:
    """The lowest natural rank of a hand given as its rank counts."""
    return min(r for r in range(2, ACE + 1) if counts[r])


def _listed(move: Move, moves: tuple[Move, ...]) -> bool:
    """Whether ``move`` is one of ``moves`` itself (not merely an equal move)."""
    for m in moves:  # noqa: SIM110 - a plain loop: any() over a generator takes twice as long
        if m is move:
            return True
    return False


def _starter(hands: Sequence[Sequence[int]]) -> int:
    """D4: the seat whose sorted ranks (jokers left out) are lexicographically lowest; a hand of
    only jokers comes after every other; exact ties go to the earlier seat."""

    def key(i: int) -> tuple[int, list[int], int]:
        ranks = sorted(c & 15 for c in hands[i] if c & 15 != JOKER_RANK)
        return (0 if ranks else 1, ranks, i)

    return min(range(len(hands)), key=key)
