"""What a use case asks the running Gamemaster to do after its transaction committed: reschedule
deadline jobs, close a phase, publish a final post. The use cases stay free of the scheduler and the
worker pool; the facade hands ``result.follow_ups`` to :meth:`gm.facade.runtime.Runtime.apply`."""

from __future__ import annotations

from dataclasses import dataclass

from gm.reading.info import PhaseInfo


@dataclass(frozen=True, slots=True)
class FollowUps:
    game_id: int
    schedule: tuple[PhaseInfo, ...] = ()  # (re)place these phases' deadline and reminder jobs
    unschedule: tuple[str, ...] = ()  # phase names whose jobs must go (a deleted or paused phase)
    close_phase: int | None = None  # close this phase now (a moderator's "close now")
    close_reason: str = "moderator"
    check_early_close: int | None = None  # this open phase may close early now (someone left, ...)
    game_ended: bool = False  # make the final post's pictures (gm.endings.final_post)
    deliver: bool = True  # messages were queued: send them
