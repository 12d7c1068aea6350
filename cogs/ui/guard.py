"""Every button, select and form answers, also one the bot does not understand: a custom id forged by
a modified client, or left on an old message by an earlier version of the bot, or naming a number no
game could have. The answer is a refusal with the reason; nothing is recorded, and the log says so at
INFO (it is the user's doing, not a fault of ours: no ERROR, no traceback).

Three places, so that no handler needs to think of it:

- :class:`Guarded`, the base of every DynamicItem the bot registers (bot.DiplomacyBot.add_dynamic_items
  takes no other): an id whose numbers do not fit a Discord id, or that the item cannot read
  (``ValueError``, ``KeyError``, ``IndexError``: each item reads its whole id in ``read``), or whose
  ``phase`` names no phase, becomes a :class:`Refused` item, which answers the refusal (discord.py
  would log an error and leave the user with "This interaction failed"); its ``check`` refuses a tap
  by someone the item is not for (a sheet's owner: discord.py's ``interaction_check``), and an error
  of its ``answer`` is answered.
- :func:`route_form` registers the forms the bot reads by their custom id (the orders form), and the
  one listener here hands each submission to its handler, with the same checks: a form no handler
  claims, or one whose fields are missing, is refused.
- that listener (bot.DiplomacyBot adds it) also answers a component no handler will take: an id
  that no registered item's template matches, or that is not on the message it claims to come from
  (discord.py drops those silently). It asks only public things: the message's components and the
  templates the bot registered.

Besides, a question asked privately (a confirmation, Leave or Stay, Replace or Keep a sandbox) acts
only when pressed on that private message by the member it was asked to (:func:`own_question`): its
id copied onto another message (a public Join post) changes neither that message nor anything else.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Self, TypeVar

import discord

from cogs.shared.replies import answering, report_error, send
from gm.public import GameError, Phase

log = logging.getLogger(__name__)

LARGEST_ID = 2**63 - 1  # Discord's ids and our numbers fit in 63 bits; a longer one was never ours
STALE_BUTTON = "This button is not one of mine or is out of date: nothing was recorded."
STALE_FORM = "This form is not one of mine or is out of date: nothing was recorded."
STALE_HINT = "Run the command again for a fresh one (/orders sheet, /orders edit, /game status)."


class OutOfDate(GameError):
    """A custom id or a form the bot cannot read: forged, or from an earlier version of the bot."""


class NotYourQuestion(GameError):
    """A tap on a question asked to someone else, or copied onto another message."""


def own_question(interaction: discord.Interaction, owner: int | None = None) -> None:
    """Refuse a tap unless it is pressed on a private answer, by the member it was given to (and,
    when the id names one, by ``owner``); a question is never a message of components (V2): its
    id copied onto a sheet is refused too."""
    message = interaction.message
    metadata = message.interaction_metadata if message is not None else None
    if (
        (owner is not None and interaction.user.id != owner)
        or message is None
        or not message.flags.ephemeral
        or message.flags.components_v2
        or (metadata is not None and metadata.user.id != interaction.user.id)
    ):
        raise NotYourQuestion("This question was not asked to you here.", "Nothing was changed.")


def numbers_fit(match: re.Match[str]) -> bool:
    """Whether every all-digit group of ``match`` could be an id of ours."""
    return all(not (v and v.isdigit()) or int(v) <= LARGEST_ID for v in match.groupdict().values())


def unreadable(match: re.Match[str]) -> str | None:
    """Why an id's values cannot be ours (None: they could): a number no id has, or a ``phase`` group
    that names no phase (``W1901M``: winters have no movement)."""
    if not numbers_fit(match):
        return "a number no id of mine has"
    phase = match.groupdict().get("phase")
    if phase and phase != "-":
        try:
            Phase.parse(phase)
        except ValueError as exc:
            return str(exc)
    return None


# --- buttons and selects -----------------------------------------------------------------------------


class Refused(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s).*"):
    """What a guarded item becomes when its custom id cannot be read: it answers the refusal. Never
    registered itself (its template matches anything)."""

    def __init__(self, item: discord.ui.Item[Any], why: str) -> None:
        # why the ignore below: DynamicItem is typed for its Button; Refused wraps any kind of item
        super().__init__(item)  # type: ignore[arg-type]
        self.why = why

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Refused:
        return cls(item, "not one of mine")

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse(interaction, STALE_BUTTON, self.why)


BaseT = TypeVar("BaseT", bound=discord.ui.Item[Any])
NEVER = r"(?!)"  # the base's own template: matches no id


class Guarded(discord.ui.DynamicItem[BaseT], template=NEVER):
    """The base of every DynamicItem the bot registers (bot.DiplomacyBot.add_dynamic_items takes no
    other): a subclass reads its whole id in :meth:`read` (discord.py's ``from_custom_id``, guarded
    here), may refuse a tap in :meth:`check` (whose item it is), and answers in :meth:`answer`; any
    error there is answered to the user (cogs.shared.replies.answering)."""

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        """The item for ``match`` (the template's match of the tapped id); ValueError, KeyError or
        IndexError when the id does not read (the tap is refused "not one of mine")."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        why = unreadable(match)
        if why is not None:
            return Refused(item, why)
        try:
            return await cls.read(interaction, item, match)
        except (ValueError, KeyError, IndexError) as exc:
            return Refused(item, f"{type(exc).__name__}: {exc}")

    def check(self, interaction: discord.Interaction) -> None:
        """Raise a GameError to refuse the tap before anything is read or changed (default: anyone
        may tap)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        try:
            self.check(interaction)
        except GameError as exc:
            await report_error(interaction, exc)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self.answer)(interaction)

    async def answer(self, interaction: discord.Interaction) -> None:
        """What the tap does (errors become answers)."""
        raise NotImplementedError


# --- forms -------------------------------------------------------------------------------------------

FormHandler = Callable[[discord.Interaction, re.Match[str], dict[str, Any]], Awaitable[None]]
_forms: dict[str, tuple[re.Pattern[str], FormHandler]] = {}


def route_form(pattern: re.Pattern[str], handler: FormHandler) -> None:
    """Submissions of forms whose custom id fully matches ``pattern`` go to ``handler`` (with the match
    and the submitted data); it raises :class:`OutOfDate` (or a ValueError, KeyError) when the form
    lacks what it needs."""
    _forms[pattern.pattern] = (pattern, handler)


async def _submitted(interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
    for pattern, handler in _forms.values():
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        why = unreadable(match)
        if why is not None:
            await refuse(interaction, STALE_FORM, why)
            return
        try:
            await handler(interaction, match, data)
        except (OutOfDate, ValueError, KeyError, IndexError) as exc:
            await refuse(interaction, STALE_FORM, f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a refusal of gm's, or a fault of ours: answered either way
            await report_error(interaction, exc)
        return
    await refuse(interaction, STALE_FORM, "no form of mine has this id")  # every form is routed


# --- the listener -------------------------------------------------------------------------------------


async def refuse(interaction: discord.Interaction, text: str, why: str) -> None:
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))[:120]
    log.info("refused %r from user %s: %s", custom_id, interaction.user.id, why)
    if interaction.response.is_done():
        return
    try:
        await send(interaction, f"{text} {STALE_HINT}", ephemeral=True)
    except discord.HTTPException as exc:
        log.info("could not answer a refused interaction: %s", exc)


async def on_interaction(interaction: discord.Interaction) -> None:
    """Forms go to their handlers; a component nothing will take is refused."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if interaction.type == discord.InteractionType.modal_submit:
        await _submitted(interaction, custom_id, data)
    elif interaction.type == discord.InteractionType.component and not _taken(interaction, custom_id):
        await refuse(interaction, STALE_BUTTON, "no item of mine takes this id")


def _taken(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether discord.py hands this component interaction to an item: an id present on the message
    it comes from that a registered item's template matches (the bot keeps no live views: every
    component it sends is a :class:`Guarded` item; bot.DiplomacyBot.item_templates lists them)."""
    templates: dict[str, re.Pattern[str]] | None = getattr(interaction.client, "item_templates", None)
    message = interaction.message
    if templates is None or message is None:
        return True  # cannot tell: better no answer of ours than a second one
    on_message = custom_id in _custom_ids(message.components)
    return on_message and any(t.fullmatch(custom_id) for t in templates.values())


def _custom_ids(components: Iterable[Any]) -> set[str]:
    found: set[str] = set()
    stack = list(components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None):
            found.add(component.custom_id)
        stack.extend(getattr(component, "children", ()) or ())
    return found
