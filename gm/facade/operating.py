"""What the bot's operators and its own catch-up need: the figures of ``/admin status`` and the
metrics, and orders that came by direct message while the bot was offline."""

from __future__ import annotations

from datetime import datetime

from gm.facade.core import GamemasterCore
from gm.ordering.offline import submit_sent_while_offline
from gm.ordering.submission import SubmissionReport
from gm.reports.operations import OperationsStatus, operations_status


class OperatingCases(GamemasterCore):
    async def operations_status(self) -> OperationsStatus:
        """Games by state, the outbox's depth and age, the last close and delivery error."""
        async with self._sessions.read() as session:
            status = await operations_status(session, self._ownership)
        return status

    async def submit_missed_orders(
        self, game_id: int, user_id: int, text: str, *, sent_at: datetime
    ) -> SubmissionReport:
        """Orders sent at ``sent_at`` while the bot was offline: recorded if their phase still takes
        orders (gm.ordering.offline), else :class:`gm.ordering.offline.PhaseMovedOn`."""
        async with self._sessions.begin() as session:
            report = await submit_sent_while_offline(session, game_id, user_id, text, sent_at=sent_at)
        if report.view.close_now:  # the last orders awaited: close now, as for any submission
            self._runtime.spawn(
                self._runtime.orders_changed(report.view), f"early close of phase {report.view.phase.id}"
            )
        return report
