"""Game set-up use cases: create, join, leave, start, record the Discord channels, look games up.

Each use case writes in the session it is given and leaves its transaction to the caller (the
facade's unit of work commits it); when it raises a GameError the caller rolls it back, so nothing
has been written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from random import Random
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy import select as select_columns
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import (
    Game,
    GameStatus,
    PhaseRecord,
    Player,
    PlayerStatus,
    PowerAssignment,
)
from engine import Board, initial_board
from engine.adjudicator.adjustments import adjustment_counts
from engine.variants import UnknownVariant, get_variant
from gm.builtin.seats import LABEL as BUILT_IN_LABEL
from gm.builtin.seats import built_in_powers, draw_leaving_empty
from gm.builtin.talks import taken_by_it, tell_seat_talks
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue, existing_keys
from gm.errors import (
    AlreadyJoined,
    GameAlreadyStarted,
    GameFull,
    GameOver,
    InvalidSettings,
    NotAllowed,
    TooManyGames,
    UnknownGame,
    WrongPlayerCount,
)
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import GameIsFull, GameStarted, OpeningView, PlayerLeft, SeesEverything, Welcome
from gm.messages.maps import POSITION_MAP, fog_kind
from gm.messages.words import clean_name
from gm.ordering.examples import example_orders
from gm.phases import absent
from gm.reading.info import GameInfo, PhaseInfo, game_info
from gm.reading.lookup import ENDED_STATES, load_game, load_player, powers_of
from gm.settings import NOTIFY_CHOICES, GameSettings, deadline_zone, seat_offer, seat_words
from gm.setup.seats import draw_seats
from gm.setup.server import check_may_play, check_seated_may_play, may_play

MAX_NAME_LENGTH = 100


@dataclass(frozen=True, slots=True)
class StartResult:
    game: GameInfo
    assignments: dict[str, int | None]  # power -> user id, None for a power nobody plays
    phase: PhaseInfo


@dataclass(frozen=True, slots=True)
class FormingLimits:
    """How many games waiting for players a user (as their creator) and a server may have at once."""

    per_user: int = 3
    per_server: int = 25


async def create_game(
    session: AsyncSession,
    *,
    guild_id: int,
    creator_id: int,
    name: str,
    settings: GameSettings | Mapping[str, Any] | None = None,
    lobby_channel_id: int | None = None,
    creator_joins: bool = True,
    sees_all: bool = False,
    variant: str = "standard",
    limits: FormingLimits | None = None,
    now: datetime | None = None,
) -> GameInfo:
    """A new game waiting for players; the creator joins it unless ``creator_joins`` is False, or the
    chat server can hide no channel from them (``sees_all``) and the server's settings refuse such
    players a seat (gm.setup.server): then the game is made without them (the adapter tells them).
    ``settings``: the game's, or changes of the defaults (setting name -> value, as a user gave them:
    gm.settings.GameSettings.for_variant checks them). Refused past ``limits`` (no limit when
    None)."""
    now = require_aware(now or utcnow())
    if limits is not None:
        await _check_forming_limits(session, guild_id, creator_id, limits)
    name, checked = _checked_terms(name, variant, settings)
    game = Game(
        guild_id=guild_id,
        name=name,
        creator_id=creator_id,
        variant=variant,
        status=GameStatus.FORMING,
        settings=checked.to_json(),
        lobby_channel_id=lobby_channel_id,
        created_at=now,
    )
    session.add(game)
    await session.flush()
    log_event(
        session,
        game.row_id,
        "created",
        at=now,
        actor_id=creator_id,
        detail={"settings": checked.to_json(), "name": name},
    )
    if creator_joins and await may_play(session, guild_id, sees_all=sees_all):
        session.add(Player(game_id=game.row_id, user_id=creator_id, joined_at=now))
        log_event(session, game.row_id, "joined", at=now, actor_id=creator_id)
    return await game_info(session, game)


def _checked_terms(
    name: str, variant: str, settings: GameSettings | Mapping[str, Any] | None
) -> tuple[str, GameSettings]:
    """The game's name as stored and its settings checked; InvalidSettings names every problem with
    the name and the settings, or the variant that does not exist or cannot be played yet."""
    name = clean_name(name)  # stored and compared as it looks (gm.messages.words)
    problems = []
    if not name:
        problems.append("The game needs a name.")
    elif len(name) > MAX_NAME_LENGTH:
        problems.append(f"The game name is {len(name)} characters long; at most {MAX_NAME_LENGTH} please.")
    try:
        played = get_variant(variant)
    except UnknownVariant:
        raise InvalidSettings([f"There is no variant called {variant!r}."], "Use the standard map.") from None
    changes = dict(settings) if isinstance(settings, GameSettings) else settings  # the schedule as itself
    try:
        checked = GameSettings.for_variant(variant, changes)
    except InvalidSettings as exc:
        raise InvalidSettings(problems + exc.problems, exc.hint) from None
    if not played.playable():
        raise InvalidSettings(
            [
                f"The {played.title} variant cannot be played yet: the rules engine does not support "
                f"its rules ({', '.join(played.unsupported_rules())})."
            ],
            "Play the standard game with 3 to 7 players.",
        )
    if problems:
        raise InvalidSettings(problems, "Pick a short name and create the game again.")
    return name, checked


@dataclass(frozen=True, slots=True)
class JoinedFrom:
    """Where a join was asked: on server ``guild_id`` (a game of another server is refused as if
    unknown), with the Join button of message ``post`` (None: a command). A button names its game by
    number only, so a post left from another database (a fresh start, a restored backup) would join
    whatever game has that number now: a post that is not the game's own Join post is refused."""

    guild_id: int | None
    post: int | None = None


