"""What the bot's operators and its own catch-up need: the figures of ``/admin status`` and the
metrics, and orders that came by direct message while the bot was offline."""

from __future__ import annotations

from datetime import datetime

from gm.facade.core import GamemasterCore
from gm.ordering.offline import AlreadyRead, DirectReads, direct_reads, mark_read, submit_sent_while_offline
from gm.ordering.submission import SubmissionReport
from gm.reports.operations import OperationsStatus, OutboxBacklog, operations_status, outbox_backlog


class OperatingCases(GamemasterCore):
    async def operations_status(self) -> OperationsStatus:
        """Games by state, the outbox's depth and age, the last close and delivery error."""
        async with self._sessions.read() as session:
            status = await operations_status(session, self._ownership)
        return status

    async def outbox_backlog(self) -> OutboxBacklog:
        """The outbox's depth and age alone (what /healthz checks each time it is read)."""
        async with self._sessions.read() as session:
            return await outbox_backlog(session, self._ownership)

    def owns_direct_messages(self) -> bool:
        """This process receives the direct messages (it runs shard 0, or every shard)."""
        return self._ownership.owns_direct_messages

    async def direct_reads(self, user_ids: list[int]) -> DirectReads:
        """The latest direct message of each of ``user_ids`` the bot handled (gm.ordering.offline)."""
        async with self._sessions.read() as session:
            return await direct_reads(session, user_ids)

    async def mark_direct_message_read(self, user_id: int, message_id: int) -> bool:
        """Record a direct message as handled (answered without a use case that marks it); False when
        it, or a later one, was handled already."""
        try:
            async with self._sessions.begin() as session:
                await mark_read(session, user_id, message_id)
        except AlreadyRead:
            return False
        return True

    async def submit_missed_orders(
        self, game_id: int, user_id: int, text: str, *, sent_at: datetime, message_id: int | None = None
    ) -> SubmissionReport:
        """Orders sent at ``sent_at`` while the bot was offline: recorded if their phase still takes
        orders (gm.ordering.offline), else :class:`gm.ordering.offline.PhaseMovedOn`. ``message_id``:
        the direct message they came in, marked handled with them
        (:class:`gm.ordering.offline.AlreadyRead` if it was already: nothing is recorded)."""
        ticket = self._current.ticket(game_id, user_id)
        async with self._sessions.begin() as session:
            report = await submit_sent_while_offline(
                session, game_id, user_id, text, sent_at=sent_at, message_id=message_id
            )
        await self._after_order_change(ticket, report.view, kept=None)  # as for any submission
        return report
