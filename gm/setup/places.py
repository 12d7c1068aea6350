"""Where a game lives on its chat server: the channels an adapter recorded for it (gm.setup.games
.set_game_channels), looked up both ways. Plain ids; no chat library here.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import Insert, bindparam
from sqlalchemy.dialects import sqlite
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import Game, GamePlace, Player, PlayerStatus, PowerAssignment
from gm.errors import UnknownGame
from gm.messages.places import PlaceKind
from gm.reading.lookup import ENDED_STATES, load_game
from gm.settings import GameSettings

if TYPE_CHECKING:
    from gm.reading.info import GameInfo

GONE = (PlayerStatus.LEFT, PlayerStatus.REPLACED)


Recorder = Callable[[PlaceKind, int, str], Awaitable[None]]
"""Called by a :class:`PlaceMaker` the moment the chat server returns a place it made: (kind, its id,
its key), so that a set-up cut short is finished later with the same places (gm.setup.places.record_place;
a start's is gm.facade.setup.PlaceLog)."""


@dataclass(frozen=True, slots=True)
class MadePlaces:
    """What a :class:`PlaceMaker` made for a started game: the ids the messages go to."""

    category_id: int
    game_channel_id: int
    power_channels: dict[str, int]
    # Players from whom the chat server cannot hide any place (Discord: the server's owner, members
    # with Administrator): every other player is told so in the game channel.
    sees_all: tuple[int, ...] = ()


class PlaceMaker(Protocol):
    """The adapter's side of starting a game (like gm.delivery.outbox.OutboxSender for messages): makes the
    game's places on the chat server, or completes those an earlier run recorded, and greets them."""

    async def make_places(self, game: GameInfo, recorded: GamePlaces, record: Recorder) -> MadePlaces:
        """Make (or complete) the category and channels; raise a GameError saying what to fix when the
        server refuses (what this run made is removed again)."""
        ...

    async def introduce(self, game: GameInfo) -> None:
        """A first message in each private place that has none (best effort)."""
        ...


@dataclass(frozen=True, slots=True)
class GamePlaces:
    game_id: int
    guild_id: int
    category_id: int | None
    game_channel_id: int | None
    power_channels: dict[str, int | None]  # power -> its private channel
    holders: dict[str, int | None]  # power -> the user who plays it now (None: nobody, or they left)
    place_tag: str | None = None  # in the names of the game's places (see db.models.Game.place_tag)
    negotiation_channel_id: int | None = None  # the channel holding the pair threads (threads press)
    # A pair of seats' place (thread or channel) by the adapter's key for the pair -> its id.
    pair_places: dict[str, int] = field(default_factory=dict)
    # Every place set-up recorded, by (kind, key), including those not yet the game's destinations.
    made: dict[tuple[str, str], int] = field(default_factory=dict)
    # Who may read the private talks once the game is over, read-only: its eliminated players, when
    # the game's ``talks_after_end`` setting says so (empty while it runs).
    talk_readers: tuple[int, ...] = ()

    def channels_of(self, user_id: int) -> list[int]:
        """The private channels of the powers ``user_id`` plays."""
        return [
            channel
            for power, holder in self.holders.items()
            if holder == user_id and (channel := self.power_channels.get(power)) is not None
        ]


async def game_places(session: AsyncSession, game_id: int) -> GamePlaces:
    game = await load_game(session, game_id)
    rows = (
        await session.exec(
            select(PowerAssignment, Player)
            .join(Player, col(Player.id) == col(PowerAssignment.player_id), isouter=True)
            .where(PowerAssignment.game_id == game_id)
            .order_by(col(PowerAssignment.power))
        )
    ).all()
    recorded = (await session.exec(select(GamePlace).where(GamePlace.game_id == game_id))).all()
    readers = _talk_readers(game, rows)
    negotiation = next((p.discord_id for p in recorded if p.kind == PlaceKind.NEGOTIATION), None)
    made = {(p.kind, p.key): p.discord_id for p in recorded}
    return GamePlaces(
        game_id=game_id,
        guild_id=game.guild_id,
        category_id=game.category_id,
        game_channel_id=game.game_channel_id,
        power_channels={a.power: a.channel_id for a, _ in rows},
        holders={a.power: p.user_id if p is not None and p.status not in GONE else None for a, p in rows},
        place_tag=game.place_tag,
        negotiation_channel_id=negotiation,
        pair_places={
            p.key: p.discord_id for p in recorded if p.kind in (PlaceKind.PAIR_CHANNEL, PlaceKind.THREAD)
        },
        made=made,
        talk_readers=readers,
    )


def _talk_readers(game: Game, rows: Sequence[tuple[PowerAssignment, Player | None]]) -> tuple[int, ...]:
    """The players eliminated by the end of a finished game (none of their powers survived it, or
    they were marked eliminated), when its settings open the private talks to them."""
    if game.status not in ENDED_STATES or not GameSettings.from_json(game.settings).talks_after_end:
        return ()
    survivors = set((game.result or {}).get("survivors") or ())
    held: dict[int, tuple[Player, set[str]]] = {}
    for assignment, player in rows:
        if player is not None and player.status not in GONE:
            held.setdefault(player.row_id, (player, set()))[1].add(assignment.power)
    return tuple(
        sorted(
            player.user_id
            for player, powers in held.values()
            if player.status == PlayerStatus.ELIMINATED or not powers & survivors
        )
    )


TAG_LENGTH = 4


async def ensure_place_tag(session: AsyncSession, game_id: int) -> str:
    """The game's place tag, drawn at random the first time: a few characters that make its places'
    names differ from any other game's on the server, whichever database that game lives in."""
    game = await load_game(session, game_id, for_update=True)
    if game.place_tag is None:
        alphabet = string.ascii_lowercase + string.digits
        game.place_tag = "".join(secrets.choice(alphabet) for _ in range(TAG_LENGTH))
    tag = game.place_tag
    return tag


async def record_place(
    session: AsyncSession, game_id: int, kind: PlaceKind, discord_id: int, key: str = ""
) -> None:
    """Remember a place the adapter made for the game, at once: a set-up cut short reuses it, and only
    it (places are never adopted by name). ``key``: the power of a power channel, the adapter's key of
    a pair's place. Recording the same kind and key again replaces the id. The category, game channel
    and power channels become the game's destinations only when set-up finishes
    (gm.setup.games.set_game_channels): until then no message is posted into a place that may yet be
    removed again."""
    await record_places(session, game_id, [(kind, discord_id, key)])


async def record_places(
    session: AsyncSession, game_id: int, made: Sequence[tuple[PlaceKind, int, str]]
) -> None:
    """:func:`record_place` for several places at once (``made``: (kind, id, key) each, in the order
    they were made: a key made twice keeps its last id): two light statements whatever their number,
    the game's row locked (one writer per game) without loading it, and one upsert of every place."""
    locked = await session.exec(
        select(Game.id).where(Game.id == game_id).with_for_update(key_share=True)  # as lock_game
    )
    if locked.first() is None:
        raise UnknownGame(
            f"There is no game number {game_id}.", "Use [[cmd:game list]] to see the games on this server."
        )
    latest = {(str(kind), key): discord_id for kind, discord_id, key in made}  # one row per key
    if not latest:
        return
    connection = await flushed_connection(session)
    await connection.execute(
        _place_upsert(connection.dialect.name),
        [
            {"game_id": game_id, "kind": kind, "key": key, "discord_id": discord_id}
            for (kind, key), discord_id in latest.items()
        ],
    )


@cache
def _place_upsert(dialect: str) -> Insert:
    """``INSERT ... ON CONFLICT (game_id, kind, key) DO UPDATE SET discord_id``: SQLite and PostgreSQL
    both say it so (as gm.ordering.offline's)."""
    insert = sqlite.insert
    if dialect == "postgresql":
        # imported here: PostgreSQL's dialect stays out of a bot on SQLite
        from sqlalchemy.dialects import postgresql

        insert = postgresql.insert  # type: ignore[assignment]  # the same on_conflict_do_update
    table = SQLModel.metadata.tables[GamePlace.__tablename__]
    statement = insert(table).values(
        game_id=bindparam("game_id"),
        kind=bindparam("kind"),
        key=bindparam("key"),
        discord_id=bindparam("discord_id"),
    )
    return statement.on_conflict_do_update(
        index_elements=[table.c.game_id, table.c.kind, table.c.key],
        set_={"discord_id": statement.excluded.discord_id},
    )


async def set_power_channel(session: AsyncSession, game_id: int, power: str, channel_id: int) -> None:
    """Make ``channel_id`` the private channel of ``power`` (the messages to the power go there from
    now on): an anonymous game's power whose seat changed hands gets a new one (cogs.places.fresh)."""
    await load_game(session, game_id, for_update=True)  # one writer per game
    assignment = (
        await session.exec(
            select(PowerAssignment).where(PowerAssignment.game_id == game_id, PowerAssignment.power == power)
        )
    ).first()
    if assignment is not None:
        assignment.channel_id = channel_id


async def game_of_channel(session: AsyncSession, channel_id: int) -> int | None:
    """The game whose public channel, category or private power channel ``channel_id`` is."""
    game_id = (
        await session.exec(
            select(Game.id).where(
                (col(Game.game_channel_id) == channel_id) | (col(Game.category_id) == channel_id)
            )
        )
    ).first()
    if game_id is None:
        by_power = select(PowerAssignment.game_id).where(PowerAssignment.channel_id == channel_id)
        game_id = (await session.exec(by_power)).first()
    return game_id
