"""The coach's room (issue 34): a hint for the user's move now, and a review of their finished
game, privately; the panel's Hint button, a finished table's Review button and the ``hint``
command. The search is the coach's (``bot.coach``); this room words it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.cardart import CardImage
from bot.cardart.chart import HEIGHT, WIDTH, line_chart
from bot.coach import hints
from bot.coach.review import Position, Weighed, positions, review_job, run_review
from bot.discord.answers import user_lang
from bot.discord.common import cut, labelled
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.layout import panel_layout
from bot.discord.pictures import attachment
from bot.discord.reach import place_of
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd
from bot.gamekit.search import Budget, Decision
from bot.i18n import number, tr, trn
from bot.table.fairdeal import deals_of, engine_from_start
from bot.table.service import TableSnapshot

REVIEW_SECONDS = 2.0
"""The CPU cap of each decision's search in a review: far above what its rollouts take, so
that a review comes out the same even on a loaded machine."""
COSTLY = 0.01
"""A decision costs something when the best move found beats it by more than this (a 1% chance
of losing, a hundredth of a chip)."""
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description."""


async def hint(controller: TableController, interaction: discord.Interaction,
               route: Route | None = None) -> None:
    """The move an expert computer in the user's seat would make now, and why, privately:
    searched from what the user's seat has seen, nothing else."""
    snapshot = await controller.table_for(interaction, route)
    player = interaction.user.id
    if snapshot.seat_of(player) is None:
        raise UserFacingError("You're not playing at this table.")
    refused = await hints.refusal(controller.game, controller.pool, controller.settings,
                                  snapshot)
    if refused is not None:
        raise UserFacingError(refused)
    if not snapshot.is_playing or snapshot.engine is None or snapshot.engine.to_move != player:
        raise UserFacingError("A hint is for your own turn, and it is not your turn now.")
    assert controller.pool is not None
    # the search may queue behind computers' in the pool: answer Discord at once
    await interaction.response.defer(ephemeral=True, thinking=True)
    decision = await hints.advise(controller.service, controller.pool, snapshot.channel_id, player)
    now = await controller.service.get(snapshot.channel_id)
    if decision is None or now is None or now.counter != snapshot.counter:
        raise UserFacingError("The table moved on while the hint was worked out: ask again.")
    await interaction.followup.send(hint_text(controller, now, player, decision,
                                              user_lang(interaction)), ephemeral=True)


def hint_text(controller: TableController, snapshot: TableSnapshot, player: int,
              decision: Decision, lang: str) -> str:
    """A hint in one line: the move, what it does (the face's reason), what the search
    expects of it, and of the next best."""
    rules = controller.game.search
    assert rules is not None
    names = controller.names(snapshot)  # escaped: another player's name is theirs to choose
    move = controller.face.move_text(snapshot.engine, player, decision.move, names, lang)
    if not decision.worlds:
        return tr(lang, "💡 {move}: there is nothing better to do.", move=move)
    chosen = next(e for e in decision.estimates if e.move == decision.move)
    template, values = rules.outlook(chosen.score)
    outlook = tr(lang, template, **values)
    reason = controller.face.move_reason(snapshot.engine, player, decision.move, names, lang)
    if reason is None:
        text = tr(lang, "💡 {move}: {outlook}.", move=move, outlook=outlook)
    else:
        text = tr(lang, "💡 {move}: {reason}; {outlook}.", move=move, reason=reason,
                  outlook=outlook)
    others = [e for e in decision.estimates if e.move != decision.move]
    if others:
        other = max(others, key=lambda e: e.score)
        template, values = rules.outlook(other.score)
        text += " " + tr(lang, "Next best, {move}: {outlook}.",
                         move=controller.face.move_text(snapshot.engine, player,
                                                        other.move, names, lang),
                         outlook=tr(lang, template, **values))
    return text


