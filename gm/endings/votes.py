"""Draws and concessions by vote (/draw propose, /draw vote).

- A proposal is a draw, or a concession to one named power, put to the vote in the current phase.
  Whoever proposes votes yes for their powers; the game channel is told that a vote is open, not by whom.
- The electorate: the *surviving* powers (units or centers on the board) held by an *active* player.
  Absent players do not vote, whether they left the game or are in civil disorder: otherwise one
  absent player would block every draw. Powers held by nobody (neutral) do not vote either; eliminated
  powers are refused. A player with several powers votes for each (all of them, or the one named).
  A player in civil disorder who votes is back (they are clearly there): they come out of civil
  disorder first, and vote.
- A draw is shared by *every* surviving power, voters or not: the rulebook's draw includes all the
  survivors (a power in civil disorder, or whose player left, still holds its units and centers). A
  concession names a power with an active player; the others concede to it.
- Votes are secret: nobody learns who voted what, ever; each voter sees only their own votes. A later
  vote replaces the earlier one.
- The proposal passes the moment every voter has said yes (checked when a vote is cast, against the
  electorate at that moment): the game ends in a draw or with the named power winning (gm.endings.ending).
  Otherwise it lapses when the phase closes (the board changed: votes start afresh), and the channel
  is told it did not pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    Game,
    PhaseRecord,
    PhaseStatus,
    Player,
    PlayerStatus,
    PowerAssignment,
    Proposal,
    ProposalStatus,
    Vote,
)
from engine.variants import game_map, read_power
from gm.builtin.talks import played_by_it_while_absent, taken_back, tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.endings import ending
from gm.errors import NoOpenVote, NotAVoter, OrdersClosed, PhaseBusy, VoteAlreadyOpen
from gm.follow_ups import FollowUps
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import VoteOpened, VoteResult
from gm.ordering.returning import announce_return
from gm.reading.lookup import latest_phase, load_game, load_player, powers_of, require_started
from gm.settings import deadline_zone

DRAW = "draw"
CONCEDE = "concede"
KINDS = (DRAW, CONCEDE)
VOTERS = (PlayerStatus.ACTIVE,)  # absent players (civil disorder, left) do not vote


@dataclass(frozen=True, slots=True)
class ProposalInfo:
    id: int
    kind: str  # draw / concede
    beneficiary: str | None  # the power conceded to
    phase: str
    status: str  # open / passed / lapsed
    opened_at: datetime

    @property
    def title(self) -> str:
        return "a draw" if self.kind == DRAW else f"a concession to {say.power_name(self.beneficiary or '')}"

    @classmethod
    def of(cls, proposal: Proposal, phase_name: str) -> ProposalInfo:
        return cls(
            id=proposal.row_id,
            kind=proposal.kind,
            beneficiary=proposal.beneficiary or None,
            phase=phase_name,
            status=str(proposal.status),
            opened_at=proposal.opened_at,
        )


@dataclass(frozen=True, slots=True)
class VoteReport:
    """The answer to a proposal or a vote: the caller's own votes only, and whether it passed."""

    game_id: int
    proposal: ProposalInfo
    my_votes: dict[str, str]  # the caller's powers -> yes / no
    passed: bool
    result: dict | None  # the game's result when the vote ended it
    follow_ups: FollowUps


