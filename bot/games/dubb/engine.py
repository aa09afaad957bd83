"""The Dubb rules engine: D1–D14 of ``shared/rules/dubb.md``, plus leaving and turn timeouts.

The state is plain lists of ints so that ``legal_moves`` and ``apply`` stay fast: seats are
indexes into the seat order, cards are ``bot.cards`` codes, and the top of every pile is the end
of its list. Every automatic step — turning the pile (D6, D7, D10), skipping pending and out
players, ending the game (D11) and the move cap (D13) — happens inside ``apply``, so after any
move the game waits on ``to_move`` (or is over).

``DubbEngine`` extends the state (``DubbState``, in ``state``) with its creation, the move flow
(``apply``: a turn, a play, a timeout) and the views. The game's parts work on that state as
functions in modules of their own, which import the state and never the engine: the cards and
their shuffles (``deal``), a seat's status (``status``), the legal moves and a move's checks
(``legal``), the play pile, the streak and dubbing (``pile``), passing the turn, going out and
the end (``turns``), leaving (``leaving``, not in the rules: a forfeit), the invariants
(``checks``), the stored form (``stored``) and the views (``showing``); ``observation`` is what
one seat sees.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Self

from bot.cards import ACE, JOKER_RANK, parse_cards, pick_from_hand
from bot.gamekit.contract import DealSource, RuleError, Seat
from bot.games.dubb import showing
from bot.games.dubb.checks import check_invariants, check_quick
from bot.games.dubb.deal import packs, shuffle_cards, starter
from bot.games.dubb.events import (
    AutoAction,
    DrawPlayed,
    Drew,
    Event,
    Passed,
    Played,
    PlayerPending,
    TimedOut,
)
from bot.games.dubb.leaving import check_can_leave, leave
from bot.games.dubb.legal import (
    can_draw,
    check_draw,
    check_draw_play,
    check_pass,
    check_play,
    listed,
    lowest,
    pick,
)
from bot.games.dubb.moves import (
    DRAW,
    PASS,
    PLAY_TABLE,
    Draw,
    DrawPlay,
    Leave,
    Move,
    Pass,
    Play,
    Timeout,
)
from bot.games.dubb.observation import DubbObservation
from bot.games.dubb.options import MOVE_CAP, DubbOptions, check_player_count
from bot.games.dubb.pile import SHOW_ORDER, dub, streak_pending, turn_pile
from bot.games.dubb.state import DubbState, PilePlay, streak_length
from bot.games.dubb.status import ACTIVE, LEFT, OUT, PENDING
from bot.games.dubb.stored import restore, stored_form
from bot.games.dubb.turns import advance, finish, go_out
from bot.games.dubb.views import (
    DubbPrivateView,
    DubbPublicView,
    DubbResult,
)

_STRIKES_TO_REMOVE = 3


class DubbEngine(DubbState):
    """One game of Dubb. Create with ``new``; restore with ``from_stored``. The state it holds
    (``DubbState``) is its parts' to read and write; the engine adds the move flow and the
    views."""

    __slots__ = ()

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
        deck = list(packs(options.decks, options.jokers))
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
            left_order=[], to_move=starter(hands), first_move=True, move_count=0,
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
        streak_seats = {p[0] for p in plays[len(plays) - streak_length(plays):]}
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
            seat_to_move = starter(hand_lists)
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
        return showing.result(self)

    def hand(self, player_id: int) -> tuple[int, ...]:
        """``player_id``'s cards, sorted for display (private: only for that player's eyes)."""
        return showing.hand(self, player_id)

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
        return showing.legal_moves(self, player_id)

    def public_view(self) -> DubbPublicView:
        """What everyone at the table may see (D14).

        Kept until the next ``apply``, the one way a game changes: a move's table, panel and
        picture all ask for it (issue 16), and the view is immutable (``showing``)."""
        return showing.public_view(self)

    def _make_public_view(self) -> DubbPublicView:
        """A fresh public view, not the kept one (tests check that the two agree)."""
        return showing.make_public_view(self)

    def private_view(self, player_id: int) -> DubbPrivateView:
        """What only ``player_id`` may see: their sorted hand and their legal moves (D14)."""
        return showing.private_view(self, player_id)

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
            check_can_leave(self, s)
            leave(self, s, False, events)
            return events
        if s != self._to_move:
            name = self._seats[self._to_move].name
            raise RuleError("D5", "it is not your turn: {name} is to move", name=name)
        if kind is Timeout:
            self._timeout(s, events)
            return events
        cards: list[int] | None = None
        if offered is not None and offered[0] == s and listed(move, offered[1]):
            # the very move ``legal`` listed for this state: its checks have been made
            if kind is Play:
                cards = pick(self, s, move)  # type: ignore[arg-type]
        elif kind is Draw:
            check_draw(self, s)
        elif kind is Pass:
            check_pass(self, s)
        elif kind is Play:
            cards = check_play(self, s, move)  # type: ignore[arg-type]
        elif kind is DrawPlay:
            check_draw_play(self, s)
        else:
            raise RuleError("D5", "that is not a move in this game")
        self._strikes[s] = 0
        self._do_turn(s, move, False, events, cards)
        return events

    def _seat_of(self, player_id: int) -> int:
        return showing.seat_of(self, player_id)

    def _do_turn(
        self, s: int, move: Move, auto: bool, events: list[Event], cards: list[int] | None = None
    ) -> None:
        """A checked turn move by seat ``s`` (``cards``: those a checked Play takes)."""
        kind = type(move)
        if kind is Play and cards is None:
            cards = check_play(self, s, move)  # type: ignore[arg-type]
        self._first_move = False  # D4 binds the opening move only
        self._move_count += 1
        pid = self._ids[s]
        if kind is Draw:
            card = self._draw.pop()
            self._hands[s].append(card)
            self._counts[s][card & 15] += 1
            events.append(Drew(pid, 1, (card,), auto))
            advance(self, s, events)
        elif kind is Pass:
            events.append(Passed(pid, auto))
            advance(self, s, events)
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
                advance(self, s, events)
        else:
            self._play(s, move.rank, cards, auto, events)  # type: ignore[arg-type, union-attr]
        # D13: the cap is applied once the move and its automatic steps are done
        if self._to_move >= 0 and self._move_count >= MOVE_CAP:
            finish(self, "cap", events)

    def _play(
        self, s: int, rank: int, cards: list[int], auto: bool, events: list[Event],
        from_hand: bool = True,
    ) -> None:
        """Seat ``s`` plays ``cards`` as ``rank``: it dubs the streak (D8) or breaks it (D10,
        D11), aces turn the pile (D7), and an empty hand makes the mover pending (D10)."""
        hand = self._hands[s]
        if from_hand:
            counts = self._counts[s]
            for c in cards:
                hand.remove(c)
                counts[c & 15] -= 1
        played = tuple(sorted(cards, key=SHOW_ORDER.__getitem__) if len(cards) > 1 else cards)
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
                dub(self, s, rank, victims, len(played), events)
            broken: list[int] = []
        else:
            # D10/D11: a higher rank ends the streak; its pending players go out, in turn order
            # after the mover
            broken = streak_pending(self, s) if pile and PENDING in status else []
            pile.append((s, rank, played))
            self._streak = 1
        if rank == ACE:
            # D7: aces turn the pile at once and the player takes another turn
            turn_pile(self, s, "D7", events)
        for seat in broken:
            if go_out(self, seat, events):
                return
        if rank == ACE:
            if hand:
                return
            # D11: the mover's last cards left the streak with the pile, so they go out last
            if go_out(self, s, events):
                return
        elif not hand:
            status[s] = PENDING
            events.append(PlayerPending(self._ids[s]))
        advance(self, s, events)

    def _timeout(self, s: int, events: list[Event]) -> None:
        """The turn timer of seat ``s`` (to move) ran out: draw, or pass when drawing is not
        allowed, or on the D4 first move play one card of the lowest rank. The third timeout in
        a row makes that move and then removes the player as if they had left."""
        self._strikes[s] += 1
        strike = self._strikes[s]
        move: Move
        action: AutoAction
        if self._first_move:
            move, action = PLAY_TABLE[lowest(self._counts[s])][1][0], "play"
        elif can_draw(self, s):
            move, action = DRAW, "draw"
        else:
            move, action = PASS, "pass"
        events.append(TimedOut(self._ids[s], action, strike))
        self._do_turn(s, move, True, events)
        if strike >= _STRIKES_TO_REMOVE and self._to_move >= 0:
            leave(self, s, True, events)

    # ------------------------------------------------------------------ views and checks

    def check_invariants(self, full_deck: bool = True) -> list[str]:
        """Broken invariants, as text (empty when all hold): no card twice, every card of the
        packs somewhere (``full_deck``), statuses match hands and the streak, the hand limit,
        D6/D7 settled before the player to move acts, and a consistent end (``checks``)."""
        return check_invariants(self, full_deck)

    def check_quick(self) -> list[str]:
        """The cheap part of ``check_invariants``, for after every move between full checks
        (``checks``)."""
        return check_quick(self)

    # ------------------------------------------------------------------ stored form

    def to_stored(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, RNG included, so play continues identically
        (``stored.stored_form``)."""
        return stored_form(self)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self:
        """Restore a game from ``to_stored``'s form; ``ValueError`` if it is not valid."""
        return restore(cls, data)

def _check_seats(seats: Sequence[Seat]) -> None:
    check_player_count(len(seats))
    if len({s.player_id for s in seats}) != len(seats):
        raise RuleError("D1", "a player cannot take two seats at one table")
