"""What players do during a game: send, replace and clear orders, say they are ready, propose and vote
on a draw or a concession. Each may let the phase close early, or end the game, which follows in the
background."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from sqlmodel.ext.asyncio.session import AsyncSession

from db.lean import NeedsSession
from gm.delivery.lanes import step_aside, urgent_writes
from gm.endings import votes
from gm.endings.votes import VoteReport
from gm.facade.core import GamemasterCore
from gm.follow_ups import FollowUps
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering import submission as orders
from gm.ordering import whole_sheet as sheet
from gm.ordering.current import OWN, PENDING, own_orders
from gm.ordering.offline import mark_read
from gm.ordering.returning import RETURNED
from gm.ordering.submission import GAMES_READ, OrdersView, SubmissionReport

log = logging.getLogger(__name__)

DIRECT_BATCH = 10
"""Direct messages written in one transaction at most: a transaction runs through without letting the
event loop go (db.sqlite), so a batch of them holds up every other interaction for its time (about
10 ms a message on a quiet machine); the ones beyond wait for the next."""


class PlayingCases(GamemasterCore):
    async def submit_orders(
        self, game_id: int, user_id: int, text: str, *, message_id: int | None = None
    ) -> SubmissionReport:
        """Judge ``text`` line by line; the accepted lines add to or replace orders unit by unit.
        ``message_id``: the direct message they came in, marked handled in the same transaction
        (:class:`gm.ordering.offline.AlreadyRead` when it was already: nothing is recorded)."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)  # a DM sheet's redraw takes the menu from the change
        if message_id is not None and self._batches_direct_messages():
            report = await self._direct_batches().submit(_DirectOrders(game_id, user_id, text, message_id))
        else:
            # a direct message's reply is all its player sees: its write goes before the others waiting
            report = await self._write_own_orders(
                game_id,
                user_id,
                lambda session: orders.submit_orders(session, game_id, user_id, text),
                message_id=message_id,
            )
        kept = self._current.after_submission(report)
        await self._after_order_change(ticket, report.view, kept=kept, held=held, state=report.state)
        return report

    def _batches_direct_messages(self) -> bool:
        """SQLite (one writer at a time): the direct messages' orders that wait for the writer together
        are written in one transaction (:class:`_DirectBatches`). PostgreSQL writes them side by side."""
        return self._sessions.one_writer

    def _direct_batches(self) -> _DirectBatches:
        batches: _DirectBatches | None = getattr(self, "_direct_batcher", None)
        if batches is None:
            batches = self._direct_batcher = _DirectBatches(self)
        return batches

    async def _write_direct_batch(
        self, take: Callable[[], list[_DirectOrders]], *, alone: bool = False
    ) -> None:
        """One transaction for the direct messages' orders waiting once it holds the writer lock
        (``take``): each in a savepoint of its own (one refused, e.g. its phase closed, leaves the
        others written), each marked handled with its orders; every one's future answered once the
        commit is durable, or with its error. A message alone (the usual case but in a burst) takes
        no savepoint: its refusal rolls the transaction back (two statements and the nested
        transaction's work fewer); ``alone``: one message waits (most likely the only one taken), on
        a game the process holds: it is written in a lean unit (:meth:`_write_lone_lean`)."""
        done: list[tuple[_DirectOrders, SubmissionReport, bool]] = []
        batch: list[_DirectOrders] = []
        try:
            with urgent_writes():
                written = await self._write_lone_lean(take, batch) if alone else None
                if written is not None:
                    done.append(written)
                else:
                    async with self._sessions.begin() as session:
                        await session.connection()  # BEGIN IMMEDIATE: the writer lock, then the batch
                        self._current.lend(session)
                        batch = batch or take()  # (taken already by a lean unit that could not write it)
                        if len(batch) == 1:  # alone: no savepoint, a refusal rolls the transaction back
                            done.append(await self._write_alone(session, batch[0]))
                        else:
                            done.extend(await self._write_each(session, batch))
                    self._current.keep_read(session)
        except _Refused as refused:  # a lone message refused (its phase closed, already read...)
            error = refused.__cause__
            assert isinstance(error, Exception)  # for mypy: raised from what submit_orders raised
            batch[0].answer.set_exception(error)
            return
        except BaseException as exc:
            for item in batch or take():  # the batch failed as a whole (the database away...)
                if item.answer.done():
                    continue
                if isinstance(exc, Exception):
                    item.answer.set_exception(exc)
                else:
                    item.answer.cancel()
            raise
        for item, report, returned in done:
            if returned:
                self._runtime.follow_up(FollowUps(item.game_id), f"a player's return in game {item.game_id}")
            item.answer.set_result(report)

    async def _write_lone_lean(
        self, take: Callable[[], list[_DirectOrders]], batch: list[_DirectOrders]
    ) -> tuple[_DirectOrders, SubmissionReport, bool] | None:
        """A lone direct message's orders on a game the process holds, in a lean unit (db.lean, as
        gm.facade.core's ``_write_own_orders``): what was written, the message taken into ``batch``;
        None when it must be written in a session (no lean unit free, several messages, a game not
        held, something only a session does: nothing committed; what was taken is in ``batch``).
        _Refused when refused, as :meth:`_write_alone`."""
        unit = await self._sessions.lean()
        if unit is None:
            return None
        try:
            async with unit as lean:  # BEGIN IMMEDIATE: the writer lock, then the batch
                batch.extend(take())
                if len(batch) != 1 or self._current.held_game(batch[0].game_id) is None:
                    raise NeedsSession("a batch, or a game not held")
                session = cast(AsyncSession, lean)  # (what a hot write uses of one: db.lean)
                self._current.lend(session)
                written = await self._write_alone(session, batch[0])
        except NeedsSession:
            return None
        self._current.keep_read(session)
        return written

    async def _write_alone(
        self, session: AsyncSession, item: _DirectOrders
    ) -> tuple[_DirectOrders, SubmissionReport, bool]:
        """A lone direct message's orders in the batch's transaction; _Refused when refused."""
        try:
            own_orders(session, item.game_id, item.user_id)
            await mark_read(session, item.user_id, item.message_id)
            report = await orders.submit_orders(session, item.game_id, item.user_id, item.text)
        except NeedsSession:
            raise  # (a lean unit's: written again in a session)
        except Exception as exc:
            raise _Refused from exc
        finally:
            session.info.pop(OWN, None)
        return item, report, bool(session.info.pop(RETURNED, False))

    async def _write_each(
        self, session: AsyncSession, batch: list[_DirectOrders]
    ) -> list[tuple[_DirectOrders, SubmissionReport, bool]]:
        """Each message of ``batch`` in a savepoint of its own: a refused one is answered with its
        error and leaves the others written."""
        done: list[tuple[_DirectOrders, SubmissionReport, bool]] = []
        for item in batch:
            pending = set(session.info.get(PENDING, ()))
            session.info.pop(RETURNED, None)
            try:
                async with session.begin_nested():
                    own_orders(session, item.game_id, item.user_id)
                    await mark_read(session, item.user_id, item.message_id)
                    report = await orders.submit_orders(session, item.game_id, item.user_id, item.text)
                    await session.flush()  # all of it written in its own savepoint
            except Exception as exc:
                # the savepoint's rollback forgot what the batch had changed before it, and
                # expired what the session holds: the next message reads afresh
                session.info.setdefault(PENDING, set()).update(pending)
                session.info.pop(RETURNED, None)
                session.info.pop(GAMES_READ, None)  # what it read is expired now
                session.expunge_all()
                item.answer.set_exception(exc)
                continue
            finally:
                session.info.pop(OWN, None)
            done.append((item, report, bool(session.info.pop(RETURNED, False))))
        return done

    async def replace_orders(
        self, game_id: int, user_id: int, text: str, *, meant_for: MeantFor[str] = ANY_PHASE
    ) -> SubmissionReport:
        """``text`` is the whole sheet (the orders form of ``meant_for``'s phase): it replaces every
        earlier order."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)
        report = await self._write_own_orders(
            game_id,
            user_id,
            lambda session: sheet.replace_orders(session, game_id, user_id, text, meant_for=meant_for),
        )
        kept = self._current.after_submission(report)
        await self._after_order_change(ticket, report.view, kept=kept, held=held, state=report.state)
        return report

    async def clear_orders(
        self, game_id: int, user_id: int, *, meant_for: MeantFor[str] = ANY_PHASE
    ) -> OrdersView:
        ticket = self._current.ticket(game_id, user_id)
        async with self._sessions.begin() as session:
            own_orders(session, game_id, user_id)
            view = await orders.clear_orders(session, game_id, user_id, meant_for=meant_for)
        await self._after_order_change(ticket, view, kept=view)  # a clear: no refused lines left to show
        return view

    async def set_ready(
        self, game_id: int, user_id: int, *, ready: bool = True, message_id: int | None = None
    ) -> OrdersView:
        """``message_id``: as for :meth:`submit_orders` (a "ready" sent by direct message)."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)
        view = await self._write_own_orders(
            game_id,
            user_id,
            lambda session: orders.set_ready(session, game_id, user_id, ready=ready),
            message_id=message_id,
        )
        # the refused lines shown stay the last submission's: the view is read again
        await self._after_order_change(ticket, view, kept=None, held=held, same_orders=True)
        return view

    async def propose(
        self, game_id: int, user_id: int, kind: str, *, to: str | None = None, power: str | None = None
    ) -> VoteReport:
        async with self._sessions.begin() as session:
            report = await votes.propose(session, game_id, user_id, kind, to=to, power=power)
        self._runtime.follow_up(report.follow_ups, f"a proposal in game {game_id}")
        return report

    async def cast_vote(
        self,
        game_id: int,
        user_id: int,
        *,
        kind: str,
        to: str | None,
        yes: bool,
        power: str | None = None,
    ) -> VoteReport:
        async with self._sessions.begin() as session:
            report = await votes.cast_vote(session, game_id, user_id, kind=kind, to=to, yes=yes, power=power)
        self._runtime.follow_up(report.follow_ups, f"a vote in game {game_id}")
        return report


