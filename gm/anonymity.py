"""Anonymous games (the ``anonymous`` setting): until the end nobody learns who plays which power.

Every message a use case queues names members as references (``[[user:42]]``, gm.messages.kinds),
which the adapter turns into mentions. In a running anonymous game the outbox (gm.delivery.outbox)
veils them as it hands a message to the adapter: a reference stays only where its reader is that
member (a direct message to them, their own power's channel); elsewhere it becomes the powers the
member plays ("France's player") or, for a member who holds no seat, "a player". Once the game is
over nothing is veiled: the final post reveals the players (gm.endings.final_post).

The talks between powers are relayed by the bot (gm.facade.relaying), so Discord shows no pair place's
members and no talker's name."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, OutboxEntry, OutboxTarget, Player, PlayerStatus, PowerAssignment
from gm.errors import NotAllowed
from gm.messages.kinds import TakeOverRequest
from gm.messages.words import powers_text
from gm.settings import GameSettings

USER_REF = re.compile(r"\[\[user:(\d+)\]\]")
SOMEONE = "a player"


def veil_text(text: str, seats: Mapping[int, Sequence[str]], reader: frozenset[int] = frozenset()) -> str:
    """``text`` with each member reference replaced by the powers the member plays (or "a player"),
    except the references to ``reader`` (the members who read the place: they may see themselves)."""

    def word(match: re.Match[str]) -> str:
        user = int(match.group(1))
        if user in reader:
            return match.group(0)
        powers = seats.get(user)
        if not powers:
            return SOMEONE
        return f"{powers_text(powers)}'s player"

    return USER_REF.sub(word, text)


def veil_payload(
    payload: Mapping[str, Any], seats: Mapping[int, Sequence[str]], reader: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """A stored message (gm.messages.payloads.base) with every member reference of its words veiled
    (:func:`veil_text`), and the member ids an adapter would mention dropped."""
    veiled = dict(payload)
    if isinstance(payload.get("title"), str):
        veiled["title"] = veil_text(payload["title"], seats, reader)
    veiled["lines"] = [veil_text(str(line), seats, reader) for line in payload.get("lines") or ()]
    veiled["fields"] = [
        {
            **f,
            "name": veil_text(str(f["name"]), seats, reader),
            "value": veil_text(str(f["value"]), seats, reader),
        }
        for f in payload.get("fields") or ()
    ]
    veiled["veiled"] = True  # what the adapter changes around it names nobody either (kinds.Replaced)
    for key in ("user_ids",):  # the members a notice names by id alone (SeesEverything)
        if key in veiled:
            veiled[key] = [u for u in veiled[key] or () if u in reader]
    return veiled


async def veil_for(
    session: AsyncSession,
    game_id: int | None,
    target: str,
    *,
    power: str | None,
    user_id: int | None,
) -> Callable[[Mapping[str, Any]], dict[str, Any]] | None:
    """How a message to ``target`` of game ``game_id`` is veiled (:func:`veil_payload`), or None when
    it is not: no game, a game that is not anonymous, or one that is over."""
    if game_id is None:
        return None
    game = await session.get(Game, game_id)
    if game is None or game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
        return None
    if not GameSettings.from_json(game.settings).anonymous:
        return None
    rows = await session.exec(
        select(Player.user_id, PowerAssignment.power)
        .join(PowerAssignment, col(PowerAssignment.player_id) == col(Player.id))
        .where(
            PowerAssignment.game_id == game_id,
            col(Player.status).not_in((PlayerStatus.LEFT, PlayerStatus.REPLACED)),
        )
        .order_by(col(PowerAssignment.id))
    )
    seats: dict[int, list[str]] = {}
    for user, held in rows.all():
        seats.setdefault(int(user), []).append(held)
    if target == OutboxTarget.USER and user_id is not None:
        reader = frozenset({user_id})
    elif target == OutboxTarget.POWER_CHANNEL and power is not None:
        reader = frozenset(u for u, held in seats.items() if power in held)
    else:
        reader = frozenset()
    return partial(veil_payload, seats=seats, reader=reader)


async def reveal_lines(session: AsyncSession, game_id: int) -> list[str]:
    """The final post's reveal of an anonymous game: who held each power at the end (by reference:
    the adapter mentions them; one no longer active says how: civil disorder, left), the powers
    nobody held said so."""
    rows = await session.exec(
        select(PowerAssignment.power, Player.user_id, Player.status)
        .join(Player, col(PowerAssignment.player_id) == col(Player.id), isouter=True)
        .where(PowerAssignment.game_id == game_id)
        .order_by(col(PowerAssignment.power))
    )
    named = [
        f"{powers_text([power])}: "
        + (
            "nobody"
            if user is None
            else f"[[user:{user}]]"
            + ("" if status == PlayerStatus.ACTIVE else f" ({str(status).replace('_', ' ')})")
        )
        for power, user, status in rows.all()
    ]
    return ["The players are revealed: " + "; ".join(named) + "."] if named else []


def veil_data(
    data: Any, players: frozenset[int], seats: Mapping[int, Sequence[str]], viewer: int | None
) -> Any:
    """A report of a running anonymous game (an export, its log) as ``viewer`` may read it: every
    player's member id but the viewer's becomes None wherever it stands (a member id is a Discord
    snowflake: no count or number of the report is one), every member reference in its words is
    veiled (:func:`veil_text`)."""
    reader = frozenset({viewer}) if viewer is not None else frozenset()
    if isinstance(data, bool):
        return data
    if isinstance(data, int):
        return None if data in players and data != viewer else data
    if isinstance(data, Mapping):
        return {key: veil_data(value, players, seats, viewer) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [veil_data(item, players, seats, viewer) for item in data]
    if isinstance(data, str):
        return veil_text(data, seats, reader)
    return data


async def requester_of(session: AsyncSession, game_id: int, request: int) -> int:
    """Who asked for a seat in the request ``request`` (its outbox row) of game ``game_id``. An
    anonymous game's Approve and Decline buttons carry the request, not the member: a button's id is
    readable by everyone who sees it, and the member approved is the power's new player."""
    entry = await session.get(OutboxEntry, request)
    if entry is None or entry.game_id != game_id or entry.kind != TakeOverRequest.kind:
        raise NotAllowed("There is no such request to take over a seat.", "Use the buttons under a request.")
    return int(entry.payload.get("user_id") or 0)