async def propose(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    kind: str,
    *,
    to: str | None = None,
    power: str | None = None,
    now: datetime | None = None,
) -> VoteReport:
    """Open a vote on a draw (``kind`` "draw") or a concession to ``to`` ("concede"); the caller votes yes."""
    now = require_aware(now or utcnow())
    game, phase, player, mine, voters = await _ballot_box(session, game_id, user_id, power, now)
    kind, beneficiary = _kind(kind, to, voters, phase)
    await _refuse_a_second(session, game, phase, kind, beneficiary)
    proposal = Proposal(
        game_id=game.row_id,
        phase_id=phase.row_id,
        kind=kind,
        beneficiary=beneficiary,
        opened_at=now,
    )
    session.add(proposal)
    await session.flush()
    info = ProposalInfo.of(proposal, phase.name)
    log_event(
        session,
        game.row_id,
        "vote_opened",
        at=now,
        actor_id=None,  # who proposed is as secret as their vote
        detail={"kind": kind, "beneficiary": beneficiary or None, "phase": phase.name},
    )
    enqueue(
        session,
        VoteOpened(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{game.name}: {info.title} is proposed",
            lines=[
                "The surviving powers with a player present vote in secret with [[cmd:draw vote]] "
                f"({say.powers_text(sorted(voters))}).",
                "It passes only if all of them say yes before this phase closes; "
                "nobody is told who voted what."
                + (" A draw is shared by every surviving power." if kind == DRAW else ""),
            ],
            phase=phase.name,
            deadline=phase.deadline,
            deadline_zone=deadline_zone(game),
            proposal={"id": info.id, "kind": kind, "beneficiary": info.beneficiary},
            voters=sorted(voters),
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=f"vote_opened:{proposal.id}",
        now=now,
    )
    return await _cast(session, game, phase, player, proposal, info, mine, voters, True, user_id, now)


async def _refuse_a_second(
    session: AsyncSession, game: Game, phase: PhaseRecord, kind: str, beneficiary: str
) -> None:
    """Refused when the same proposal is open in the phase already."""
    existing = (
        await session.exec(
            select(Proposal).where(
                Proposal.phase_id == phase.id, Proposal.kind == kind, Proposal.beneficiary == beneficiary
            )
        )
    ).first()
    if existing is not None:
        info = ProposalInfo.of(existing, phase.name)
        raise VoteAlreadyOpen(
            f"{info.title[0].upper()}{info.title[1:]} is already proposed in {game.name} this phase.",
            "Vote on it with [[cmd:draw vote]]; it passes if every voting power says yes.",
        )


async def cast_vote(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    kind: str = DRAW,
    to: str | None = None,
    yes: bool,
    power: str | None = None,
    now: datetime | None = None,
) -> VoteReport:
    """Vote yes or no on the open draw (or concession to ``to``) for the caller's surviving powers."""
    now = require_aware(now or utcnow())
    game, phase, player, mine, voters = await _ballot_box(session, game_id, user_id, power, now)
    kind, beneficiary = _kind(kind, to, voters, phase, checking=False)
    proposal = (
        await session.exec(
            select(Proposal).where(
                Proposal.phase_id == phase.id,
                Proposal.kind == kind,
                Proposal.beneficiary == beneficiary,
                Proposal.status == ProposalStatus.OPEN,
            )
        )
    ).first()
    if proposal is None:
        what = "a draw" if kind == DRAW else f"a concession to {say.power_name(beneficiary)}"
        raise NoOpenVote(
            f"Nobody has proposed {what} in {game.name} this phase.",
            "Propose it with [[cmd:draw propose]]; votes start afresh every phase.",
        )
    info = ProposalInfo.of(proposal, phase.name)
    return await _cast(session, game, phase, player, proposal, info, mine, voters, yes, user_id, now)


async def open_proposals(session: AsyncSession, game_id: int) -> list[ProposalInfo]:
    """The proposals open in the current phase (no counts: they would reveal votes)."""
    game = await load_game(session, game_id)
    phase = await latest_phase(session, game.row_id)
    if phase is None:
        return []
    rows = (
        await session.exec(
            select(Proposal)
            .where(Proposal.phase_id == phase.id, Proposal.status == ProposalStatus.OPEN)
            .order_by(col(Proposal.id))
        )
    ).all()
    return [ProposalInfo.of(p, phase.name) for p in rows]


async def my_votes(session: AsyncSession, game_id: int, user_id: int) -> dict[int, dict[str, str]]:
    """proposal id -> the caller's powers -> yes / no, for the open proposals of the current phase."""
    game = await load_game(session, game_id)
    player = await load_player(session, game, user_id)
    powers = await powers_of(session, game.row_id, player.row_id)
    phase = await latest_phase(session, game.row_id)
    out: dict[int, dict[str, str]] = {}
    if phase is not None and powers:
        rows = (
            await session.exec(
                select(Vote)
                .join(Proposal, col(Proposal.id) == col(Vote.proposal_id))
                .where(Proposal.phase_id == phase.id, col(Vote.power).in_(powers))
            )
        ).all()
        for vote in rows:
            out.setdefault(vote.proposal_id, {})[vote.power] = vote.choice
    return out


async def lapse_open_proposals(session: AsyncSession, game: Game, phase: PhaseRecord, now: datetime) -> int:
    """At a close: the phase's open proposals did not pass; say so. Returns how many lapsed."""
    rows = (
        await session.exec(
            select(Proposal).where(Proposal.phase_id == phase.id, Proposal.status == ProposalStatus.OPEN)
        )
    ).all()
    for proposal in rows:
        proposal.status = ProposalStatus.LAPSED
        proposal.decided_at = now
        info = ProposalInfo.of(proposal, phase.name)
        enqueue(
            session,
            VoteResult(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: {info.title} did not pass",
                lines=["The phase closed before every voting power agreed; votes start afresh."],
                phase=phase.name,
                proposal={"id": info.id, "kind": info.kind, "beneficiary": info.beneficiary},
                passed=False,
            ),
            phase_id=phase.id,
            target=Target.game_channel(),
            key=f"vote_result:{proposal.id}",
            now=now,
        )
    return len(rows)


async def electorate(session: AsyncSession, game: Game, board: dict) -> dict[str, Player]:
    """Surviving powers held by an active player -> that player (see the module docstring)."""
    alive = set(ending.survivors(board, game_map(game.variant).powers))
    rows = (
        await session.exec(
            select(PowerAssignment, Player)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id))
            .where(PowerAssignment.game_id == game.id)
        )
    ).all()
    return {a.power: p for a, p in rows if a.power in alive and p.status in VOTERS}


# --- helpers ------------------------------------------------------------------------------------


