"""The gamemaster facade: one call per use case for the adapters (Discord cogs, a web page).

Each call owns its transaction: it opens its own database session (a unit of work,
``sessions.begin()``, when it writes; the gm functions it calls never commit), and once committed
runs what must follow (deadline jobs, an early close, the final post, the messages) in the
background, so an adapter never touches the database nor has to remember a follow-up. The adapter
supplies what only it can do through interfaces: gm.delivery.outbox.OutboxSender posts messages,
gm.setup.places.PlaceMaker makes a game's places.

The public face of :class:`Gamemaster` is its use cases; the machinery (start and stop, closes,
deliveries, background work) is ``gamemaster.runtime`` (gm.facade.runtime.Runtime), which only the
composition root (bot.py), the harness and the tests touch. An adapter imports this package and
gm.public (the plain types, errors and wording helpers beside the facade), nothing else of gm
(tests/test_adapter_imports.py).
"""

from __future__ import annotations

from gm.facade.community import CommunityCases
from gm.facade.moderating import ModerationCases
from gm.facade.operating import OperatingCases
from gm.facade.places import PlaceCases
from gm.facade.playing import PlayingCases
from gm.facade.reading import ReadingCases
from gm.facade.relaying import RelayCases
from gm.facade.sandbox import SandboxCases
from gm.facade.setup import LeaveOutcome, SetupBusy, SetupCases, StartOutcome
from gm.facade.sheet import SheetAnswer, SheetCases
from gm.facade.tapping import ChosenOrder, TappingCases


class Gamemaster(
    SetupCases,
    PlayingCases,
    TappingCases,
    SheetCases,
    SandboxCases,
    ModerationCases,
    ReadingCases,
    CommunityCases,
    OperatingCases,
    PlaceCases,
    RelayCases,
):
    """The whole facade (its machinery: :attr:`runtime`, gm.facade.runtime.Runtime)."""


__all__ = [
    "ChosenOrder",
    "Gamemaster",
    "LeaveOutcome",
    "SetupBusy",
    "SheetAnswer",
    "StartOutcome",
]