def _check_joined_from(game: Game, where: JoinedFrom) -> None:
    if game.guild_id != where.guild_id:
        raise UnknownGame(
            f"There is no game {game.row_id} on this server.", "See [[cmd:game list]] for the games here."
        )
    lobby = game.lobby_message_id if game.lobby_channel_id and game.lobby_message_id else None
    if where.post is not None and lobby is not None and lobby != where.post:
        raise UnknownGame(
            f"This Join button is from an old post: it does not belong to game #{game.row_id} {game.name}.",
            "See [[cmd:game list]] for the games here, and join with [[cmd:game join]].",
        )


async def join_game(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    sees_all: bool = False,
    joined_from: JoinedFrom | None = None,
    now: datetime | None = None,
) -> GameInfo:
    """``sees_all``: the chat server can hide no channel from this member (gm.setup.server); refused
    when the server's settings say so. ``joined_from``: where it was asked, checked first."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    if joined_from is not None:
        _check_joined_from(game, joined_from)
    _require_forming(game)
    await check_may_play(session, game.guild_id, user_id, sees_all=sees_all)
    settings = GameSettings.from_json(game.settings)
    everyone = await _players_in_order(session, game.row_id)  # seated or not: one read
    players = [p for p in everyone if p.status == PlayerStatus.ACTIVE]
    mine = next((p for p in players if p.user_id == user_id), None)
    if mine is not None:
        raise AlreadyJoined(f"You are already in {game.name}.", "Wait for the game to start.")
    if len(players) >= settings.players:
        raise GameFull(
            f"{game.name} already has its {settings.players} players.",
            "Create a new game with [[cmd:game create]].",
        )
    returning = next((p for p in everyone if p.user_id == user_id), None)
    if returning is not None:  # left before the start and came back
        returning.status = PlayerStatus.ACTIVE
        returning.joined_at = now
        returning.left_at = None
    else:
        session.add(Player(game_id=game.row_id, user_id=user_id, joined_at=now))
    log = log_event(session, game.row_id, "joined", at=now, actor_id=user_id)
    if len(players) + 1 == settings.players and user_id != game.creator_id:  # the last seat: tell the creator
        await session.flush()
        enqueue(
            session,
            GameIsFull(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name} is full",
                lines=[f"All {settings.players} players have joined: start it with [[cmd:game start]]."],
            ),
            target=Target.user(game.creator_id),
            key=f"full:{game.id}:{log.id}",
            now=now,
        )
    return await game_info(session, game)


async def leave_game(
    session: AsyncSession, game_id: int, user_id: int, *, now: datetime | None = None
) -> GameInfo:
    """Leave a game. Before the start the seat is freed; after it, the powers fall into civil disorder
    (units hold, they no longer block an early close) until a moderator replaces the player."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over; there is nothing to leave.")
    player = await load_player(session, game, user_id)
    powers = await powers_of(session, game.row_id, player.row_id)
    if game.status != GameStatus.FORMING and player.status == PlayerStatus.ACTIVE:
        player.civil_disorders += 1  # their powers hold in civil disorder from now on (for /stats)
    player.status = PlayerStatus.LEFT
    player.left_at = now
    log_event(session, game.row_id, "left", at=now, actor_id=user_id, detail={"powers": powers})
    if game.status != GameStatus.FORMING and powers:
        names = " and ".join(say.power_name(p) for p in powers)
        await session.flush()
        robot = set(powers) <= await built_in_powers(session, game)
        enqueue(
            session,
            PlayerLeft(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{names}: the player has left",
                lines=[
                    seat_words(
                        GameSettings.from_json(game.settings).take_over,
                        names,
                        left=True,
                        holding=(
                            f"The {BUILT_IN_LABEL} plays {names} from now on, until a new player takes "
                            "the seat"
                        )
                        if robot
                        else None,
                    )
                ],
                powers=powers,
                user_id=user_id,
                alert_moderators=True,  # a seat to fill: the moderators are the ones who can
                **seat_offer(game, [powers]),
            ),
            target=Target.game_channel(),
            key=f"player_left:{game.id}:{player.id}:{now.isoformat()}",
            now=now,
        )
        if robot:  # after the message that takes them out of the seat's places
            await tell_seat_talks(
                session,
                game,
                powers,
                taken_by_it(powers, absent=None),
                user_id=None,
                key=f"player_left:{game.id}:{player.id}:{now.isoformat()}:talks",
                now=now,
            )
    return await game_info(session, game)


