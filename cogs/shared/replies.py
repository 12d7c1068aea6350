"""Answering interactions: defer, send (split under Discord's limits), and turn errors into answers.

Privacy rule: anything about a player's own orders is sent ephemerally, and an interaction that may
be answered privately is deferred *ephemerally* (after a public defer Discord makes the first
followup public whatever it asks for).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.http import handle_message_parameters

from cogs.shared.text import chunks, safe_keeping_users
from gm.public import GameError, answers_owed, database_outage

log = logging.getLogger(__name__)

P = ParamSpec("P")

CRASH_TEXT = (
    "Something went wrong on my side and I could not finish that. It has been logged. "
    "Check with /orders show or /game status before trying again."
)


DATABASE_DOWN_TEXT = (
    "The game database cannot be reached right now, so I could not do that: nothing was recorded. "
    "Try again in a minute."
)
OUTAGE_LOG_EVERY = 60.0  # seconds: one line about a database outage at most this often


class FailureCounter:
    """Failed interactions, told to whoever listens (the bot's metrics: ``listener(kind)``, kind
    ``fault`` or ``database``), and a database outage logged as one line a minute."""

    def __init__(self) -> None:
        self.listener: Callable[[str], None] | None = None
        self._outage_logged: float | None = None
        self._outage_count = 0

    def failed(self, kind: str) -> None:
        if self.listener is not None:
            self.listener(kind)

    def outage(self, reason: str) -> None:
        self.failed("database")
        self._outage_count += 1
        now = time.monotonic()
        if self._outage_logged is None or now - self._outage_logged >= OUTAGE_LOG_EVERY:
            log.warning(
                "the database is unreachable (%s): %d interactions answered 'try again in a minute' "
                "since the last line about it",
                reason,
                self._outage_count,
                extra={"event": "database_outage", "interactions": self._outage_count},
            )
            self._outage_logged, self._outage_count = now, 0


failures = FailureCounter()


ANSWER_WITHIN = 0.1
"""Seconds an answer may take before its interaction is acknowledged apart ("thinking..."): well within
Discord's 3 s. A command whose answer comes sooner is answered once, with the answer itself (one call to
Discord instead of two: a deferral, then the answer as a followup)."""


class _Deferral:
    """An acknowledgement to come (:func:`defer` ``unless_quick``): the timer until it is sent, then
    its sending."""

    __slots__ = ("sending", "timer")

    def __init__(self) -> None:
        self.timer: asyncio.TimerHandle | None = None
        self.sending: asyncio.Task[None] | None = None


_deferrals: dict[int, _Deferral] = {}  # interaction id -> its acknowledgement to come


async def defer(
    interaction: discord.Interaction, *, ephemeral: bool = True, unless_quick: bool = False
) -> None:
    """Acknowledge now ("thinking..."), answer later with :func:`send`. ``unless_quick``: only if no
    answer has gone out within :data:`ANSWER_WITHIN`; then every answer of the interaction must go
    through :func:`send`, or call :func:`settle` first (so that the acknowledgement is not sent after
    the answer, or beside it)."""
    if interaction.response.is_done() or interaction.id in _deferrals:
        return
    if not unless_quick or answers_owed():  # in a burst: acknowledged at once, the work waits its turn
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        return
    loop = asyncio.get_running_loop()
    deferral = _Deferral()

    def now() -> None:
        deferral.timer = None
        deferral.sending = loop.create_task(_acknowledge(interaction, ephemeral))
        deferral.sending.add_done_callback(lambda _: _deferrals.pop(interaction.id, None))

    deferral.timer = loop.call_later(ANSWER_WITHIN, now)
    _deferrals[interaction.id] = deferral


async def _acknowledge(interaction: discord.Interaction, ephemeral: bool) -> None:
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except Exception as exc:  # too late for Discord, or no connection: the answer will fail the same way
        log.info("could not acknowledge interaction %s: %s", _describe(interaction), exc)


async def settle(interaction: discord.Interaction) -> None:
    """Before answering an interaction :func:`defer` acknowledges ``unless_quick``: the
    acknowledgement not sent yet is dropped (the answer is the first reply), one under way is waited
    for (the answer is a followup)."""
    deferral = _deferrals.pop(interaction.id, None)
    if deferral is None:
        return
    if deferral.timer is not None:
        deferral.timer.cancel()
    elif deferral.sending is not None:
        await asyncio.shield(deferral.sending)


async def send(
    interaction: discord.Interaction,
    lines: str | Iterable[str],
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Send ``lines`` as one or more messages of at most 2,000 characters; the embed, files and
    view go with the last one."""
    await settle(interaction)
    parts = chunks([lines] if isinstance(lines, str) else lines)
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        extra: dict[str, Any] = {}  # only what is given: discord.py's overloads tell None from absent
        if last:
            if embed is not None:
                extra["embed"] = embed
            if files:
                extra["files"] = files
            if view is not None:
                extra["view"] = view
        if not interaction.response.is_done():
            await interaction.response.send_message(part or None, ephemeral=ephemeral, **extra)
        else:
            await interaction.followup.send(part or discord.utils.MISSING, ephemeral=ephemeral, **extra)


