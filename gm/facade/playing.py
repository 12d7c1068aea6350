"""What players do during a game: send, replace and clear orders, say they are ready, propose and vote
on a draw or a concession. Each may let the phase close early, or end the game, which follows in the
background."""

from __future__ import annotations

from contextlib import nullcontext

from gm.endings import votes
from gm.endings.votes import VoteReport
from gm.facade.core import GamemasterCore
from gm.lanes import urgent_writes
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering import submission as orders
from gm.ordering import whole_sheet as sheet
from gm.ordering.current import own_orders
from gm.ordering.offline import mark_read
from gm.ordering.submission import OrdersView, SubmissionReport


class PlayingCases(GamemasterCore):
    async def submit_orders(
        self, game_id: int, user_id: int, text: str, *, message_id: int | None = None
    ) -> SubmissionReport:
        """Judge ``text`` line by line; the accepted lines add to or replace orders unit by unit.
        ``message_id``: the direct message they came in, marked handled in the same transaction
        (:class:`gm.ordering.offline.AlreadyRead` when it was already: nothing is recorded)."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)  # a DM sheet's redraw takes the menu from the change
        # a direct message's reply is all its player sees: its write goes before the others waiting
        with urgent_writes() if message_id is not None else nullcontext():
            async with self._sessions.begin() as session:
                own_orders(session, game_id, user_id)
                if message_id is not None:
                    await mark_read(session, user_id, message_id)
                report = await orders.submit_orders(session, game_id, user_id, text)
        self._send_if_returned(session, game_id)
        kept = self._current.after_submission(report)
        await self._after_order_change(ticket, report.view, kept=kept, held=held, state=report.state)
        return report

    async def replace_orders(
        self, game_id: int, user_id: int, text: str, *, meant_for: MeantFor[str] = ANY_PHASE
    ) -> SubmissionReport:
        """``text`` is the whole sheet (the orders form of ``meant_for``'s phase): it replaces every
        earlier order."""
        ticket = self._current.ticket(game_id, user_id)
        held = self._current.menu(game_id, user_id)
        async with self._sessions.begin() as session:
            own_orders(session, game_id, user_id)
            report = await sheet.replace_orders(session, game_id, user_id, text, meant_for=meant_for)
        self._send_if_returned(session, game_id)
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
        with urgent_writes() if message_id is not None else nullcontext():
            async with self._sessions.begin() as session:
                own_orders(session, game_id, user_id)
                if message_id is not None:
                    await mark_read(session, user_id, message_id)
                view = await orders.set_ready(session, game_id, user_id, ready=ready)
        self._send_if_returned(session, game_id)
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