async def review(controller: TableController, interaction: discord.Interaction,
                 table_id: int) -> None:
    """The user's own decisions in a finished game, weighed by the expert's search from
    what they could see then: the three that cost most, with what was better, and a chart
    of their outlook over the game; privately, and the same every time."""
    record = await controller.service.store.table(table_id)
    if (record is None or record.guild_id != place_of(interaction) or record.is_live
            or not record.has_started or record.kind != controller.game.kind):
        raise UserFacingError("There is no finished game to review there.")
    rules = controller.game.search
    if rules is None or controller.pool is None:
        raise UserFacingError("This game gives no reviews.")
    player = interaction.user.id
    records = await controller.service.moves(table_id)
    engine = engine_from_start(controller.game, records[0].move, deals_of(record))
    if player not in engine.names:
        raise UserFacingError("Only the players of a game can review it.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = user_lang(interaction)
    found = positions(controller.game, engine, records, player)
    if not found:
        await interaction.followup.send(
            tr(lang, "You had no choice to make in this game, so there is nothing to "
                     "review."), ephemeral=True)
        return
    budget = Budget(controller.pool.budget.iterations, REVIEW_SECONDS)
    weighed: list[Weighed] = await controller.pool.run(
        review_job(rules, table_id, player, found, budget), run_review)
    text, image = review_text(controller, found, weighed, player, lang)
    # the review and its chart in one container, as a hand panel shows a hand
    await interaction.followup.send(view=panel_layout(text, None, image), file=attachment(image),
                                    ephemeral=True)


def review_text(controller: TableController, found: Sequence[Position],
                weighed: Sequence[Weighed], player: int, lang: str) -> tuple[str, CardImage]:
    """A review as a message and its chart (``review``)."""
    rules = controller.game.search
    assert rules is not None
    costly = sorted((i for i, w in enumerate(weighed) if w.cost > COSTLY), reverse=True,
                    key=lambda i: weighed[i].cost)[:3]
    playouts = controller.pool.budget.iterations if controller.pool else 0
    # escaped, as the table names them: another player's name is theirs to choose
    names = labelled(found[0].engine.names.items()) if found else {}
    lines = [trn(lang, "**Your review**: {n} decision weighed, {rollouts} playouts, from "
                       "what you could see at the time.", "**Your review**: {n} decisions "
                       "weighed, {rollouts} playouts each, from what you could see at the "
                       "time.", len(weighed),
                 rollouts=number(lang, playouts))]
    if not costly:
        lines.append(tr(lang, "The search found nothing better than any of your moves."))
    for i in costly:
        w, p = weighed[i], found[i]
        template, values = rules.outlook(w.score)
        better_template, better_values = rules.outlook(w.best_score)
        lines.append(tr(
            lang, "• Decision {n}: {move} ({outlook}); better: {better} ({better_outlook}).",
            n=i + 1, move=controller.face.move_text(p.engine, player, p.move, names, lang),
            outlook=tr(lang, template, **values),
            better=controller.face.move_text(p.engine, player, w.best, names, lang),
            better_outlook=tr(lang, better_template, **better_values)))
    values = [rules.measure(w.score) for w in weighed]
    title = tr(lang, rules.measure_label)
    alt = cut(f"{title}: " + ", ".join(number(lang, round(v)) for v in values), ALT_TEXT_LIMIT)
    chart = line_chart(values, title, marked=costly)
    return "\n".join(lines), CardImage(chart, alt, WIDTH, HEIGHT, "review.png")


def routes(controller: TableController) -> Mapping[str, Handler]:
    """The panel's Hint and a finished table's Review."""

    async def hint_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await hint(controller, i, route)

    async def review_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await review(controller, i, route.table_id)

    return {"hint": hint_, "review": review_}


def commands(controller: TableController) -> list[SharedCommand]:
    async def hint_(interaction: discord.Interaction) -> None:
        await hint(controller, interaction)

    return [SharedCommand(cmd("hint"), hint_,
                          cmd("The expert's move for your position, privately"))]
