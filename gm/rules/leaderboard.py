"""A server's memory: each player's record over its games (``/stats user:``) and the leaderboard
(``/stats``), from plain records of the games, computed in one pass.

Per user:

- *games*: the finished games they played in (held a seat at some point);
- *solos*, *draws*, *survivals*, *eliminations*: how those games ended for them, one each, by the best
  outcome of the powers they held at the end (gm.rules.scoring.outcome_of); a game they no longer
  held a seat in at its end (they left, or were replaced) counts as *left*;
- *average score*: their powers' scores summed per game (0 for a game they left), averaged over
  their games; one scoring system for every game, so that averages compare (by default the scores
  stored with each game, else draw-size);
- *reliability*: the share of the phases they owed orders in which they sent them in time, where a
  civil disorder or a seat lost to a replacement weighs as :data:`PENALTY_PHASES` missed phases
  (the others then play against a power that only holds, or wait for a replacement)::

      reliability = 100 x ordered / (ordered + missed + PENALTY_PHASES x (civil disorders + replaced))

  Games still running may be given (with no result) to count towards reliability only.

The built-in player is no user: its seats are in no one's record (gm.reports.stats leaves out the
powers it played at a game's end, and a player in civil disorder owes no orders while it plays for
them); each user's *with_built_in* counts their finished games in which it played.

The leaderboard ranks users by average score (ties share a rank), then shows more games first, then
more solos and draws; users with fewer than ``min_games`` games are left out of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gm.rules.scoring import (
    DEFAULT_SYSTEM,
    DRAW,
    ELIMINATED,
    OUTCOMES,
    SOLO,
    SURVIVED,
    FinalResult,
    outcome_of,
    score,
)

PENALTY_PHASES = 5
LEFT = "left"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One user's part in one game."""

    user_id: int
    powers: tuple[str, ...] = ()  # the powers they held at the end (none: they left or were replaced)
    ordered: int = 0  # phases in which they owed orders and sent them in time
    missed: int = 0  # phases in which they owed orders and sent none
    civil_disorders: int = 0  # times they fell into civil disorder
    replaced: int = 0  # times a seat of theirs was given to someone else


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as the leaderboard sees it. ``result`` None: still running (reliability only).
    ``scores``: per power, as the final post showed them; None: computed."""

    game_id: int
    result: FinalResult | None
    players: tuple[PlayerRecord, ...] = ()
    scores: Mapping[str, float] | None = None
    built_in: bool = False  # the built-in player played in it (its seats are in no one's record)


@dataclass(frozen=True, slots=True)
class UserStats:
    user_id: int
    games: int = 0
    solos: int = 0
    draws: int = 0
    survivals: int = 0
    eliminations: int = 0
    left: int = 0
    total_score: float = 0.0
    ordered: int = 0
    missed: int = 0
    civil_disorders: int = 0
    replaced: int = 0
    with_built_in: int = 0  # of ``games``, those in which the built-in player played

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def reliability(self) -> float | None:
        """Percent, or None before the user owed any orders."""
        return reliability(self.ordered, self.missed, self.civil_disorders, self.replaced)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # 1 for the best; users tied on average score share one
    stats: UserStats


@dataclass(slots=True)
class _Tally:
    games: set[int] = field(default_factory=set)
    outcomes: dict[str, int] = field(default_factory=dict)
    total_score: float = 0.0
    ordered: int = 0
    missed: int = 0
    civil_disorders: int = 0
    replaced: int = 0
    with_built_in: int = 0


def reliability(ordered: int, missed: int, civil_disorders: int, replaced: int) -> float | None:
    """The reliability percentage (see the module's text), or None with nothing to judge by."""
    owed = ordered + missed + PENALTY_PHASES * (civil_disorders + replaced)
    return 100 * ordered / owed if owed else None


def user_stats(records: Iterable[GameRecord], *, system: str | None = None) -> dict[int, UserStats]:
    """Every user's record over ``records``. ``system``: score every game with it (default: the
    scores stored with each game, draw-size where none is stored)."""
    tallies: dict[int, _Tally] = {}
    seen: set[int] = set()
    for record in records:
        if record.game_id in seen:  # a game given twice counts once
            continue
        seen.add(record.game_id)
        by_user: dict[int, list[PlayerRecord]] = {}
        for player in record.players:
            by_user.setdefault(player.user_id, []).append(player)
        scores = _scores(record, system)
        result = record.result
        outcomes = {p: outcome_of(result, p) for p in result.centers} if result is not None else {}
        for user_id, parts in by_user.items():
            tally = tallies.setdefault(user_id, _Tally())
            for part in parts:
                tally.ordered += part.ordered
                tally.missed += part.missed
                tally.civil_disorders += part.civil_disorders
                tally.replaced += part.replaced
            if result is None:
                continue
            tally.games.add(record.game_id)
            tally.with_built_in += record.built_in
            powers = {p for part in parts for p in part.powers}
            outcome = _best_outcome(result, powers, outcomes)
            tally.outcomes[outcome] = tally.outcomes.get(outcome, 0) + 1
            tally.total_score += sum(scores.get(p, 0.0) for p in powers)
    return {user_id: _stats(user_id, tally) for user_id, tally in tallies.items()}


def leaderboard(
    records: Iterable[GameRecord], *, system: str | None = None, min_games: int = 1, limit: int | None = None
) -> list[LeaderboardRow]:
    """The ranked rows of ``/stats``: users with at least ``min_games`` finished games, best first."""
    ranked = [s for s in user_stats(records, system=system).values() if s.games >= max(1, min_games)]
    ranked.sort(key=lambda s: (-_level(s.average_score), -s.games, -s.solos, -s.draws, s.user_id))
    rows: list[LeaderboardRow] = []
    for position, stats in enumerate(ranked, start=1):
        tied = rows and _level(rows[-1].stats.average_score) == _level(stats.average_score)
        rows.append(LeaderboardRow(rank=rows[-1].rank if tied else position, stats=stats))
    return rows[:limit] if limit is not None else rows


def badge(stats: UserStats | None) -> str:
    """``12 games, 3 solos, 2 draws, 92% reliable``: a short record beside a name (``first game``)."""
    if stats is None or (stats.games == 0 and stats.reliability is None):
        return "first game"
    parts = [_count(stats.games, "game")]
    if stats.solos:
        parts.append(_count(stats.solos, "solo"))
    if stats.draws:
        parts.append(_count(stats.draws, "draw"))
    if stats.reliability is not None:
        parts.append(f"{stats.reliability:.0f}% reliable")
    return ", ".join(parts)


def _scores(record: GameRecord, system: str | None) -> Mapping[str, float]:
    if record.result is None:
        return {}
    if system is None and record.scores is not None:
        return record.scores
    return score(record.result, system or DEFAULT_SYSTEM)


def _best_outcome(result: FinalResult, powers: set[str], known: Mapping[str, str]) -> str:
    """The best outcome among ``powers`` (``known``: the outcomes computed once for the game)."""
    if not powers:
        return LEFT
    found = {known[p] if p in known else outcome_of(result, p) for p in powers}
    return next(o for o in OUTCOMES if o in found)


def _stats(user_id: int, tally: _Tally) -> UserStats:
    return UserStats(
        user_id=user_id,
        games=len(tally.games),
        solos=tally.outcomes.get(SOLO, 0),
        draws=tally.outcomes.get(DRAW, 0),
        survivals=tally.outcomes.get(SURVIVED, 0),
        eliminations=tally.outcomes.get(ELIMINATED, 0),
        left=tally.outcomes.get(LEFT, 0),
        total_score=tally.total_score,
        ordered=tally.ordered,
        missed=tally.missed,
        civil_disorders=tally.civil_disorders,
        replaced=tally.replaced,
        with_built_in=tally.with_built_in,
    )


def _level(average: float) -> float:
    """An average as compared for ranking: 100/3 reached by different sums is one tie."""
    return round(average, 6)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
