"""The phase a tap, a form or a command was made for, as one value. Below every folder (gm.ordering,
gm.sandbox and gm.moderation refuse with it; the adapters build it from a custom_id, a form or a
command).

A sheet's button, a modal or a confirmation can arrive after the game has moved on (a stale tap) or
after its number was reused by another game (another database, a rebuilt sandbox). The use case
refuses it then with a clear message (gm.errors), instead of applying it to the phase now open."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

P = TypeVar("P", str, int)


@dataclass(frozen=True, slots=True)
class MeantFor(Generic[P]):
    """``phase``: the phase it was made for: a game's phase name (``MeantFor[str]``, e.g. "S1901M")
    or a sandbox's step id (``MeantFor[int]``); ``tag``: the tag of the game's place or of the sandbox
    it was made in, telling apart two that had the same number. None (or "" for ``tag``) checks
    nothing on that side."""

    phase: P | None = None
    tag: str | None = None


ANY_PHASE: MeantFor[Any] = MeantFor()
"""Checks nothing: the default where a caller has no phase or tag to hold the use case to."""
