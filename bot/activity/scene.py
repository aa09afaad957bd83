"""The scene: one channel's table as one person's Activity page draws it (docs/activity.md, "The
scene"), with exactly the actions open to them now.

A game's part comes from its face (``table_scene``, ``hand_scene``: the same views and words as
the table message and the hand panel); the lobby, the seats' own marks and the actions around a
game (join, start, play again) are the same for every game and are made here. Everything is in
the person's language, and the only hand in it is the person's own.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot import cards
from bot.activity.look import Seen
from bot.activity.sessions import Session
from bot.activity.words import words
from bot.discord.common import as_typed, shown_name, turn_time_text
from bot.discord.controller import TableController, closed_text
from bot.discord.scene import HandScene, PileScene, TableScene
from bot.i18n import tr, trn
from bot.i18n.cards import card_name
from bot.table.service import TableSnapshot

ActionKind = Literal["move", "join", "leave", "start", "computer", "again", "open"]

_MARKDOWN = re.compile(r"\*\*|__")


def plain(text: str) -> str:
    """A line drawn for Discord as plain text for the page: cards as letters, not emojis, no
    markdown (the page shows text as text, never as markup), and names as typed."""
    return as_typed(_MARKDOWN.sub("", cards.plain(text)))


@dataclass(frozen=True, slots=True)
class Action:
    """What an offered action does: its ``kind``, and the game's ``move`` or the game to open
    (``kind``: "open")."""

    kind: ActionKind
    move: Any = None
    game: str | None = None


@dataclass(frozen=True)
class Scene:
    """The page's JSON, and what each of its actions' ids stands for."""

    data: dict[str, Any]
    actions: Mapping[str, Action] = field(repr=False)


def card_id(card: int) -> str:
    """``7H``, ``10S``, ``QD``; every joker is ``JK``."""
    rank = cards.rank(card)
    if rank == cards.JOKER_RANK:
        return "JK"
    return cards.RANK_NAMES[rank] + "SHDC"[cards.suit(card)]


def card_data(card: int, lang: str) -> dict[str, str]:
    return {"id": card_id(card), "name": card_name(lang, card)}


def move_id(controller: TableController, move: Any) -> str:
    """A move's action id: the same move gets the same id, so an id the page sends back is
    found again among the moves offered at that time, or not at all."""
    stored = json.dumps(controller.game.moves.to_dict(move), sort_keys=True)
    return "m-" + hashlib.sha256(stored.encode()).hexdigest()[:16]


def plain_names(snapshot: TableSnapshot) -> dict[int, str]:
    """Everyone who sat at the table by name, escaped as a message names them, so that the
    lines drawn for Discord with them come back as typed through ``plain`` (which takes the
    lines' own bold out: a name's escaped stars and underscores stay). The page marks a
    computer player's seat itself (``computer``)."""
    seated = (snapshot.engine.names.items() if snapshot.engine is not None
              else ((s.player_id, s.name) for s in snapshot.seats))
    return {player_id: shown_name(name) for player_id, name in seated}


