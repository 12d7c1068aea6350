"""Plain-text building blocks for what the bot says: escaping what users typed, Discord timestamps,
splitting long answers under Discord's limits, and the line-by-line answer to an order submission.

Everything a user typed (game names, order lines) goes through :func:`safe` before it is shown, so
markdown and mentions in it are shown as typed and never format or ping (the bot also sends every
message with ``AllowedMentions.none()``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

import discord

from gm.public import (
    InvalidSettings,
    LineOutcome,
    OrdersView,
    PowerOrders,
    SubmissionReport,
    duration,
    local_time_text,
    long_name,
    plural,
    power_name,
    powers_text,
)

__all__ = ["duration", "long_name", "plural", "power_name", "powers_text"]  # the words gm uses too

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
USER_MENTION = re.compile("<@\u200b(\\d+)>")
ACCEPTED = "✅"
REFUSED = "❌"


def safe(text: str, *, limit: int | None = None) -> str:
    """User text made inert: markdown escaped, @everyone/@here/role mentions broken, one line."""
    flat = " ".join(str(text).split())
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(flat))


GM_USER = re.compile(r"\[\[user:(\d+)\]\]")
GM_COMMAND = re.compile(r"\[\[cmd:([a-z ]+)\]\]")


def word(text: str) -> str:
    """gm's references in Discord's words: a member (``[[user:42]]``) becomes a mention (shown as a
    name; allowed_mentions decides who is notified), a command (``[[cmd:game list]]``) its slash
    command (``/game list``). gm never writes Discord's syntax itself (another adapter words them its
    own way)."""
    return GM_COMMAND.sub(r"/\1", GM_USER.sub(r"<@\1>", text))


def safe_keeping_users(text: str, *, limit: int | None = None) -> str:
    """A gm sentence made inert like :func:`safe` (the game name in it is user text), its references
    to members and commands worded for Discord (:func:`word`): the mentions are the bot's own."""
    return word(USER_MENTION.sub(r"<@\1>", safe(text, limit=limit)))


PAUSED = "no deadline while the game is paused"


def when(moment: datetime | None, zone: str | None = None) -> str:
    """A deadline as Discord shows it to each reader in their own time zone: date, time and "in 3 hours";
    with ``zone`` (a game whose deadlines keep to a schedule) also on that zone's wall clock, the
    time the game is known by (``Tuesday 2 April, 21:00 Europe/Berlin``)."""
    if moment is None:
        return PAUSED
    shown = f"{discord.utils.format_dt(moment, 'F')} ({discord.utils.format_dt(moment, 'R')})"
    return f"{shown}, {local_time_text(moment, zone)}" if zone else shown


def due(moment: datetime | None, zone: str | None = None) -> str:
    """``orders due <date> (in 3 hours)``, or that there is no deadline while the game is paused."""
    return PAUSED if moment is None else f"orders due {when(moment, zone)}"


def when_short(moment: datetime) -> str:
    """A past moment, e.g. in a log: Discord's short date and time in the reader's zone."""
    return discord.utils.format_dt(moment, "f")