def opening_map(phase_id: int, phase_name: str, viewer: str | None) -> dict[str, Any]:
    """The opening position a player's welcome carries (``viewer``: under the fog of war, that power's
    view of it, gm.reading.fog). Drawn as the game starts (gm.facade.setup), so the welcome waits for
    it while the game is being set up, and goes without it if it could not be drawn."""
    kind = POSITION_MAP if viewer is None else fog_kind(POSITION_MAP, viewer)
    return say.map_ref(phase_id, phase_name, kind, setup=True)


async def start_game(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    *,
    is_moderator: bool = False,
    sees_all: Sequence[int] = (),
    now: datetime | None = None,
    rng: Random | None = None,
) -> StartResult:
    """Draw the powers at random (``secrets``), open the first phase with its deadline, queue the
    announcements. Only the creator or a moderator may start, with exactly the planned number of players;
    or, when the game fills its empty seats (``fill_seats``), with one player at least, the seats nobody
    took going to the built-in player (gm.builtin). ``sees_all``: members the chat server can hide no
    channel from; refused when one of them is seated and the server's settings refuse them a seat."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id, for_update=True)
    _require_forming(game)
    if user_id != game.creator_id and not is_moderator:
        raise NotAllowed(
            f"Only the creator of {game.name} or a moderator can start it.",
            "Ask them to run [[cmd:game start]].",
        )
    settings = GameSettings.from_json(game.settings)
    players = await _seated_players(session, game.row_id)
    await check_seated_may_play(session, game.guild_id, [p.user_id for p in players if p.user_id in sees_all])
    short = _check_player_count(game, settings, players)
    assignments, filled, empty = _seat_powers(session, game, settings, players, short=short, rng=rng, now=now)
    board, phase = _open_first_phase(session, game, settings, now)
    game.status = GameStatus.ACTIVE
    game.started_at = now
    await session.flush()
    log_event(
        session,
        game.row_id,
        "started",
        at=now,
        actor_id=user_id,
        detail={
            "assignments": assignments,
            "draw": "secrets.SystemRandom().shuffle of the seats" if rng is None else "test",
            "built_in": sorted(filled),
        },
    )
    moved = await absent.absence_move(session, game, phase, now=now)  # a starter away: after their return
    _announce_start(session, game, phase, board, assignments, now, built_in=filled, empty=empty)
    if moved is not None:
        absent.announce_move(session, game, phase, moved, now=now)
    return StartResult(
        game=await game_info(session, game), assignments=assignments, phase=PhaseInfo.of(phase)
    )


def _check_player_count(game: Game, settings: GameSettings, players: Sequence[Player]) -> bool:
    """Whether the game starts short of players, its empty seats going to the built-in player (it
    fills seats, and one player at least is seated); WrongPlayerCount when it may not start with
    these players."""
    short = len(players) < settings.players and settings.fill_seats  # empty seats: built-in players
    if len(players) != settings.players and not (short and players):
        missing = settings.players - len(players)
        hint = (
            f"Wait for {missing} more to [[cmd:game join]], or let built-in players take the empty "
            "seats: [[cmd:game settings]] fill_seats:True."
            if missing > 0
            else "Some players must [[cmd:game leave]] first."
        )
        raise WrongPlayerCount(
            f"{game.name} is set up for {settings.players} players and has {len(players)}.", hint
        )
    return short


def _seat_powers(
    session: AsyncSession,
    game: Game,
    settings: GameSettings,
    players: Sequence[Player],
    *,
    short: bool,
    rng: Random | None,
    now: datetime,
) -> tuple[dict[str, int | None], set[str], list[tuple[str, ...]]]:
    """Draw the seats and record every power's holder: (power -> user id or None, the powers given to
    the built-in player, the seats left empty)."""
    played = get_variant(game.variant)
    seats = played.seats_for(settings.players)
    if short:
        drawn, empty = draw_leaving_empty([p.user_id for p in players], seats, rng)
    else:
        drawn, empty = draw_seats([p.user_id for p in players], seats, rng), []
    filled = {power for seat in empty for power in seat}
    player_of_user = {p.user_id: p for p in players}
    assignments: dict[str, int | None] = dict.fromkeys(played.game_map().powers)
    for user, powers in drawn.items():
        for power in powers:
            assignments[power] = user
    for power, holder in assignments.items():
        player = player_of_user.get(holder) if holder is not None else None
        session.add(
            PowerAssignment(
                game_id=game.row_id,
                power=power,
                player_id=player.id if player else None,
                assigned_at=now,
                built_in=True if power in filled else None,
            )
        )
    return assignments, filled, empty


def _open_first_phase(
    session: AsyncSession, game: Game, settings: GameSettings, now: datetime
) -> tuple[Board, PhaseRecord]:
    """The variant's opening position as the game's first phase, with its deadline."""
    board = initial_board(get_variant(game.variant).name)
    phase = PhaseRecord(
        game_id=game.row_id,
        ordinal=0,
        name=str(board.phase),
        board=dict(board.to_json()),
        # a game that opens with builds (Chaos: Winter 1900) has its counts from the start
        adjustments=(adjustment_counts(board) or None) if board.phase.kind == "A" else None,
        deadline=settings.deadline_for(board.phase.kind, now),
        opened_at=now,
    )
    session.add(phase)
    return board, phase


async def set_game_channels(
    session: AsyncSession,
    game_id: int,
    *,
    category_id: int | None = None,
    game_channel_id: int | None = None,
    power_channels: dict[str, int] | None = None,
) -> GameInfo:
    """Record the Discord channels the adapter created for a started game (messages wait for them)."""
    game = await load_game(session, game_id, for_update=True)
    if category_id is not None:
        game.category_id = category_id
    if game_channel_id is not None:
        game.game_channel_id = game_channel_id
    if power_channels:
        rows = await session.exec(select(PowerAssignment).where(PowerAssignment.game_id == game.id))
        assignments = {a.power: a for a in rows.all()}  # one read for every power
        for power, channel_id in power_channels.items():
            assignment = assignments.get(power)
            if assignment is None:
                raise ValueError(f"{game.name} has no power {power!r}")
            assignment.channel_id = channel_id
    return await game_info(session, game)


async def announce_sees_everything(
    session: AsyncSession, game_id: int, user_ids: list[int], *, now: datetime | None = None
) -> None:
    """Tell the game channel which players the chat server cannot hide any channel from (once per game:
    a set-up finished by a second start does not say it again)."""
    now = require_aware(now or utcnow())
    key = f"sees_everything:{game_id}"
    if not user_ids or await existing_keys(session, [key]):
        return
    game = await load_game(session, game_id)
    who = " and ".join(f"[[user:{u}]]" for u in user_ids)
    could = "could" if len(user_ids) == 1 else "each could"
    enqueue(
        session,
        SeesEverything(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{game.name}: a note on privacy",
            lines=[
                f"{who} {could} read every channel of this game, the other powers' channels and "
                "private talks included: the server's owner and administrators pass every permission, "
                "so I cannot hide a channel from them.",
                "Every other player reads only their own places. A server admin can refuse such "
                "players in future games with [[cmd:server settings]].",
            ],
            user_ids=list(user_ids),
        ),
        target=Target.game_channel(),
        key=key,
        now=now,
    )


async def get_game(session: AsyncSession, game_id: int) -> GameInfo:
    return await game_info(session, await load_game(session, game_id))


async def list_games(session: AsyncSession, guild_id: int, *, include_ended: bool = False) -> list[GameInfo]:
    statement = select(Game).where(Game.guild_id == guild_id).order_by(col(Game.id))
    if not include_ended:
        statement = statement.where(col(Game.status).not_in(ENDED_STATES))
    return [await game_info(session, g) for g in (await session.exec(statement)).all()]


_GAMES_OF_USER = (
    select_columns(col(Game.id))
    .join(Player, col(Player.game_id) == col(Game.id))
    .where(
        col(Player.user_id) == bindparam("user_id"),
        col(Player.status).not_in((PlayerStatus.LEFT, PlayerStatus.REPLACED)),
    )
    .order_by(col(Game.id))
)
_RUNNING_GAMES_OF_USER = _GAMES_OF_USER.where(col(Game.status).not_in(ENDED_STATES))


async def game_ids_of_user(session: AsyncSession, user_id: int, *, include_ended: bool = False) -> list[int]:
    """The numbers of the games a user is playing (those ended too with ``include_ended``), in order:
    one statement of plain rows, built once."""
    connection = await flushed_connection(session)
    statement = _GAMES_OF_USER if include_ended else _RUNNING_GAMES_OF_USER
    return [
        game_id
        for game_id in (await connection.execute(statement, {"user_id": user_id})).scalars()
        if game_id
    ]


async def games_of_user(
    session: AsyncSession, user_id: int, *, include_ended: bool = False
) -> list[GameInfo]:
    """The games a user is playing (for the adapters' ``game`` option and autocomplete)."""
    ids = await game_ids_of_user(session, user_id, include_ended=include_ended)
    return [await get_game(session, game_id) for game_id in ids]


async def set_lobby_message(session: AsyncSession, game_id: int, message_id: int) -> None:
    """Remember the game's Join post, so that it can be kept up to date."""
    game = await load_game(session, game_id, for_update=True)
    game.lobby_message_id = message_id


async def set_notify(session: AsyncSession, game_id: int, user_id: int, choice: str) -> GameInfo:
    """How the player is called to order in ``game_id`` (gm.settings.NOTIFY_*)."""
    if choice not in NOTIFY_CHOICES:
        raise InvalidSettings(
            [f"{choice!r} is no way to be told; choose {', '.join(NOTIFY_CHOICES)}."], "Nothing was changed."
        )
    game = await load_game(session, game_id, for_update=True)
    player = await load_player(session, game, user_id)
    player.notify = choice
    return await game_info(session, game)


async def running_game_ids(session: AsyncSession) -> list[int]:
    """The games that are running (active or paused), by number."""
    rows = await session.exec(
        select(Game.id)
        .where(col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)))
        .order_by(col(Game.id))
    )
    return [game_id for game_id in rows.all() if game_id is not None]


