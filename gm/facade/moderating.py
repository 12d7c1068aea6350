"""What moderators do (/mod, the confirmation buttons, open seats). Every action is checked in gm (who
may, and a moderator who plays may not judge); its consequences (deadline jobs, the close, the final
post, the messages) follow in the background."""

from __future__ import annotations

import logging
from datetime import datetime

from gm.actor import Actor
from gm.anonymity import requester_of
from gm.errors import PhaseBusy
from gm.facade.core import GamemasterCore
from gm.meant_for import ANY_PHASE, MeantFor
from gm.moderation import actions as moderation
from gm.moderation import builtin, rollback, takeover
from gm.moderation.rollback import RollbackPlan
from gm.moderation.shared import ModerationResult, check_moderator
from gm.reading.info import GameInfo
from gm.setup.games import get_game

log = logging.getLogger(__name__)


class ModerationCases(GamemasterCore):
    def check_moderator(self, game: GameInfo, actor: Actor, action: str | None = None) -> None:
        """Refuse now, before a confirmation is offered, what the use case would refuse: ``actor``
        may not moderate ``game``, or may not take ``action`` because they play in it
        (gm.moderation.shared.check_moderator). Reads nothing: ``game`` is as the adapter has it."""
        check_moderator(game, actor, action)

    def _done(self, result: ModerationResult) -> ModerationResult:
        self._runtime.follow_up(result.follow_ups, f"[[cmd:mod]] {result.action} in game {result.game_id}")
        return result

    async def extend_deadline(
        self, game_id: int, actor: Actor, *, minutes: int, sent_at: datetime | None = None
    ) -> ModerationResult:
        """``sent_at``: when the moderator sent the request (refused if the phase opened since)."""
        async with self._sessions.begin() as session:
            result = await moderation.extend_deadline(
                session, game_id, actor, minutes=minutes, sent_at=sent_at
            )
        return self._done(result)

    async def pause_game(self, game_id: int, actor: Actor) -> ModerationResult:
        async with self._sessions.begin() as session:
            result = await moderation.pause_game(session, game_id, actor)
        return self._done(result)

    async def resume_game(self, game_id: int, actor: Actor) -> ModerationResult:
        async with self._sessions.begin() as session:
            result = await moderation.resume_game(session, game_id, actor)
        return self._done(result)

    async def close_now(
        self,
        game_id: int,
        actor: Actor,
        *,
        sent_at: datetime | None = None,
        asked_phase: int | None = None,
    ) -> ModerationResult:
        """Close the phase that was open when the moderator sent the request (``sent_at``), never
        the next one; a phase that had just opened asks for a confirmation first (action
        ``close_confirm``: gm.moderation.actions.close_now). ``asked_phase``: the id of the phase the
        moderator confirmed closing; refused when the game has moved on since."""
        expected: MeantFor[str] = ANY_PHASE
        if asked_phase is not None:
            game = await self._unchanged(game_id, asked_phase, "close")
            expected = MeantFor(game.phase.name if game.phase is not None else None)
        async with self._sessions.begin() as session:
            result = await moderation.close_now(
                session,
                game_id,
                actor,
                meant_for=expected,
                sent_at=sent_at,
                confirmed=asked_phase is not None,
            )
        return self._done(result)

    async def replace_player(
        self,
        game_id: int,
        actor: Actor,
        *,
        power: str,
        new_user_id: int,
        sees_all: bool = False,
        reads_places: bool = False,
    ) -> ModerationResult:
        """``sees_all``: no channel can be hidden from the newcomer (gm.setup.server); ``reads_places``:
        the newcomer could read the game's private places without playing (a moderator)."""
        await self._seat_view(game_id, power)
        async with self._sessions.begin() as session:
            result = await moderation.replace_player(
                session,
                game_id,
                actor,
                power=power,
                new_user_id=new_user_id,
                sees_all=sees_all,
                reads_places=reads_places,
            )
        return self._done(result)

    async def set_civil_disorder(
        self, game_id: int, actor: Actor, *, power: str, on: bool
    ) -> ModerationResult:
        async with self._sessions.begin() as session:
            result = await moderation.set_civil_disorder(session, game_id, actor, power=power, on=on)
        return self._done(result)

    async def set_built_in(self, game_id: int, actor: Actor, *, power: str, on: bool) -> ModerationResult:
        """/mod builtin: give a seat to the built-in player (``on``) or take it back."""
        async with self._sessions.begin() as session:
            result = await builtin.set_built_in(session, game_id, actor, power=power, on=on)
        return self._done(result)

    async def plan_rollback(
        self, game_id: int, actor: Actor, *, sent_at: datetime | None = None
    ) -> RollbackPlan:
        """``sent_at``: when the moderator sent the request (refused if the game moved on since)."""
        async with self._sessions.read() as session:
            return await rollback.plan_rollback(session, game_id, actor, sent_at=sent_at)

    async def rollback_last_phase(self, game_id: int, actor: Actor, *, asked_phase: int) -> ModerationResult:
        await self._unchanged(game_id, asked_phase, "rollback")
        async with self._sessions.begin() as session:
            result = await rollback.rollback_last_phase(session, game_id, actor)
        return self._done(result)

    async def end_game(
        self, game_id: int, actor: Actor, *, asked_phase: int, reason: str | None = None
    ) -> ModerationResult:
        await self._unchanged(game_id, asked_phase, "end")
        async with self._sessions.begin() as session:
            result = await moderation.end_game(session, game_id, actor, reason=reason)
        return self._done(result)

    async def take_over(
        self, game_id: int, user_id: int, power: str, *, sees_all: bool = False, reads_places: bool = False
    ) -> ModerationResult:
        """A member who does not play takes an open seat (or asks for it: gm.moderation.takeover; a
        moderator, who could read the game's private places, always asks: ``reads_places``)."""
        await self._seat_view(game_id, power)
        async with self._sessions.begin() as session:
            result = await takeover.take_over(
                session, game_id, user_id, power, sees_all=sees_all, reads_places=reads_places
            )
        return self._done(result)

    async def take_over_requester(self, game_id: int, request: int) -> int:
        """Who asked in the take-over request ``request`` (gm.anonymity.requester_of)."""
        async with self._sessions.read() as session:
            return await requester_of(session, game_id, request)

    async def decide_take_over(
        self,
        game_id: int,
        actor: Actor,
        power: str,
        user_id: int,
        *,
        approve: bool,
        sees_all: bool = False,
        reads_places: bool = False,
    ) -> ModerationResult:
        if approve:
            await self._seat_view(game_id, power)
        async with self._sessions.begin() as session:
            if approve:
                result = await takeover.approve_take_over(
                    session, game_id, actor, power, user_id, sees_all=sees_all, reads_places=reads_places
                )
            else:
                result = await takeover.decline_take_over(session, game_id, actor, power, user_id)
        return self._done(result)

    async def _seat_view(self, game_id: int, power: str) -> None:
        """The current position as the newcomer to the seat holding ``power`` will see it, drawn (when
        it never was) before the seat changes hands, so that their welcome carries it
        (gm.moderation.replacement); best effort: a refusal comes from the hand-over itself."""
        try:
            await self.phase_map(game_id, seat=power)
        except Exception:
            log.info("no map of game %s for the seat of %s's welcome", game_id, power, exc_info=True)

    async def _unchanged(self, game_id: int, asked_phase: int, action: str) -> GameInfo:
        """The game, refused when its phase has changed since the moderator was asked to confirm
        ``action`` (the phase's id when asked; 0: no phase)."""
        async with self._sessions.read() as session:
            game = await get_game(session, game_id)
        now = game.phase.id if game.phase is not None else 0
        if now != asked_phase:
            where = f" (it is now at {game.phase.long_name})" if game.phase is not None else ""
            raise PhaseBusy(
                f"{game.name} has moved on since you asked{where}; nothing was changed.",
                f"Run [[cmd:mod]] {action} again if it is still needed.",
            )
        return game