class _Refused(Exception):
    """A message written alone was refused: its transaction rolls back (raised from the refusal)."""


@dataclass(slots=True)
class _DirectOrders:
    """A direct message's orders waiting for their batch's transaction."""

    game_id: int
    user_id: int
    text: str
    message_id: int
    answer: asyncio.Future[SubmissionReport] = field(init=False)

    def __post_init__(self) -> None:
        self.answer = asyncio.get_running_loop().create_future()


class _DirectBatches:
    """Direct messages' orders written together (SQLite). In a burst (everybody at the deadline) each
    write waited a turn of the event loop for the writer lock, a turn being a round of everything
    the bot was doing: ninety direct messages waited ninety rounds. A message that finds no batch
    under way writes itself, with the others that wait by the time it holds the writer lock (as an
    urgent writer, db.sqlite.urgent_writes): one message alone is written as before, in its own
    task; those that come meanwhile wait, and a task writes them next, ten at a time."""

    def __init__(self, cases: PlayingCases) -> None:
        self._cases = cases
        self._waiting: list[_DirectOrders] = []
        self._busy = False  # a batch is under way: a message that comes waits for the next
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: _DirectOrders) -> SubmissionReport:
        self._waiting.append(item)
        if self._busy:
            step_aside()  # the batch's writer works for it: its slot goes to the next message meanwhile
            return await asyncio.shield(item.answer)
        self._busy = True
        try:
            with urgent_writes():
                alone = len(self._waiting) == 1 and self._cases._current.held_game(item.game_id) is not None
                await self._cases._write_direct_batch(self._take, alone=alone)
        except Exception:
            pass  # every message of the batch has its error (its answer), this one's included
        finally:
            if self._waiting:  # came meanwhile: the next batches, in a task (this reply goes now)
                with urgent_writes():
                    self._writer = asyncio.create_task(self._write(), name="direct messages' orders")
            else:
                self._busy = False
        return await asyncio.shield(item.answer)

    def _take(self) -> list[_DirectOrders]:
        batch, self._waiting = self._waiting[:DIRECT_BATCH], self._waiting[DIRECT_BATCH:]
        return batch

    async def _write(self) -> None:
        try:
            while self._waiting:
                try:
                    await self._cases._write_direct_batch(self._take)
                except Exception:
                    log.exception("a batch of direct messages' orders could not be written")
        finally:
            self._busy = False