async def players_of_running_games(session: AsyncSession) -> list[int]:
    """Every user who plays in a game that is running (active or paused), once each."""
    rows = await session.exec(
        select(Player.user_id)
        .join(Game, col(Game.id) == col(Player.game_id))
        .where(
            col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
            col(Player.status).not_in((PlayerStatus.LEFT, PlayerStatus.REPLACED)),
        )
        .distinct()
    )
    return sorted(rows.all())


# --- helpers ------------------------------------------------------------------------------------


async def _check_forming_limits(
    session: AsyncSession, guild_id: int, creator_id: int, limits: FormingLimits
) -> None:
    forming = select(Game).where(Game.status == GameStatus.FORMING)
    mine = (await session.exec(forming.where(Game.creator_id == creator_id).order_by(col(Game.id)))).all()
    if len(mine) >= limits.per_user:
        listed = ", ".join(f"#{g.id} {g.name}" for g in mine[:5])
        raise TooManyGames(
            f"You already have {len(mine)} games waiting for players ({listed}); at most "
            f"{limits.per_user} at once.",
            "Start one of them, or cancel one with [[cmd:mod end]], then create the new one.",
        )
    here = (await session.exec(forming.where(Game.guild_id == guild_id))).all()
    if len(here) >= limits.per_server:
        raise TooManyGames(
            f"This server already has {len(here)} games waiting for players, the most it allows at once.",
            "Join one of them (see [[cmd:game list]]), or ask the bot's admin to raise "
            "FORMING_GAMES_PER_SERVER.",
        )


