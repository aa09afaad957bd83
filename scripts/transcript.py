"""Print a game as its channel reads it, in plain text: the lobby, the table as it first shows,
every line the table adds as the game goes, a player's hand panel, and the table at the end —
to read the wording of a whole game in one go, in any language the bot speaks.

    .venv/bin/python scripts/transcript.py dubb --lang sv
    .venv/bin/python scripts/transcript.py tonk --lang da --hands 2
    .venv/bin/python scripts/transcript.py dubb --lang fi --coach

Moves are chosen by the game's strongest computer strategy for every seat, from ``--seed``.
``--coach`` adds what the coach says to Anna: a hint at her first choice after the twelfth move,
and the review of her decisions at the end (the expert's search at ``--playouts`` a decision).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.coach.review import Position, review_job, run_review
from bot.discord.coach import hint_text, review_text
from bot.discord.common import LobbySeat, fit, label, lobby_embed
from bot.discord.controller import TableController, load_face
from bot.discord.showing import TableRender
from bot.gamekit.contract import Seat
from bot.gamekit.search import Budget, search
from bot.games.registry import GAMES
from bot.storage import SeatInfo
from bot.table.service import TableSnapshot

PLAYERS = [(101, "Anna"), (102, "Bo"), (-1, "Astrid")]


def embed_text(embed: discord.Embed, content: str | None = None) -> str:
    data = fit(embed).to_dict()
    lines = [content] if content else []
    lines.append(f"# {data.get('title', '')}")
    if data.get("description"):
        lines.append(str(data["description"]))
    for f in data.get("fields", []):
        lines.append(f"## {f['name']}\n{f['value']}")
    if data.get("footer"):
        lines.append(f"({data['footer']['text']})")
    return "\n".join(lines)


def view_text(view: discord.ui.View | None) -> str:
    if view is None:
        return ""
    parts = []
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            parts.append(f"[{item.label}]")
        elif isinstance(item, discord.ui.Select):
            parts.append(f"[{item.placeholder} ▾ {len(item.options)}]")
    return " ".join(parts)


def render_text(render: TableRender) -> str:
    text = embed_text(render.embed, render.content)
    if render.image is not None:
        text += f"\n(picture: {render.image.alt})"
    return text + "\n" + view_text(render.view)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--lang", default="en")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--hands", type=int, default=2, help="hands to play of a game of hands")
    p.add_argument("--coach", action="store_true", help="a hint and a review for Anna")
    p.add_argument("--playouts", type=int, default=100, help="the coach's playouts a decision")
    args = p.parse_args()
    spec = GAMES[args.game]
    face = load_face(spec)
    lang = args.lang
    seats = [Seat(pid, name) for pid, name in PLAYERS[: max(spec.min_players, 3)]]
    names = {s.player_id: label(s.player_id, s.name) for s in seats}
    options = spec.validate_options(None)
    print("=== lobby ===")
    lobby = lobby_embed(title=spec.name, options_line=face.options_line(options, len(seats), lang),
                        seats=[LobbySeat(s.player_id, s.name, s.player_id < 0) for s in seats],
                        host_id=seats[0].player_id, min_players=spec.min_players,
                        max_players=spec.max_players, expires_at=None, lang=lang,
                        turn_seconds=spec.default_turn_seconds)
    print(embed_text(lobby))
    engine = spec.new_engine(seats, options, args.seed)
    rng = random.Random(args.seed)
    strategies = {s.player_id: spec.strategies[spec.computer]() for s in seats}
    codec = spec.events

    def snapshot(counter: int) -> TableSnapshot:
        return TableSnapshot(
            table_id=1, guild_id=1, channel_id=1, kind=spec.kind,
            status="finished" if engine.is_over else "playing", host_id=seats[0].player_id,
            options=options,
            seats=tuple(SeatInfo(player_id=s.player_id, name=s.name,
                                 is_computer=s.player_id < 0) for s in engine.seats),
            message_id=None, counter=counter, engine=engine, turn_seconds=0,
            turn_deadline=None, lobby_expires_at=None, locale=lang)

    recent = [line for e in engine.opening_events
              for line in face.describe([codec.public(codec.to_dict(e))], names, lang)]
    print("\n=== the table, first shown ===")
    first = face.table_render(snapshot(0), engine.public_view(), recent[-6:], names, lang)
    print(render_text(first))
    print("\n=== the hand panel of Anna ===")
    panel = face.hand_panel(snapshot(0), seats[0].player_id, names, lang, notice=None, arg=None)
    print(panel.content + "\n" + view_text(panel.view))
    print("\n=== every line the table adds ===")
    for line in recent:
        print(line)
    # the coach sees only what Anna's seat was shown (bot.coach.review)
    anna = seats[0].player_id
    rules = spec.search if args.coach else None
    memory = rules.memory() if rules is not None else None
    budget = Budget(args.playouts, 60.0)
    # the review's header names the pool's playouts: a stand-in pool with the coach's budget
    controller = TableController(cast(Any, None), cast(Any, None), spec, face, cast(Any, None),
                                 pool=cast(Any, SimpleNamespace(budget=budget)))
    if rules is not None:
        rules.remember(memory, [codec.for_seat(codec.to_dict(e), anna)
                                for e in engine.opening_events])
    found: list[Position] = []
    hint = None
    between = None
    moves = 0
    hands = 1
    midgame = None
    while not engine.is_over and moves < 3000:
        player = engine.to_move
        if (rules is not None and player == anna
                and len(engine.legal_moves(anna)) > 1):
            info = rules.information(engine.observe(anna), memory)
            found.append(Position(moves + 1, info, None, spec.load_engine(engine.to_stored())))
            if hint is None and moves >= 12:
                decision = search(rules, info, args.seed, budget)
                hint = hint_text(controller, snapshot(moves), anna, decision, lang)
        if player is None:
            if between is None:
                between = face.table_render(snapshot(moves), engine.public_view(), recent,
                                            names, lang)
            idle = spec.rules.idle_move(engine)
            if idle is None or hands >= args.hands:
                break
            player, move = idle
            hands += 1
        else:
            move = strategies[player].choose(engine.observe(player), rng)
        if found and found[-1].seq == moves + 1 and found[-1].move is None:
            found[-1] = Position(found[-1].seq, found[-1].info, move, found[-1].engine)
        events = engine.apply(player, move)
        moves += 1
        if rules is not None:
            rules.remember(memory, [codec.for_seat(codec.to_dict(e), anna) for e in events])
        lines = face.describe([codec.public(codec.to_dict(e)) for e in events], names, lang)
        for line in lines:
            print(line)
        recent = (recent + lines)[-6:]
        if moves == 12:
            midgame = face.table_render(snapshot(moves), engine.public_view(), recent, names,
                                      lang)
    if midgame is not None:
        print("\n=== the table mid-game (after 12 moves) ===")
        print(render_text(midgame))
    if between is not None:
        print("\n=== the table between hands ===")
        print(render_text(between))
    print("\n=== the table at the end ===")
    print(render_text(face.table_render(snapshot(moves), engine.public_view(), recent, names,
                                      lang)))
    print("\n=== how it went (history) ===")
    print(face.summary(snapshot(moves), names, None, lang))
    if hint is not None:
        print("\n=== a hint for Anna ===")
        print(hint)
    if rules is not None and found:
        print("\n=== Anna's review ===")
        weighed = run_review(review_job(rules, 1, anna, found, budget))
        text, chart = review_text(controller, found, weighed, anna, lang)
        print(text)
        print(f"(chart: {chart.alt})")


if __name__ == "__main__":
    main()
