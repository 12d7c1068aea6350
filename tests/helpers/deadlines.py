"""Moving a phase's deadline in the database, for the scheduler's tests."""

from __future__ import annotations

from datetime import datetime

from db.database import SessionFactory
from db.models import PhaseRecord


async def set_deadline(sessions: SessionFactory, phase_id: int, deadline: datetime) -> None:
    async with sessions() as s:
        phase = await s.get(PhaseRecord, phase_id)
        assert phase is not None
        phase.deadline = deadline
        await s.commit()