class SceneMaker:
    """Draws scenes for every game's tables: ``controllers`` by game kind."""

    def __init__(self, controllers: Mapping[str, TableController]) -> None:
        self._controllers = controllers

    def scene(self, seen: Seen, session: Session) -> Scene:
        """``seen`` for ``session``'s person. Reads the table's engine without awaiting: call
        it right after ``look``."""
        lang = session.lang
        snapshot = seen.snapshot
        actions: dict[str, Action] = {}
        offered: list[dict[str, Any]] = []

        def offer(action_id: str, action: Action, label: str,
                  used: tuple[int, ...] = (), target: str | None = None) -> None:
            actions[action_id] = action
            offered.append({"id": action_id, "label": plain(label), "kind": action.kind,
                            "cards": [card_data(c, lang) for c in used], "target": target})

        if snapshot is None or snapshot.kind not in self._controllers:
            for kind, controller in self._controllers.items():
                offer(f"open-{kind}", Action("open", game=kind),
                      tr(lang, "Open a {game} table", game=controller.game.name))
            data = self._empty(lang)
        else:
            controller = self._controllers[snapshot.kind]
            data = self._table(controller, seen, snapshot, session, offer)
        data.update(actions=offered, words=words(lang), lang=lang)
        return Scene(data, actions)

    @staticmethod
    def _empty(lang: str) -> dict[str, Any]:
        return {
            "version": 0, "table": None, "game": None, "state": "none",
            "title": tr(lang, "No table here yet"),
            "status": tr(lang, "Open one: others can join it here or in the channel."),
            "options": None, "seats": [], "piles": [], "latest": [], "deadline": None,
            "result": None, "hand": None,
        }

    def _table(self, controller: TableController, seen: Seen, snapshot: TableSnapshot,
               session: Session, offer: Any) -> dict[str, Any]:
        lang = session.lang
        me = session.user_id
        names = plain_names(snapshot)
        seated = snapshot.seat_of(me) is not None
        options = plain(controller.face.options_line(snapshot.options, len(snapshot.seats),
                                                     lang)
                        + " · " + turn_time_text(snapshot.turn_seconds, lang))
        data: dict[str, Any] = {
            "version": snapshot.version, "table": snapshot.table_id,
            "game": {"name": controller.game.name}, "options": options, "latest": [],
            "deadline": None, "result": None, "hand": None,
        }
        if snapshot.is_lobby:
            data.update(self._lobby(controller, snapshot, names, lang, me))
            if not seated and len(snapshot.seats) < controller.game.max_players:
                offer("join", Action("join"), tr(lang, "Join"))
            if seated:
                offer("leave", Action("leave"), tr(lang, "Leave"))
            if me == snapshot.host_id:
                if len(snapshot.seats) < controller.game.max_players:
                    offer("computer", Action("computer"), tr(lang, "Add computer player"))
                if len(snapshot.seats) >= controller.game.min_players:
                    offer("start", Action("start"), tr(lang, "Start"))
            return data
        engine = snapshot.engine
        if engine is None or snapshot.status == "cancelled":
            data.update(state="closed", seats=[self._seat(s.player_id, names[s.player_id], None,
                                                          "", False, me, snapshot)
                                               for s in snapshot.seats],
                        piles=[],
                        title=tr(lang, "{game} — closed", game=controller.game.name),
                        status=plain(closed_text(snapshot.closed_note, lang)))
            if engine is not None:
                offer("again", Action("again"), tr(lang, "Play again"))
            return data
        table = controller.face.table_scene(snapshot, engine.public_view(), names, lang)
        data.update(self._game(table, snapshot, me, lang))
        data["latest"] = [plain(line) for line in
                          controller.latest_lines(seen.records, names, lang)]
        if snapshot.status == "playing":
            data["deadline"] = snapshot.turn_deadline
        hand = (controller.face.hand_scene(snapshot, me, names, lang)
                if me in engine.names else None)
        if hand is not None:
            data["hand"] = self._hand(hand, lang)
            if snapshot.status == "playing":
                for move in hand.moves:
                    offer(move_id(controller, move.move), Action("move", move.move), move.label,
                          move.cards, move.target)
        if table.state == "between":
            if not seated and controller.game.rules.join_move(session.name) is not None:
                offer("join", Action("join"), tr(lang, "Join"))
            if seated:
                offer("leave", Action("leave"), tr(lang, "Leave"))
        if snapshot.status == "finished":
            offer("again", Action("again"), tr(lang, "Play again"))
        return data

    @staticmethod
    def _lobby(controller: TableController, snapshot: TableSnapshot, names: Mapping[int, str],
               lang: str, me: int) -> dict[str, Any]:
        needed = max(0, controller.game.min_players - len(snapshot.seats))
        status = (trn(lang, "Press Join to sit down. {n} more player is needed to start.",
                      "Press Join to sit down. {n} more players are needed to start.", needed)
                  if needed else tr(lang, "The host can press Start."))
        return {
            "state": "lobby",
            "title": tr(lang, "{game} — waiting for players", game=controller.game.name),
            "status": status,
            "seats": [SceneMaker._seat(s.player_id, names[s.player_id], None,
                                       tr(lang, "host") if s.player_id == snapshot.host_id
                                       else "", False, me, snapshot)
                      for s in snapshot.seats],
            "piles": [], "deadline": snapshot.lobby_expires_at,
        }

    @staticmethod
    def _seat(player_id: int, name: str, held: int | None, status: str, to_move: bool,
              me: int, snapshot: TableSnapshot) -> dict[str, Any]:
        return {"id": str(player_id), "name": plain(name),
                "cards": held, "status": plain(status), "to_move": to_move,
                "you": player_id == me, "computer": player_id < 0,
                "host": player_id == snapshot.host_id}

    @staticmethod
    def _pile(pile: PileScene, lang: str) -> dict[str, Any]:
        return {"id": pile.id, "kind": pile.kind, "label": plain(pile.label),
                "cards": [card_data(c, lang) for c in pile.cards], "count": pile.count}

    @staticmethod
    def _hand(hand: HandScene, lang: str) -> dict[str, Any]:
        return {"cards": [card_data(c, lang) for c in hand.cards], "total": hand.total}

    def _game(self, table: TableScene, snapshot: TableSnapshot, me: int, lang: str
              ) -> dict[str, Any]:
        seats = [self._seat(s.player_id, s.name, s.cards, s.status, s.to_move, me, snapshot)
                 for s in table.seats]
        return {
            "state": table.state, "title": plain(table.title), "status": plain(table.status),
            "seats": seats, "piles": [self._pile(p, lang) for p in table.piles],
            "result": None if table.result is None else [plain(r) for r in table.result],
        }