def _require_forming(game: Game) -> None:
    if game.status in ENDED_STATES:
        raise GameOver(f"{game.name} is over.", "Create a new game with [[cmd:game create]].")
    if game.status != GameStatus.FORMING:
        raise GameAlreadyStarted(
            f"{game.name} has already started.", "Ask a moderator if you want to replace a player."
        )


async def _seated_players(session: AsyncSession, game_id: int) -> list[Player]:
    rows = await session.exec(
        select(Player)
        .where(Player.game_id == game_id, Player.status == PlayerStatus.ACTIVE)
        .order_by(col(Player.joined_at), col(Player.id))
    )
    return list(rows.all())


async def _players_in_order(session: AsyncSession, game_id: int) -> list[Player]:
    """Every player of the game, those who left included, in the order :func:`_seated_players` gives."""
    rows = await session.exec(
        select(Player).where(Player.game_id == game_id).order_by(col(Player.joined_at), col(Player.id))
    )
    return list(rows.all())


def _announce_start(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    board: Board,
    assignments: dict[str, int | None],
    now: datetime,
    *,
    built_in: set[str] | frozenset[str] = frozenset(),
    empty: Sequence[tuple[str, ...]] = (),
) -> None:
    """Queue, in this order, the game channel's post that the game has started, each power's own view
    of the opening (under the fog of war) and each player's welcome."""
    _queue_started_post(session, game, phase, assignments, now, built_in=built_in, empty=empty)
    if GameSettings.from_json(game.settings).fogged:
        _queue_opening_views(session, game, phase, assignments, now)
    _queue_welcomes(session, game, phase, board, assignments, now)


