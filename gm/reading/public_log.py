"""The game log as the game channel has told it, for whatever shows a running game to anyone who asks
(/game export, /game status).

The log keeps more than was announced: who declared an absence (the channel is told the dates and the
new deadline, never the name), whose missing orders earned a grace extension (the channel is told that
the deadline moved, not why), who watches the game, a declined request to take a seat (told to its
author alone). :func:`public_log` keeps of each entry only what its announcement said, and leaves out
the entries nothing announced. An action this module does not know is left out too: a new kind of
entry is private until someone decides what of it may be shown.

Once the game is over the whole log may be read (gm.reports.export says so in the file).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from db.models import GameLogEntry


@dataclass(frozen=True, slots=True)
class Shown:
    """What of an entry is public: its author or not, and which keys of its detail."""

    actor: bool
    keys: frozenset[str] = frozenset()


def _shown(actor: bool, *keys: str) -> Shown:
    return Shown(actor, frozenset(keys))


PUBLIC: dict[str, Shown] = {
    # the Join post: who created the game and with which settings, who joined
    "created": _shown(True, "name", "settings"),
    "joined": _shown(True),
    "settings": _shown(False, "before", "after"),  # the Join post shows the settings, not who changed them
    # the game channel
    "left": _shown(True, "powers"),  # "France: the player has left"; who played France was announced
    "started": _shown(False, "assignments", "draw"),
    "absence_move": _shown(False, "phase", "before", "after"),  # the dates and the new deadline, no name
    "grace": _shown(False, "phase", "before", "after"),  # the deadline was extended, not for whom
    "civil_disorder": _shown(False, "powers", "user_id", "why"),
    "returned": _shown(True, "powers"),  # /game status shows the power playing again
    "eliminated": _shown(False, "powers", "user_id", "phase"),
    "vote_opened": _shown(False, "kind", "beneficiary", "phase"),
    "game_over": _shown(False, "kind", "winner", "shared"),
    "flip": _shown(False, "power", "result", "side"),
    "power_joined": _shown(False, "power", "user_id", "side"),
    # moderators' actions, announced with who took them (/game status lists them)
    "mod_extend": _shown(True, "phase", "minutes", "before", "as"),
    "mod_pause": _shown(True, "phase", "remaining_seconds", "as"),
    "mod_resume": _shown(True, "phase", "remaining_seconds", "as"),
    "mod_close": _shown(True, "phase", "as"),
    "mod_replace": _shown(True, "powers", "old_user_id", "new_user_id", "how", "as"),
    "mod_civil_disorder": _shown(True, "powers", "on", "user_id", "as"),
    "mod_rollback": _shown(True, "phase", "voided", "as"),
    "mod_end": _shown(True, "phase", "reason", "as"),
    "mod_builtin": _shown(True, "powers", "on", "user_id", "as"),  # the channel names the seat's player
}
"""Every action whose entries the game channel (or the Join post) told, with what it told of them.
Left out: ``absence`` and ``absence_cancelled`` (a player's own business), ``watch`` and ``unwatch``,
``mod_take_over_declined`` (told to the member who asked only)."""


def public_entry(entry: GameLogEntry) -> dict[str, Any] | None:
    """The entry as the game channel told it, or None when it told nothing of it."""
    shown = PUBLIC.get(entry.action)
    if shown is None:
        return None
    detail = {k: v for k, v in (entry.detail or {}).items() if k in shown.keys}
    return {
        "at": entry.at.isoformat(),
        "actor_id": entry.actor_id if shown.actor else None,
        "action": entry.action,
        "detail": detail,
    }


def public_log(entries: Iterable[GameLogEntry]) -> list[dict[str, Any]]:
    return [shown for entry in entries if (shown := public_entry(entry)) is not None]


def full_log(entries: Iterable[GameLogEntry]) -> list[dict[str, Any]]:
    return [
        {"at": e.at.isoformat(), "actor_id": e.actor_id, "action": e.action, "detail": e.detail or {}}
        for e in entries
    ]
