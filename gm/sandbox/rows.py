"""Reading a sandbox's rows for its owner: the checks every sandbox use case starts with (it exists,
it is the one a sheet was made for, it is the caller's), its steps, and its plain-data summary."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Sandbox, SandboxPhase
from gm.errors import OrdersClosed
from gm.meant_for import ANY_PHASE, MeantFor
from gm.messages import words as say
from gm.reading.lookup import MAX_ID
from gm.sandbox.model import SandboxInfo, UnknownSandbox


def unknown(sandbox_id: int) -> UnknownSandbox:
    """The one answer for a sandbox that does not exist and for someone else's: sandbox numbers are
    guessable, and two answers would tell when others make sandboxes."""
    return UnknownSandbox(
        f"You have no sandbox #{str(sandbox_id)[:20]}: it may have been deleted (a sandbox goes 30 days "
        "after its last use, or when you delete it or leave its server), or be someone else's. "
        "Nothing was changed.",
        "Your sandboxes: [[cmd:sandbox list]]; a new one: [[cmd:sandbox new]].",
    )


async def load_sandbox(
    session: AsyncSession,
    sandbox_id: int,
    owner_id: int,
    *,
    meant_for: MeantFor[int] = ANY_PHASE,
    for_update: bool = False,
) -> Sandbox:
    """The sandbox, if it is the caller's: refused, with one answer (:func:`unknown`), when there is
    none with this number (or its tag is not ``meant_for``'s: a sheet of another database's
    sandbox) and when it is someone else's. Its step is :func:`require_step`'s."""
    if not 0 < sandbox_id <= MAX_ID:
        raise unknown(sandbox_id)
    statement = select(Sandbox).where(Sandbox.id == sandbox_id)
    if for_update:
        statement = statement.with_for_update().execution_options(populate_existing=True)
    sandbox = (await session.exec(statement)).first()
    if sandbox is None or (meant_for.tag and sandbox.tag != meant_for.tag) or sandbox.owner_id != owner_id:
        raise unknown(sandbox_id)
    return sandbox


async def steps_of(session: AsyncSession, sandbox_id: int) -> list[SandboxPhase]:
    """Every step of the sandbox, oldest first."""
    rows = await session.exec(
        select(SandboxPhase).where(SandboxPhase.sandbox_id == sandbox_id).order_by(col(SandboxPhase.step))
    )
    return list(rows.all())


def current_step(steps: list[SandboxPhase]) -> SandboxPhase:
    """The step the sandbox is at: its open one (the last, without results), or the last one when
    that one's adjudication ended the game."""
    if not steps:
        raise RuntimeError("a sandbox without steps")
    return steps[-1]


def require_step(step: SandboxPhase, meant_for: MeantFor[int]) -> None:
    """Refuse a sheet made for another step than ``meant_for``'s (adjudicated, or stepped back from,
    since)."""
    if meant_for.phase is not None and step.id != meant_for.phase:
        raise OrdersClosed(
            "This sheet shows a step of the sandbox that has been adjudicated or stepped back from "
            f"since; the sandbox is now at {say.long_name(step.name)}. Nothing was changed.",
            "Open its sheet again with [[cmd:sandbox open]].",
        )


def info_of(sandbox: Sandbox, step: SandboxPhase) -> SandboxInfo:
    return SandboxInfo(
        id=sandbox.row_id,
        tag=sandbox.tag,
        owner_id=sandbox.owner_id,
        guild_id=sandbox.guild_id,
        variant=sandbox.variant,
        title=sandbox.title,
        source_game_id=sandbox.source_game_id,
        source_phase=sandbox.source_phase,
        created_at=sandbox.created_at,
        used_at=sandbox.used_at,
        phase=step.name,
        step=step.step,
    )