async def _ballot_box(
    session: AsyncSession, game_id: int, user_id: int, power: str | None, now: datetime
) -> tuple[Game, PhaseRecord, Player, list[str], dict[str, Player]]:
    """The game, its open phase (locked), the caller, the caller's voting powers, and every voter."""
    game = await load_game(session, game_id, for_update=True)
    require_started(game)
    player = await load_player(session, game, user_id)
    held = await powers_of(session, game.row_id, player.row_id)
    seat = list(held)  # every power of the player, whichever one votes
    phase = await latest_phase(session, game.row_id, for_update=True)
    if phase is None:
        raise OrdersClosed(f"{game.name} has no phase open.")
    if phase.status != PhaseStatus.OPEN:
        raise PhaseBusy(
            f"{game.name} is being adjudicated right now; nothing was recorded.",
            "Vote again when the next phase opens: votes start afresh every phase.",
        )
    if power is not None:
        wanted = read_power(game.variant, power)
        if wanted not in held:
            raise NotAVoter(
                f"You do not play {say.power_name(wanted)} in {game.name}.",
                f"You play {say.powers_text(held) or 'no power'}.",
            )
        held = [wanted]
    alive = set(ending.survivors(phase.board, game_map(game.variant).powers))
    if player.status == PlayerStatus.CIVIL_DISORDER and alive & set(held):
        if await played_by_it_while_absent(session, game, seat):  # its private talks learn it
            await tell_seat_talks(
                session,
                game,
                seat,
                taken_back(seat, user_id, returning=True),
                user_id=user_id,
                key=f"returned:{game.id}:{user_id}:{now.isoformat()}:talks",
                now=now,
            )
        player.status = PlayerStatus.ACTIVE  # voting is playing: back from civil disorder, then a voter
        log_event(session, game.row_id, "returned", at=now, actor_id=user_id, detail={"powers": held})
        announce_return(session, game, user_id, seat, now)
        await session.flush()
    voters = await electorate(session, game, phase.board)
    mine = [p for p in held if p in voters]
    if not mine:
        gone = say.powers_text(held) or "You hold no power, and"
        raise NotAVoter(
            f"{gone} {'has' if len(held) == 1 else 'have'} been eliminated from {game.name}; "
            "eliminated powers do not vote. Nothing was recorded.",
            "Only powers that still have units or supply centers vote on draws and concessions.",
        )
    return game, phase, player, mine, voters


def _kind(
    kind: str, to: str | None, voters: dict[str, Player], phase: PhaseRecord, *, checking: bool = True
) -> tuple[str, str]:
    wanted = kind.strip().lower()
    if wanted in ("concession", "concede"):
        wanted = CONCEDE
    if wanted not in KINDS:
        raise NoOpenVote(
            f"There is no vote called {kind!r}.", "Vote on a draw, or on a concession to a power."
        )
    if wanted == DRAW:
        return DRAW, ""
    if not to or not to.strip():
        raise NoOpenVote("A concession needs the power it goes to.", "Name the power, e.g. France.")
    beneficiary = read_power(str(phase.board.get("variant") or "standard"), to)
    if checking and beneficiary not in voters:
        raise NotAVoter(
            f"{say.power_name(beneficiary)} cannot be conceded to: "
            "it is not a surviving power with a player present.",
            f"The surviving powers with players present are {say.powers_text(sorted(voters))}.",
        )
    return CONCEDE, beneficiary


async def _cast(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    player: Player,
    proposal: Proposal,
    info: ProposalInfo,
    mine: list[str],
    voters: dict[str, Player],
    yes: bool,
    user_id: int,
    now: datetime,
) -> VoteReport:
    choice = "yes" if yes else "no"
    existing = {
        v.power: v for v in (await session.exec(select(Vote).where(Vote.proposal_id == proposal.id))).all()
    }
    for power in mine:
        vote = existing.get(power)
        if vote is None:
            vote = Vote(proposal_id=proposal.row_id, power=power, choice=choice, cast_by=user_id, cast_at=now)
            session.add(vote)
            existing[power] = vote
        else:
            vote.choice, vote.cast_by, vote.cast_at = choice, user_id, now
    passed = all(existing.get(p) is not None and existing[p].choice == "yes" for p in voters)
    result = None
    if passed:
        proposal.status = ProposalStatus.PASSED
        proposal.decided_at = now
        powers = game_map(game.variant).powers
        if proposal.kind == DRAW:
            result = ending.make_result(  # shared by every survivor, voter or not
                "draw",
                phase.board,
                powers,
                phase_name=phase.name,
                shared=ending.survivors(phase.board, powers),
            )
        else:
            result = ending.make_result(
                "concession", phase.board, powers, phase_name=phase.name, winner=proposal.beneficiary
            )
        await session.flush()
        await ending.finish_game(
            session, game, phase, result, now=now, final_map=ending.final_map_of(phase, at_close=False)
        )
    game_id = game.row_id
    return VoteReport(
        game_id=game_id,
        proposal=ProposalInfo.of(proposal, phase.name) if passed else info,
        my_votes={p: existing[p].choice for p in mine},
        passed=passed,
        result=result,
        follow_ups=FollowUps(
            game_id,
            unschedule=(phase.name,) if passed else (),
            game_ended=passed,
        ),
    )