def chunks(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into as few texts as possible, each at most ``limit`` characters, breaking only
    between lines (a single longer line is cut into pieces). Nothing is dropped."""
    out: list[str] = []
    current = ""
    for line in lines:
        pieces = [line[i : i + limit] for i in range(0, len(line), limit)] or [""]
        for piece in pieces:
            candidate = piece if not current else f"{current}\n{piece}"
            if len(candidate) <= limit:
                current = candidate
            else:
                out.append(current)
                current = piece
    if current or not out:
        out.append(current)
    return out


# --- orders ------------------------------------------------------------------------------------


def outcome_line(outcome: LineOutcome, *, show_power: bool = False) -> str:
    """``✅ A PAR - BUR`` or ``❌ A Par-Brg: no province "Brg" (did you mean BUR?)``."""
    prefix = f"{power_name(outcome.power)}: " if show_power and outcome.power else ""
    if outcome.accepted:
        text = f"{ACCEPTED} {prefix}`{outcome.order}`"
        if outcome.replaced:
            text += f" (replaces `{outcome.replaced}`)"
        return text
    reason = safe(_sentence(outcome.reason or "not understood"))
    hint = f" {safe(_sentence(outcome.hint))}" if outcome.hint else ""
    return f"{REFUSED} {prefix}{safe(outcome.line, limit=300)}: {reason}{hint}"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def power_status_lines(power: PowerOrders, *, show_orders: bool = False) -> list[str]:
    """What one power still has to do (and, when asked, its orders so far)."""
    lines = []
    if show_orders:
        if power.orders:
            lines.append(f"**{power_name(power.power)}** orders:")
            lines.extend(f"`{order}`" for order in power.orders)
        else:
            lines.append(f"**{power_name(power.power)}** has no orders yet.")
    name = power_name(power.power)
    if power.missing:
        lines.append(f"{name} still without orders: {', '.join(power.missing)}.")
    elif power.orders or not show_orders:
        lines.append(f"{name} has orders for everything.")
    if power.ready:
        lines.append(f"{name} is ready.")
    return lines


def view_lines(view: OrdersView, *, show_orders: bool = False) -> list[str]:
    lines = []
    for power in view.powers:
        lines.extend(power_status_lines(power, show_orders=show_orders))
    deadline = due(view.deadline, view.deadline_zone)
    lines.append(f"{view.phase.long_name} of #{view.game_id} {safe(view.game_name)}: {deadline}.")
    return lines


def report_lines(report: SubmissionReport) -> list[str]:
    """Every submitted line's fate, in the order given, then where the player stands."""
    several = len(report.view.powers) > 1
    lines = phase_notice(report)
    lines.append(
        f"{len(report.accepted)} of {plural(len(report.lines), 'line')} accepted"
        + (f", {len(report.refused)} refused:" if report.refused else ":")
    )
    lines.extend(outcome_line(o, show_power=several) for o in report.lines)
    lines.append("")
    lines.extend(view_lines(report.view))
    return lines


def ready_words(on: bool, view: OrdersView) -> str:
    """The answer to Ready (any way it is said): what it means, and what becomes of whatever has no
    order (a unit holds; a dislodged unit is disbanded; a build not ordered is given up)."""
    if not on:
        return "You are no longer ready: the phase waits for you until the deadline."
    if view.close_now:
        head = f"You are ready, and so is everybody: {view.phase.long_name} closes now."
    else:
        head = "You are ready. The phase closes early once every player is, or at the deadline."
    return f"{head} {unordered_fate(view)}".rstrip()


def unordered_fate(view: OrdersView) -> str:
    """What the rules do with what the player has not ordered, in a sentence ("" when nothing)."""
    missing = [m for power in view.powers for m in power.missing]
    if not missing:
        return ""
    listed = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
    if view.phase.kind == "R":
        return f"Without an order, {listed} will be disbanded."
    if view.phase.kind == "A":
        return f"Not ordered: {listed}; a build not ordered is given up, a removal is chosen by the rules."
    return f"Without orders, {listed} will hold."


def phase_notice(report: SubmissionReport) -> list[str]:
    """gm's warning that the phase changed moments before these orders came (they count for the new
    one), as the answer's first line, and the word that new orders took back the player's Ready;
    nothing otherwise."""
    notice = report.new_phase_notice
    lines = [f"⚠️ **{safe_keeping_users(notice)}**"] if notice else []
    if report.unready:
        verb = "is" if len(report.unready) == 1 else "are"
        lines.append(
            f"↩️ **{powers_text(report.unready)} {verb} no longer ready**: the orders changed after Ready. "
            "Say Ready again (the **Ready** button, `/ready`) once you are done."
        )
    return lines


def report_summary(report: SubmissionReport) -> list[str]:
    """A submission's answer without any order text, for places others can read: how many lines were
    accepted, which (by number) were refused, how many units still lack orders, the deadline."""
    refused = [str(i) for i, line in enumerate(report.lines, 1) if not line.accepted]
    head = f"{len(report.accepted)} of {plural(len(report.lines), 'line')} accepted"
    if refused:
        head += f", {len(refused)} refused (line{'s' if len(refused) > 1 else ''} {', '.join(refused)})"
    lines = [*phase_notice(report), head + "."]
    for power in report.view.powers:
        name = power_name(power.power)
        if power.missing:
            lines.append(f"{name} still has {plural(len(power.missing), 'unit')} without orders.")
        else:
            lines.append(f"{name} has orders for everything.")
    lines.append(f"{report.view.phase.long_name}: {due(report.view.deadline, report.view.deadline_zone)}.")
    return lines


def orders_sheet(view: OrdersView) -> str:
    """The player's current orders, one per line, for the /orders modal, then the lines their last
    submission had refused, as typed, to be fixed there (sent unchanged, they are refused again)."""
    orders = [order for power in view.powers for order in power.orders]
    return "\n".join([*orders, *view.refused])


STATUS_WORDS = {
    "forming": "waiting for players",
    "active": "running",
    "paused": "paused by a moderator",
    "finished": "finished",
    "cancelled": "cancelled",
}


def status_word(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def game_list_line(game_id: int, name: str, status: str, extra: str = "") -> str:
    return f"**#{game_id} {safe(name)}** ({status})" + (f": {extra}" if extra else "")


def joined(items: Sequence[str], empty: str = "none") -> str:
    return ", ".join(items) if items else empty


MAX_HOURS = 10 * 365 * 24  # ten years: beyond any phase length or extension gm accepts


def hours_in_minutes(what: str, hours: float) -> int:
    """An hours option in whole minutes, refusing what is no number of hours (inf, NaN, absurd sizes)
    before arithmetic on it could fail; gm checks the real range."""
    if not math.isfinite(hours) or abs(hours) > MAX_HOURS:
        raise InvalidSettings(
            [f"{what} must be a number of hours, not {hours!r}."], "For example 24, or 0.5 for half an hour."
        )
    return round(hours * 60)
