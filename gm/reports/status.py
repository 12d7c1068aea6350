"""/game status: where a game stands, as public data.

Shown to anyone in the server, so it holds nothing private: for each power only whether it is done
(said ready; or, in a retreat or adjustment phase, has ordered all it must), never what it ordered;
open votes by kind only (no counts: with unanimity, a count would reveal votes). The moderation log
lists the moderators' actions the game channel announced, with who and when (gm.reading.public_log:
a declined request to take a seat, told to its author alone, is not among them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import GameLogEntry, GameStatus, PhaseRecord, PhaseStatus, PlayerStatus
from engine.variants import get_variant
from gm.builtin.seats import LABEL as BUILT_IN_LABEL
from gm.builtin.seats import built_in_powers
from gm.endings.votes import ProposalInfo, open_proposals
from gm.messages import payloads as say
from gm.moderation.shared import MOD_PREFIX
from gm.ordering.progress import PhaseState, phase_state
from gm.reading.fog import fog_on
from gm.reading.info import GameInfo, PhaseInfo, game_info
from gm.reading.lookup import ENDED_STATES, latest_phase, load_game
from gm.reading.public_log import PUBLIC
from gm.settings import FOG_COUNTS, GameSettings

GONE = (PlayerStatus.LEFT, PlayerStatus.REPLACED)
BUILT_IN = "built_in"
ANNOUNCED_MOD_ACTIONS = sorted(a for a in PUBLIC if a.startswith(MOD_PREFIX))


@dataclass(frozen=True, slots=True)
class PowerStatus:
    power: str
    user_id: int | None  # who plays it now (None: nobody, or the player left)
    state: str  # playing, civil_disorder, left, eliminated, neutral, built_in (the built-in player plays
    # it: ready whenever it has something to order); once the game is over: survived, eliminated or
    # neutral (the final standing, not who was absent when it ended)
    centers: int | None  # None: hidden by the fog of war (setting ``silent``)
    units: int | None  # None: hidden by the fog of war
    must_act: bool  # has something to order in this phase
    ready: bool  # said /ready
    done: bool  # ready, or (retreats, adjustments) everything it must order is in
    # How far its orders are, never what they are: "none" (nothing sent), "some" (some units still
    # without an order), "all" (every unit ordered); "" when it has nothing to order
    orders: str = ""


@dataclass(frozen=True, slots=True)
class LogLine:
    at: datetime
    actor_id: int | None
    action: str  # extend, pause, resume, close, replace, civil_disorder, rollback, end
    text: str


@dataclass(frozen=True, slots=True)
class GameStatusView:
    game: GameInfo
    variant_title: str
    phase: PhaseInfo | None
    paused: bool
    remaining_seconds: int | None  # time left in a paused phase
    powers: tuple[PowerStatus, ...]
    votes: tuple[ProposalInfo, ...]  # open proposals (kind and beneficiary only)
    moderation: tuple[LogLine, ...]  # newest last
    result: dict[str, Any] | None


def _order_state(state: PhaseState, power: str) -> str:
    if not state.orders.get(power):
        return "none"
    return "some" if state.missing(power) else "all"


async def game_status(session: AsyncSession, game_id: int, *, log_limit: int = 25) -> GameStatusView:
    game = await load_game(session, game_id)
    info = await game_info(session, game)
    phase = await latest_phase(session, game.row_id)
    powers: list[PowerStatus] = []
    over = game.status in ENDED_STATES
    # Under the fog of war, while the game runs: no unit counts; the center counts only where the game
    # channel gives them (setting ``counts``: centers change hands at the fall, when it gives them)
    fogged = fog_on(game)
    hide_centers = fogged and GameSettings.from_json(game.settings).fog != FOG_COUNTS
    if phase is not None:
        state = await phase_state(session, phase, game.variant)
        robot = await built_in_powers(session, game)
        board = _position(phase)
        for power in state.board.game_map.powers:
            duty = state.duties[power]
            player = state.player_of.get(power)
            must_act = duty.has_work and state.active(power) and phase.status == PhaseStatus.OPEN and not over
            ready = power in state.ready
            done = ready or (must_act and state.board.phase.kind != "M" and not state.missing(power))
            standing = _state(player.status if player else None, board, power, over=over)
            if power in robot and standing not in ("eliminated", "survived"):
                standing = BUILT_IN  # it orders at the close: always ready
                ready = done = duty.has_work and phase.status == PhaseStatus.OPEN and not over
            powers.append(
                PowerStatus(
                    power=power,
                    user_id=player.user_id if player is not None and player.status not in GONE else None,
                    state=standing,
                    centers=None if hide_centers else len(board.get("centers", {}).get(power, ())),
                    units=None if fogged else len(board.get("units", {}).get(power, ())),
                    must_act=must_act,
                    ready=ready,
                    done=done,
                    orders=_order_state(state, power) if must_act else "",
                )
            )
    log = (
        await session.exec(
            select(GameLogEntry)
            .where(GameLogEntry.game_id == game.id, col(GameLogEntry.action).in_(ANNOUNCED_MOD_ACTIONS))
            .order_by(col(GameLogEntry.id).desc())
            .limit(log_limit)
        )
    ).all()
    votes = await open_proposals(session, game_id) if game.status == GameStatus.ACTIVE else []
    return GameStatusView(
        game=info,
        variant_title=get_variant(game.variant).title,
        phase=PhaseInfo.of(phase) if phase is not None else None,
        paused=game.status == GameStatus.PAUSED,
        remaining_seconds=phase.remaining_seconds if phase is not None and phase.deadline is None else None,
        powers=tuple(powers),
        votes=tuple(votes),
        moderation=tuple(_line(entry) for entry in reversed(log)),
        result=game.result,
    )


def _position(phase: PhaseRecord) -> dict[str, Any]:
    """The board now: the last phase's opening position, or the final one when the game ended as
    that phase closed (a solo, the short game's last year)."""
    after = (phase.results or {}).get("board_after") if phase.status == PhaseStatus.CLOSED else None
    return after if after is not None else phase.board


def _state(status: str | None, board: dict[str, Any], power: str, *, over: bool = False) -> str:
    if not board.get("units", {}).get(power) and not board.get("centers", {}).get(power):
        return "eliminated"
    if status is None:
        return "neutral"
    if over:  # the final standing: a close that ended the game may have put absent players in civil
        return "survived"  # disorder without announcing it (there is no next phase to play)
    words: dict[str, str] = {
        PlayerStatus.ACTIVE: "playing",
        PlayerStatus.CIVIL_DISORDER: "civil_disorder",
        PlayerStatus.LEFT: "left",
        PlayerStatus.REPLACED: "left",
        PlayerStatus.ELIMINATED: "eliminated",
    }
    return words.get(status, str(status))


def _previous(detail: dict[str, Any]) -> str:
    """Who a seat was taken from: its player, or the built-in player (a seat nobody held)."""
    old = detail.get("old_user_id")
    return f"[[user:{old}]]" if old is not None else f"the {BUILT_IN_LABEL}"


def _line(entry: GameLogEntry) -> LogLine:
    action = entry.action.removeprefix(MOD_PREFIX)
    d = entry.detail or {}
    phase = say.long_name(d["phase"]) if d.get("phase") else "the game"
    texts = {
        "extend": lambda: f"extended {phase} by {say.duration(int(d.get('minutes') or 0))}",
        "pause": lambda: f"paused the game in {phase}",
        "resume": lambda: f"resumed the game in {phase}",
        "close": lambda: f"closed {phase} early",
        "replace": lambda: (
            f"took over {say.powers_text(d.get('powers', []))} (replacing {_previous(d)})"
            if d.get("how") == "take_over"
            else f"gave {say.powers_text(d.get('powers', []))} to [[user:{d.get('new_user_id')}]] "
            f"(replacing {_previous(d)})"
        ),
        "builtin": lambda: (
            f"gave {say.powers_text(d.get('powers', []))} to the {BUILT_IN_LABEL}"
            if d.get("on")
            else f"took {say.powers_text(d.get('powers', []))} from the {BUILT_IN_LABEL}"
        ),
        "civil_disorder": lambda: (
            f"put {say.powers_text(d.get('powers', []))} "
            + ("in civil disorder" if d.get("on") else "out of civil disorder")
        ),
        "rollback": lambda: f"rolled the game back to {phase}",
        "end": lambda: "ended the game" + (f": {d['reason']}" if d.get("reason") else ""),
    }
    make = texts.get(action)
    return LogLine(entry.at, entry.actor_id, action, make() if make else action)