def error_text(error: BaseException) -> str | None:
    """The answer for a refusal the user can act on; None for a fault of ours."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError):
        hint = f" {safe_keeping_users(error.hint)}" if error.hint else ""
        return safe_keeping_users(error.message) + hint  # gm's <@id> are its own; names are made inert
    if isinstance(error, app_commands.TransformerError):
        if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            return (
                "That user is not a member of this server, so they cannot take part here. "
                "They must join the server first; then try again."
            )
        shown = safe_keeping_users(str(error.value), limit=100)
        return f"I could not read the option value {shown!r}: pick one from the list the option offers."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That only works in a server channel, not in direct messages."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You may not use that here."
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer every failed interaction: the refusal with its hint, or an apology for our own fault."""
    text = error_text(error)
    if text is None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        outage = database_outage(original)
        if outage is not None:
            failures.outage(outage)
            text = DATABASE_DOWN_TEXT
        else:
            failures.failed("fault")
            log.error("interaction %s failed", _describe(interaction), exc_info=original)
            text = CRASH_TEXT
    if interaction.type == discord.InteractionType.autocomplete:
        return
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about a failed interaction %s", _describe(interaction))


def _describe(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    return f"{command or custom_id or interaction.type.name} by {interaction.user.id}"


F = TypeVar("F", bound=Callable[..., Any])


def answered_at_once(func: F) -> F:
    """A command whose first answer is the whole answer, sent at once (a form): in a burst its
    interactions are answered before the others' (ops.turns.rank_of). Put under the command's
    decorator."""
    vars(func)["answered_at_once"] = True  # read by ops.turns.rank_of
    return func


class GameCommandTree(app_commands.CommandTree):
    """The command tree, answering every error (see :func:`report_error`)."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


def answering(
    func: Callable[Concatenate[discord.Interaction, P], Awaitable[Any]],
) -> Callable[Concatenate[discord.Interaction, P], Awaitable[None]]:
    """For buttons and forms (which the command tree's error handler does not cover): every error
    becomes an answer to the user."""

    @functools.wraps(func)
    async def wrapper(interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            await func(interaction, *args, **kwargs)
        except Exception as exc:
            await report_error(interaction, exc)

    return wrapper


async def edit_view(
    client: discord.Client, channel_id: int, message_id: int, view: discord.ui.View | discord.ui.LayoutView
) -> None:
    """Show ``view`` on the bot's message ``message_id`` (in ``channel_id``): ``PartialMessage.edit``
    without what the caller never reads. discord.py's edit parses the edited message Discord sends back
    into a :class:`discord.Message` (every select option of a sheet: a millisecond or more) and stores
    the view for that message; a view made only of DynamicItems (the sheets) needs no storing, its
    items are found by their custom_id's pattern. Raises what the edit raises
    (:class:`discord.HTTPException`)."""
    if view.is_dispatchable() and not _fully_dynamic(view):
        await client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=view)
        return
    with handle_message_parameters(view=view, previous_allowed_mentions=client.allowed_mentions) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


def _fully_dynamic(view: discord.ui.View | discord.ui.LayoutView) -> bool:
    """Whether every item of ``view`` that a tap reaches is a DynamicItem (found without the view)."""
    return all(
        isinstance(item, discord.ui.DynamicItem) for item in view.walk_children() if item.is_dispatchable()
    )
