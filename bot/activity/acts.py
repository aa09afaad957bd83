"""What a person does in the Activity, done as a button in the channel does it: through the same
table service call (its lock, its checks, its one transaction), then shown on the channel's
table message through the same controller and publisher.

The page only names one of the actions its scene offered; the scene is drawn again here from
the table as it stands, and the action must be among those it offers the session's person now
(so a move for another seat, out of turn, or that the rules forbid is never even tried), on the
very version the page saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.activity.look import Seen, look
from bot.activity.scene import Action, SceneMaker, plain
from bot.activity.sessions import Session
from bot.discord.controller import TableController
from bot.discord.errors import user_message_for
from bot.gamekit.contract import Seat
from bot.i18n import DEFAULT, lang_of, tr
from bot.table import TableService
from bot.table.computers import DEFAULT_LEVEL, free_computer, level_name
from bot.table.errors import StaleMoveError
from bot.table.service import ApplyResult, TableSnapshot


class Refused(Exception):
    """The action is refused and changed nothing: ``status`` (409: the table moved on; 422:
    not open to the person), ``text`` in their language, and the ``scene`` as it stands (for
    409)."""

    def __init__(self, status: int, text: str, scene: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.text = text
        self.scene = scene


class Acts:
    def __init__(self, service: TableService, controllers: Mapping[str, TableController],
                 scenes: SceneMaker) -> None:
        self._service = service
        self._controllers = controllers
        self._scenes = scenes

    async def act(self, session: Session, version: int, action_id: str,
                  table_id: int | None) -> Seen:
        """Do ``action_id`` for ``session`` on the table at ``version``; the channel's table
        after it. ``table_id``: the table the page shows (read as it ended when the channel
        has none live)."""
        lang = session.lang
        seen = await look(self._service, session.channel_id, table_id=table_id)
        scene = self._scenes.scene(seen, session)
        if seen.version != version:
            raise Refused(409, tr(lang, "The table moved on since this was shown. Here is where "
                                        "things stand now."), scene.data)
        action = scene.actions.get(action_id)
        if action is None:
            raise Refused(422, tr(lang, "That is not open to you now. Nothing was changed."))
        try:
            await self._do(action, seen.snapshot, session)
        except StaleMoveError:
            # another process moved the table on a moment before
            now = await look(self._service, session.channel_id, table_id=table_id)
            raise Refused(409, tr(lang, "The table moved on since this was shown. Here is where "
                                        "things stand now."),
                          self._scenes.scene(now, session).data) from None
        except Exception as error:
            text = user_message_for(error, lang)
            if text is None:
                raise
            raise Refused(422, plain(text)) from None
        return await look(self._service, session.channel_id, table_id=table_id)

    async def _do(self, action: Action, snapshot: TableSnapshot | None,
                  session: Session) -> None:
        channel, me = session.channel_id, session.user_id
        if action.kind == "open":
            assert action.game is not None
            await self._open(self._controllers[action.game], session)
            return
        assert snapshot is not None
        controller = self._controllers[snapshot.kind]
        service = self._service
        if action.kind == "move":
            await self._show(controller, await service.apply(channel, me, action.move,
                                                             snapshot.counter))
        elif action.kind == "join":
            await self._show(controller, await service.join(channel, me, session.name))
        elif action.kind == "start":
            await self._show(controller, await service.start(channel, me))
        elif action.kind == "computer":
            defaults = await controller.defaults(snapshot.guild_id)
            level = level_name(defaults.computer_level) or DEFAULT_LEVEL
            computer, name = free_computer(snapshot.seats, level)
            await self._show(controller, await service.add_computer(channel, me, computer, name))
        elif action.kind == "leave":
            result = await service.leave(channel, me)
            if result.snapshot.status == "cancelled":
                await controller.close_table(result.snapshot)
            else:
                await self._show(controller, result)
        else:
            await self._again(controller, snapshot, session)

    @staticmethod
    async def _show(controller: TableController, result: ApplyResult) -> None:
        """The table message shows the change, as after a button (``bot.discord.moves``)."""
        controller.remember(result.snapshot, result.events)
        await controller.publish(result.snapshot)

    async def _check_channel(self, controller: TableController, session: Session) -> int:
        guild = session.guild_id
        if guild is None:
            raise Refused(422, tr(session.lang, "Games are played in server channels."))
        if not await controller.settings.may_host(guild, session.channel_id):
            raise Refused(422, tr(session.lang, "Games can't be started in this channel: the "
                                                "server's managers chose other channels for "
                                                "them."))
        return guild

    async def _open(self, controller: TableController, session: Session) -> None:
        """A lobby in the Activity's channel with its person as host, as ``/<game> start``
        opens one with the server's defaults."""
        guild = await self._check_channel(controller, session)
        defaults = await controller.defaults(guild)
        turn_seconds = defaults.turn_seconds
        if turn_seconds is None:
            turn_seconds = controller.game.default_turn_seconds
        chosen = (await controller.settings.server(guild)).language
        snapshot = await self._service.open_lobby(
            guild, session.channel_id, controller.game.kind, session.user_id, session.name,
            defaults.options, turn_seconds=turn_seconds,
            locale=lang_of(chosen or session.lang or DEFAULT))
        await self._post(controller, snapshot)

    async def _again(self, controller: TableController, ended: TableSnapshot,
                     session: Session) -> None:
        """Play again: a new lobby with the same options and the same people and computers
        seated (those now at another table excepted), as the channel's button does."""
        guild = await self._check_channel(controller, session)
        me = session.user_id
        guests = []
        for seat in ended.seats:
            if seat.player_id == me:
                continue
            if not seat.is_computer and await self._service.table_of_player(
                    guild, seat.player_id) is not None:
                continue
            guests.append(seat)
        record = await self._service.store.table(ended.table_id)
        assert record is not None
        snapshot = await self._service.open_lobby(
            guild, session.channel_id, controller.game.kind, me, session.name, record.options,
            turn_seconds=record.turn_seconds,
            guests=[Seat(s.player_id, s.name) for s in guests][: controller.game.max_players - 1],
            locale=record.locale, rated=record.rated)
        await self._post(controller, snapshot)

    @staticmethod
    async def _post(controller: TableController, snapshot: TableSnapshot) -> None:
        """Post a new lobby in the channel, as the lobby room does."""
        showing = await controller.showing(snapshot, lambda: controller.lobby_render(snapshot))
        await controller.publisher.post_new(showing)
        controller.changed(snapshot)
