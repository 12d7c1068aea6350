"""Mistakes a user can make, each with a message saying what went wrong and a hint saying how to fix it.

A use case raises one of these *before* writing anything (or its transaction is rolled back), so a
refused request changes nothing. The adapters show ``message`` and ``hint`` to the user as they are.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every user-facing refusal."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message if hint is None else f"{message} {hint}")
        self.message = message
        self.hint = hint


class UnknownGame(GameError):
    pass


class TooManyGames(GameError):
    """A user or a server has as many games waiting for players as it may."""


class InvalidSettings(GameError):
    def __init__(self, problems: list[str], hint: str | None = None) -> None:
        super().__init__(" ".join(problems), hint)
        self.problems = problems


class GameNotStarted(GameError):
    pass


class GameAlreadyStarted(GameError):
    pass


class GameOver(GameError):
    pass


class NotAPlayer(GameError):
    pass


class AlreadyJoined(GameError):
    pass


class GameFull(GameError):
    pass


class WrongPlayerCount(GameError):
    pass


class NotAllowed(GameError):
    pass


class OrdersClosed(GameError):
    """Orders arrived for a phase that is no longer taking them."""


class NoOrdersGiven(GameError):
    pass


class UnknownPhase(GameError):
    pass


class NotAVoter(GameError):
    """The caller has no surviving power that can vote (eliminated, or not playing)."""


class NoOpenVote(GameError):
    pass


class VoteAlreadyOpen(GameError):
    pass


class NothingToRollBack(GameError):
    pass


class PhaseBusy(GameError):
    """The phase is being adjudicated right now; try again in a moment."""


class WrongGameState(GameError):
    """The command does not apply to the game as it is (pausing a paused game, ...)."""