def _queue_started_post(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    assignments: dict[str, int | None],
    now: datetime,
    *,
    built_in: set[str] | frozenset[str],
    empty: Sequence[tuple[str, ...]],
) -> None:
    settings = GameSettings.from_json(game.settings)
    enqueue(
        session,
        GameStarted(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{game.name} has started: {say.long_name(phase.name)}",
            lines=_started_lines(game, assignments, built_in=built_in, empty=empty),
            phase=phase.name,
            deadline=phase.deadline,
            deadline_zone=deadline_zone(game),
            assignments=assignments,
            built_in=sorted(built_in),
            **seat_offer(game, [list(seat) for seat in empty]),
            # how players may talk: said in the post (an anonymous game's talks are relayed: gm.relaying)
            press="relayed" if settings.anonymous and settings.press != "none" else settings.press,
            # the opening position, when the adapter stored it before the post goes out (see
            # gm.facade.core.GamemasterCore.phase_map); without it the post goes out all the same
            # (none under the fog of war: each player asks for their own view with [[cmd:map]])
            maps=[] if settings.fogged else [say.map_ref(phase.row_id, phase.name, POSITION_MAP)],
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=f"game_started:{game.row_id}",
        now=now,
    )


def _started_lines(
    game: Game,
    assignments: dict[str, int | None],
    *,
    built_in: set[str] | frozenset[str],
    empty: Sequence[tuple[str, ...]],
) -> list[str]:
    """Who plays which power, then what the fog of war and the built-in player mean for this game."""
    lines = [
        f"{say.power_name(power)}: "
        + (
            f"[[user:{user}]]"
            if user is not None
            else BUILT_IN_LABEL
            if power in built_in
            else "nobody (units hold)"
        )
        for power, user in assignments.items()
    ]
    if GameSettings.from_json(game.settings).fogged:
        lines.append(
            "This game is played under the fog of war: each player sees only the provinces next to their "
            "units and centers. Results come to each player's own channel ([[cmd:map]] shows your view); "
            "the final post reveals the whole game."
        )
    if built_in:
        lines.append(
            f"The {BUILT_IN_LABEL} plays {say.powers_text(sorted(built_in, key=list(assignments).index))}: "
            "its orders are chosen as each phase closes, it is always ready, and it never writes to anyone. "
            + (
                "A member who does not play may take one of its seats with the Take over buttons below."
                if seat_offer(game, [list(seat) for seat in empty])
                else "A moderator may give one of its seats to a person with [[cmd:mod replace]]."
            )
        )
    return lines


def _queue_opening_views(
    session: AsyncSession, game: Game, phase: PhaseRecord, assignments: dict[str, int | None], now: datetime
) -> None:
    """Under the fog of war: each played power's view of the opening, in its own channel (its record
    there: gm.reports.history)."""
    for power, user in assignments.items():
        if user is None:
            continue
        enqueue(
            session,
            OpeningView(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: {say.long_name(phase.name)}, {say.power_name(power)}'s view",
                lines=[
                    f"What {say.power_name(power)} sees of the board as the game begins; the rest "
                    "is veiled. Your results come here after each phase."
                ],
                phase=phase.name,
                maps=[say.map_ref(phase.row_id, phase.name, fog_kind(POSITION_MAP, power))],
            ),
            phase_id=phase.id,
            target=Target.power_channel(power),
            key=f"opening_view:{game.row_id}:{power}",
            now=now,
        )


def _queue_welcomes(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    board: Board,
    assignments: dict[str, int | None],
    now: datetime,
) -> None:
    """Each player's welcome, by direct message: their powers, units, example orders and opening map."""
    fogged = GameSettings.from_json(game.settings).fogged
    seats: dict[int, list[str]] = {}
    for power, user in assignments.items():
        if user is not None:
            seats.setdefault(user, []).append(power)
    for user, powers in seats.items():
        units = {p: [str(u) for u in board.units.get(p, ())] for p in powers}
        names = " and ".join(say.power_name(p) for p in powers)
        enqueue(
            session,
            Welcome(
                game_id=game.row_id,
                game_name=game.name,
                title=f"You play {names} in {game.name}",
                lines=[f"{say.power_name(p)}: {', '.join(us)}" for p, us in units.items()],
                phase=phase.name,
                deadline=phase.deadline,
                deadline_zone=deadline_zone(game),
                powers=powers,
                units=units,
                variant=game.variant,
                examples=example_orders(board, powers),
                maps=[opening_map(phase.row_id, phase.name, None if not fogged else min(powers))],
            ),
            phase_id=phase.id,
            target=Target.user(user),
            key=f"welcome:{game.row_id}:{user}",
            now=now,
        )
