"""Orders in plain messages: direct messages to the bot (DMs need no message-content intent), and, in a
player's own power channel, messages that mention the bot (a bot receives the content of messages that
mention it).

A player in one running game just writes their orders by DM. A player in several starts the message
with a line naming the game (``game: 3`` or ``game: Friday game``); without it nothing is recorded and
the answer lists their games. Every message gets an answer:
- by DM, line by line; when that answer cannot be delivered (the player's DMs are closed), a notice in
  their power channel says the orders arrived, without their text;
- in the power channel, counts only: the moderators can read that channel, so no order text is
  repeated there before the phase closes (the player's own message is theirs; the answer says how to
  keep orders to themselves). The line-by-line answer goes by DM when it can;
- anywhere else, where others read along, nothing is recorded and the answer says where orders go.

In an anonymous game, a message starting "to Germany:" (by DM, or in the player's power channel with
a mention of the bot) is talk, not orders: the bot relays it as the player's power's (gm.relaying),
and carries an edit or a deletion of it to what it became (``on_raw_message_edit``/``_delete``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from enum import Enum
from typing import Any

import discord
from discord.ext import commands

from cogs.messages.render import examples_text, how_to_order, how_to_order_here
from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.replies import CRASH_TEXT, error_text
from cogs.ui.sheet import ready_offer
from gm.public import (
    RUNNING_STATES,
    AlreadyRead,
    DirectReads,
    GameError,
    GameInfo,
    OrdersClosed,
    SubmissionReport,
    UnknownGame,
    behind_own_work,
    name_key,
    power_name,
    powers_text,
    split_press,
)

log = logging.getLogger(__name__)

GAME_LINE = re.compile(r"^\s*(?:game\s*[:=]\s*|#)(?P<game>.+?)\s*$", re.IGNORECASE)
PUBLIC_MENTION = (
    "I do not read orders in server channels: everyone here can see them. Send them to me by direct "
    "message, or with `/order` or `/orders edit` (only you see those). If your message held orders, "
    "you may want to delete it."
)
PRIVATE_MENTION = (
    "I do not read orders here: other people can read this channel (other players, or the moderators). "
    "Send them with `/order` or `/orders edit` (only you see those), by direct message to me, or in "
    "your own power's channel in a message that mentions me. If your message held orders, you may want "
    "to delete it."
)
HELP_WORDS = {"help", "?", "hi", "hello", "orders"}
READY_WORDS = {"ready", "done", "i am done", "i'm done", "im done", "i am ready", "i'm ready"}
ONLY_COUNTS = "The moderators can read this channel, so I never repeat orders here before the phase closes."


def split_game_line(content: str) -> tuple[str | None, str]:
    """``("3", "A Par-Bur")`` for ``"game: 3\\nA Par-Bur"``; ``(None, content)`` without such a line."""
    first, _, rest = content.strip().partition("\n")
    match = GAME_LINE.match(first)
    if match is None:
        return None, content
    return match["game"], rest


def pick(games: list[GameInfo], wanted: str | None) -> GameInfo:
    if wanted is not None:
        key = name_key(wanted).removeprefix("#")
        for game in games:
            if key == str(game.id) or key == name_key(game.name):
                return game
        raise UnknownGame(
            f"You play in no running game called {wanted!r}.",
            "Your games: " + ", ".join(f"#{g.id} {g.name}" for g in games) + ".",
        )
    if len(games) == 1:
        return games[0]
    if not games:
        raise UnknownGame(
            "You are not playing in any running game, so I have nothing to do with these orders.",
            "Join a game with /game join in a server before it starts.",
        )
    listing = ", ".join(f"#{g.id} {g.name}" for g in games)
    raise UnknownGame(
        f"You play in {len(games)} games ({listing}), so I cannot tell which one these orders are for. "
        "Nothing was recorded.",
        f"Send them again with a first line naming the game, like: game: {games[0].id}",
    )


def without_mentions_of(user_id: int, content: str) -> str:
    return re.sub(rf"<@!?{user_id}>", "", content).strip()


def is_public(channel: discord.abc.Messageable, guild: discord.Guild) -> bool:
    """Whether everyone on the server can read the channel (a private thread never)."""
    place: object = channel
    if isinstance(channel, discord.Thread):
        if channel.is_private():
            return False
        place = channel.parent or channel
    if isinstance(place, discord.abc.GuildChannel):
        return place.permissions_for(guild.default_role).view_channel
    return True


RECORDED_WHILE_OFFLINE = (
    "I was offline when you sent me this; its phase still takes orders, so here they are:"
)
MISSED_WHILE_OFFLINE = (
    "I was offline when you sent me the message above, so I did not read it, and the game may have "
    "moved on since. Please send your orders again now; `/orders show` lists the orders I have."
)
RECORDED_LATE = "I could not read this when you sent it; its phase still takes orders, so here they are:"
NOT_READ_YET = (
    "Something went wrong on my side: I could not read the messages you sent me while I was offline, "
    "so I have not read this one either (nothing of it is recorded yet). I will read them all, in the "
    "order you sent them, as soon as I can, and answer each; `/orders show` lists the orders I have."
)
OFFLINE_LOOKBACK = timedelta(days=7)  # older unanswered messages are not worth a word any more
HISTORY_LIMIT = 500  # a player's messages (and the bot's) read at start-up, at most
FAILURES_PER_PASS = 3  # a catch-up ends after this many players it could not read (the database away)


class Outcome(Enum):
    """What became of a direct message sent while the bot was offline."""

    RECORDED = "recorded"  # its orders were recorded, and the player told
    ANSWERED = "answered"  # refused with a reason (several games, none named...)
    MISSED = "missed"  # not read: its phase has closed (or it held no orders)
    ALREADY = "already"  # handled before (a run that crashed before its answer went out)


class UserLocks:
    """One lock per user, held while one of their direct messages is handled (their messages are
    handled one at a time, in the order they came); dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def of(self, user_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(user_id, (asyncio.Lock(), 0))
        self._locks[user_id] = (lock, users + 1)
        try:
            if lock.locked():  # their earlier message is handled: its reply and its work come first
                with behind_own_work():
                    await lock.acquire()
            else:
                await lock.acquire()
            try:
                yield
            finally:
                lock.release()
        finally:
            lock, users = self._locks[user_id]
            if users == 1:
                del self._locks[user_id]
            else:
                self._locks[user_id] = (lock, users - 1)


class DirectMessages(GameCog):
    """Direct messages, read live and, at start-up, those sent while the bot was offline (the
    catch-up, in the process that receives direct messages: shard 0's).

    The bot records each player's latest direct message it handled (gm.ordering.offline). The
    catch-up reads every player's messages after that one, skipping the bot's own (a call to order
    or reminder the outbox sent at start-up answers nothing), and handles each once: the mark is
    set in the transaction that records its orders, so a message handled before a crash is not
    handled again. A player's live messages wait for the catch-up of that player, and one read by
    both (sent just as the bot started) is handled by the first to read it.

    A player is caught up only once all their messages were read and handled: one the catch-up
    could not read (the database or Discord away) stays to catch up, by their next live message
    (which reads the earlier ones first) or by the catch-up tried again later; a live message that
    cannot catch its player up either is left unmarked for that and its player told so. Were a live
    message answered (and marked) first, the next start would read only after it."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._locks = UserLocks()
        self._catching_up: asyncio.Task[Any] | None = None
        self._due = False  # this process catches up (it receives the direct messages)
        self._listed = asyncio.Event()  # the catch-up tried to list whose messages it has to read
        self._listing = asyncio.Lock()
        self._players: list[int] = []  # whose messages it has to read, in order
        self._reads: DirectReads | None = None  # None: not listed yet (or the listing failed)
        self._waiting: set[int] = set()  # players whose messages the catch-up has yet to read
        self._handled: dict[int, int] = {}  # the latest message of each player the catch-up handled
        # messages come live (the gateway delivers them): the catch-up leaves them to on_message, which
        # answers them as live once that player's catch-up is done (never as sent while offline)
        self._live: set[int] = set()
        self._late: set[int] = set()  # live messages left to the catch-up (their player's failed)
        self._retry: asyncio.TimerHandle | None = None
        self._retry_after = self.services.retry_after[0]

    async def cog_unload(self) -> None:
        if self._retry is not None:
            self._retry.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per start (on_ready fires again after a reconnect): answer the direct messages
        players sent while the bot was offline."""
        self._start_catch_up()

    def _start_catch_up(self) -> None:
        if self._catching_up is not None or self._listed.is_set():
            return
        if not self.gamemaster.owns_direct_messages():
            log.info("direct messages go to shard 0's process: no catch-up of them here")
            self._listed.set()
            return
        self._due = True  # a live message catches its player up first, whatever becomes of the rest
        if self.services.stopping:  # connected as the bot stops: it would be cut short
            log.info("stopping: the direct messages sent while offline are left for the next start")
            self._listed.set()
            return
        self._catching_up = self.services.spawn(
            self.catch_up(), "answering direct messages sent while offline"
        )

    def _retry_later(self) -> None:
        """A catch-up failed: tried again later (each live message of a player not caught up tries
        theirs meanwhile)."""
        if self._retry is not None or self.services.stopping:
            return
        delay, self._retry_after = self._retry_after, min(self._retry_after * 2, self.services.retry_after[1])
        log.info("the direct messages sent while offline not read yet are tried again in %.0f s", delay)
        self._retry = asyncio.get_running_loop().call_later(delay, self._retry_now)

    def _retry_now(self) -> None:
        self._retry = None
        if self.services.stopping or (self._catching_up is not None and not self._catching_up.done()):
            return
        self._catching_up = self.services.spawn(
            self.catch_up(), "answering direct messages sent while offline (tried again)"
        )

    async def _list(self) -> DirectReads:
        """Whose messages the catch-up reads, and from which of theirs: listed once (again after a
        listing that failed)."""
        async with self._listing:
            if self._reads is None:
                users = await self.gamemaster.players_of_running_games()
                reads = await self.gamemaster.direct_reads(users)
                self._players, self._waiting, self._reads = users, set(users), reads
            return self._reads

    async def catch_up(self) -> int:
        """Read each player's direct messages since the last one the bot handled: orders for a
        phase that still takes them are recorded and answered as any submission; the others are
        answered that they were not read. Returns how many players were answered. A player whose
        messages could not be read is tried again later (and by their next live message)."""
        read = told = recorded = failed = 0
        try:
            await self._list()
        except Exception:  # a fault of ours (the database away): nobody is answered before listed
            if _cut_short():
                raise
            log.exception("could not list the players whose direct messages sent while offline to read")
            self._retry_later()
            return 0
        finally:
            self._listed.set()  # a live message waits for this, never for ever
        left = 0
        players = [user_id for user_id in self._players if user_id in self._waiting]
        for number, user_id in enumerate(players):
            if self.services.stopping or failed >= FAILURES_PER_PASS:
                left = len(players) - number  # none of it marked read: the next try's, or start's
                break
            async with self._locks.of(user_id):
                if user_id not in self._waiting:
                    continue  # caught up already, for a live message of theirs
                try:
                    answered, orders = await self._catch_up_with(user_id)
                except Exception as exc:
                    if _cut_short():
                        raise
                    failed += 1
                    self._failed(user_id, exc)
                    continue
            read += 1
            told += answered
            recorded += orders
        log.info(
            "direct messages sent while offline: read %d players' messages, answered %d "
            "(%d messages with orders recorded)",
            read,
            told,
            recorded,
        )
        if left and self.services.stopping:
            log.info("stopping: %d players' direct messages sent while offline left for the next start", left)
        elif self._waiting:
            log.warning(
                "%d players' direct messages sent while offline could not be read yet", len(self._waiting)
            )
            self._retry_later()
        return told

    @staticmethod
    def _failed(user_id: int, exc: Exception) -> None:
        """A player's catch-up failed: Discord's error in a line, any other (ours) with its traceback."""
        if isinstance(exc, discord.HTTPException):
            log.warning("could not read %s's direct messages sent while offline: %s", user_id, exc)
        else:
            log.error("could not read %s's direct messages sent while offline", user_id, exc_info=exc)

    async def _catch_up_with(self, user_id: int) -> tuple[bool, int]:
        """One player's messages since the last one handled (the caller holds their lock): whether
        any was answered, and how many had their orders recorded. The player is caught up once this
        returns; an exception (Discord's or the database's) leaves them to catch up again, from the
        first message not marked handled."""
        reads = self._reads
        if reads is None:
            raise RuntimeError("the catch-up has not listed whose messages to read")
        last = reads.last.get(user_id)
        since = discord.utils.time_snowflake(discord.utils.utcnow() - OFFLINE_LOOKBACK)
        dm = await self.bot.create_dm(discord.Object(id=user_id))
        unread: list[discord.Message] = []
        async for seen in dm.history(
            limit=HISTORY_LIMIT, after=discord.Object(id=max(last or 0, since)), oldest_first=True
        ):
            if seen.author.id == user_id and seen.id not in self._live:
                unread.append(seen)
            elif last is None and seen.created_at < reads.began:
                # no message of theirs handled since the records began (the upgrade): one the
                # bot answered before then was read
                unread.clear()
        answered = False
        recorded = 0
        missed: list[discord.Message] = []
        for message in unread:
            outcome = await self._record_missed(message)
            if outcome is Outcome.MISSED:
                missed.append(message)
                continue
            self._handled[user_id] = message.id
            if outcome is not Outcome.ALREADY:
                answered = True
                recorded += outcome is Outcome.RECORDED
            await self._tell_missed(missed)
            missed = []
        if missed:
            answered = True
            await self._tell_missed(missed)
        if unread:
            self._handled[user_id] = unread[-1].id
        self._waiting.discard(user_id)
        return answered, recorded

    async def _tell_missed(self, missed: list[discord.Message]) -> None:
        """One answer, to the last of them, for messages sent while offline that were not read;
        marked handled once the answer is out (a crash before would rather answer twice than not)."""
        if not missed:
            return
        try:
            await missed[-1].reply(MISSED_WHILE_OFFLINE, mention_author=False)
        except discord.HTTPException as exc:
            log.info("could not answer %s's direct message sent while offline: %s", missed[-1].author.id, exc)
        await self._mark(missed[-1])

    async def _record_missed(self, message: discord.Message) -> Outcome:
        """A direct message sent while the bot was offline: if it holds orders for a phase that still
        takes them, record them and answer as any submission; refused with a reason (several games,
        none named), answer that; else MISSED: the caller asks the player to send them again."""
        content = message.content or ""
        if not content.strip() or content.strip().casefold() in HELP_WORDS:
            return Outcome.MISSED
        wanted, orders_text = split_game_line(content)
        if orders_text.strip().strip(".!").casefold() in READY_WORDS:
            return Outcome.MISSED
        if split_press(orders_text) is not None:  # talk sent while offline: carried now
            lines = await self._press(message)
            try:
                await message.reply("\n".join(lines)[:2000], mention_author=False)
            except discord.HTTPException as exc:
                log.info(
                    "could not answer %s's direct message sent while offline: %s", message.author.id, exc
                )
            await self._mark(message)
            return Outcome.ANSWERED
        outcome = Outcome.RECORDED
        try:
            mine = await self.gamemaster.games_of_user(message.author.id)
            game = pick([g for g in mine if g.status in RUNNING_STATES], wanted)
            report = await self.gamemaster.submit_missed_orders(
                game.id, message.author.id, orders_text, sent_at=message.created_at, message_id=message.id
            )
        except AlreadyRead:
            return Outcome.ALREADY
        except OrdersClosed:
            return Outcome.MISSED  # the game moved on while the bot was away
        except GameError as exc:
            lines = [error_text(exc) or str(exc)]
            outcome = Outcome.ANSWERED
        else:
            lead = RECORDED_LATE if message.id in self._late else RECORDED_WHILE_OFFLINE
            lines = [lead, *text.report_lines(report)]
        try:
            for number, part in enumerate(text.chunks(lines)):
                if number == 0:
                    await message.reply(part, mention_author=False)
                else:
                    await message.channel.send(part)
        except discord.HTTPException as exc:
            log.info("could not answer %s's direct message sent while offline: %s", message.author.id, exc)
        if outcome is Outcome.ANSWERED:
            await self._mark(message)
        return outcome

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None:
            return
        if message.guild is not None:
            await self._mentioned_in_server(message, message.guild)
            return
        user_id = message.author.id
        self._live.add(message.id)  # before any wait: the catch-up must not take it for an offline one
        try:
            self._start_catch_up()  # a message may come before on_ready (another shard not ready yet)
            await self._listed.wait()
            async with self._locks.of(user_id):
                if not await self._caught_up(user_id):
                    await self._leave_to_catch_up(message)
                    return
                if message.id <= self._handled.get(user_id, 0):
                    return  # sent as the bot started: the catch-up read it and answered it
                await self._answer_direct(message)
        finally:
            self._live.discard(message.id)

    async def _caught_up(self, user_id: int) -> bool:
        """Whether the player's messages sent while offline are all handled, reading them first if
        the catch-up has not (the caller holds their lock); False when they could not be read."""
        if not self._due:
            return True
        try:
            await self._list()
            if user_id in self._waiting:  # the catch-up has not read this player's messages yet
                await self._catch_up_with(user_id)
        except Exception as exc:
            self._failed(user_id, exc)
            return False
        return True

    async def _leave_to_catch_up(self, message: discord.Message) -> None:
        """A live message whose player's earlier messages could not be read: answered that it was not
        read either, and not marked handled, so that the catch-up tried again reads it after them."""
        self._late.add(message.id)
        try:
            await message.reply(NOT_READ_YET, mention_author=False)
        except discord.HTTPException as exc:
            log.info("could not answer %s's direct message: %s", message.author.id, exc)
        self._retry_later()

    async def _answer_direct(self, message: discord.Message) -> None:
        """A direct message read live: answered line by line; marked handled with the orders it
        records, or after its answer."""
        report: SubmissionReport | None = None
        buttons: discord.ui.View | None = None
        marked = False
        try:
            ready = await self._ready(message)
            if split_press(split_game_line(message.content or "")[1]) is not None:
                lines = await self._press(message)
            elif ready is not None:
                lines, marked = ready, True
            else:
                report = await self._answer(message)
                marked = report is not None
                lines = text.report_lines(report) if report is not None else await self._help(message)
                offer = ready_offer(report.view) if report is not None else None
                if offer is not None:  # nothing left unordered: "All ordered. [Ready]"
                    lines, buttons = [*lines, "", offer[0]], offer[1]
        except AlreadyRead:
            log.info("direct message %s of %s was handled already", message.id, message.author.id)
            return
        except GameError as exc:
            lines = [error_text(exc) or str(exc)]
        except Exception:
            log.exception("a direct message from %s could not be handled", message.author.id)
            lines = [CRASH_TEXT]
        try:
            await self._send_answer(message, lines, report, buttons)
        finally:
            if not marked:
                await self._mark(message)

    async def _mark(self, message: discord.Message) -> None:
        try:
            await self.gamemaster.mark_direct_message_read(message.author.id, message.id)
        except Exception as exc:  # the database is away: the next start's catch-up answers it again
            log.warning("could not record direct message %s as handled: %s", message.id, exc)

    async def _send_answer(
        self,
        message: discord.Message,
        lines: list[str],
        report: SubmissionReport | None,
        buttons: discord.ui.View | None,
    ) -> None:
        parts = text.chunks(lines)
        for index, part in enumerate(parts):
            try:
                if buttons is not None and index == len(parts) - 1:
                    await message.channel.send(part, view=buttons)
                else:
                    await message.channel.send(part)
            except discord.Forbidden as exc:
                log.info("could not answer %s's direct message: %s", message.author.id, exc)
                if report is not None:
                    await self._tell_in_private_channel(message.author.id, report)
                return
            except discord.HTTPException as exc:
                log.warning("could not answer %s's direct message: %s", message.author.id, exc)
                return

    async def _help(self, message: discord.Message) -> list[str]:
        examples = await self._examples(message.author.id)
        how = how_to_order(examples)
        if not (message.content or "").strip():
            like = f", like {examples_text(examples[:1])}" if examples else ""
            return [f"I read orders as text: write one order per line{like}.", how]
        return [how]

    async def _examples(self, user_id: int) -> list[str]:
        """Orders of the player's own units in their (first) running game, to show how orders read."""
        try:
            games = [g for g in await self.gamemaster.games_of_user(user_id) if g.status in RUNNING_STATES]
            return await self.gamemaster.order_examples(games[0].id, user_id) if games else []
        except GameError:
            return []

    async def _press(self, message: discord.Message, game_id: int | None = None) -> list[str]:
        """A typed relay ("to Germany: ...", gm.relaying) of an anonymous game, carried: the answer.
        ``game_id``: the game of the power channel it was written in (None: a direct message, whose
        game is the player's only running one, or the one its first line names)."""
        me = self.bot.user
        content = message.content or ""
        try:
            if game_id is None:
                wanted, content = split_game_line(content)
                mine = await self.gamemaster.games_of_user(message.author.id)
                game_id = pick([g for g in mine if g.status in RUNNING_STATES], wanted).id
            elif me is not None:
                content = without_mentions_of(me.id, content)
            typed = split_press(content)
            if typed is None:
                return []
            to, words = typed
            relayed = await self.gamemaster.relay_press(
                game_id,
                message.author.id,
                to,
                words,
                links=[a.url for a in message.attachments],
                key=str(message.id),
                copy=message.guild is None,  # the original in their channel is the copy already
            )
        except GameError as exc:
            return [error_text(exc) or str(exc)]
        where = "the game channel" if relayed.to == "everyone" else f"{power_name(relayed.to)}'s channel"
        return [
            f"Carried to {where} as {powers_text(relayed.sender)}'s. Edit or delete your message and I "
            "carry that too."
        ]

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edit of a typed relay's original (a direct message, or a message in the player's power
        channel that mentions the bot: the only ones whose words the bot reads) is carried to it."""
        data: Any = payload.data
        author = data.get("author") or {}
        me = self.bot.user
        if author.get("bot") or "content" not in data or me is None or "id" not in author:
            return
        content = str(data["content"] or "")
        if payload.guild_id is not None:
            if not any(str(u.get("id")) == str(me.id) for u in data.get("mentions") or ()):
                return
            content = without_mentions_of(me.id, content)
        else:
            content = split_game_line(content)[1]
        user_id = int(author["id"])
        version = str(data.get("edited_timestamp") or payload.message_id)
        try:
            async with self._locks.of(user_id):  # after the original's own handling
                await self.gamemaster.revise_press(
                    payload.message_id, user_id=user_id, text=content, version=version
                )
        except GameError as exc:
            channel = self.bot.get_partial_messageable(payload.channel_id)
            try:
                await channel.send(
                    error_text(exc) or str(exc), allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as http:
                log.info("could not answer an edit of message %s: %s", payload.message_id, http)
        except Exception:
            log.exception("could not carry the edit of message %s", payload.message_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A typed relay's original deleted: its copies are deleted too."""
        cached = payload.cached_message
        if cached is not None and cached.author.bot:
            return
        try:
            await self.gamemaster.revise_press(payload.message_id, user_id=None, text=None, version="0")
        except Exception:
            log.exception("could not carry the deletion of message %s", payload.message_id)

    async def _ready(self, message: discord.Message) -> list[str] | None:
        """ "ready" or "done" by direct message is /ready (None: the message is something else)."""
        wanted, rest = split_game_line(message.content or "")
        if rest.strip().strip(".!").casefold() not in READY_WORDS:
            return None
        mine = await self.gamemaster.games_of_user(message.author.id)
        game = pick([g for g in mine if g.status in RUNNING_STATES], wanted)
        view = await self.gamemaster.set_ready(game.id, message.author.id, message_id=message.id)
        return [text.ready_words(True, view), *text.view_lines(view)]

    async def _answer(self, message: discord.Message) -> SubmissionReport | None:
        """The submission's report, or None when the message asks for help."""
        content = message.content or ""
        if not content.strip() or content.strip().casefold() in HELP_WORDS:
            return None
        wanted, orders_text = split_game_line(content)
        mine = await self.gamemaster.games_of_user(message.author.id)
        game = pick([g for g in mine if g.status in RUNNING_STATES], wanted)
        report = await self.gamemaster.submit_orders(
            game.id, message.author.id, orders_text, message_id=message.id
        )
        return report

    async def _tell_in_private_channel(self, user_id: int, report: SubmissionReport) -> None:
        """The DM answer bounced (closed DMs): say in the player's power channel that the orders
        arrived, with counts only."""
        places = await self.gamemaster.game_places(report.view.game_id)
        channels = places.channels_of(user_id)
        channel = self.bot.get_channel(channels[0]) if channels else None
        if not isinstance(channel, discord.abc.Messageable):
            return
        lines = [
            f"<@{user_id}>, I got the orders you sent me by direct message, but your direct messages are "
            "closed to me, so I answer here.",
            *text.report_summary(report),
            "`/orders show` lists your orders, and `/order` answers line by line (only you see those). "
            + ONLY_COUNTS,
        ]
        game = await self.gamemaster.get_game(report.view.game_id)
        await _say(channel, lines, user_id, unname=game.settings.anonymous)

    async def _mentioned_in_server(self, message: discord.Message, guild: discord.Guild) -> None:
        """Someone mentioned the bot in a server channel (the only server messages it can read): in
        their own power channel it is orders; elsewhere orders are not read, and the answer says where
        they go, without repeating what was written."""
        me = self.bot.user
        if me is None or me not in message.mentions:
            return
        game_id = await self.gamemaster.game_of_channel(message.channel.id)
        if game_id is not None:
            places = await self.gamemaster.game_places(game_id)
            if message.channel.id in places.channels_of(message.author.id):
                await self._orders_in_own_channel(
                    message, game_id, without_mentions_of(me.id, message.content)
                )
                return
        answer = PUBLIC_MENTION if is_public(message.channel, guild) else PRIVATE_MENTION
        try:
            await message.reply(answer, mention_author=False)
        except discord.HTTPException as exc:
            log.info("could not answer a mention in channel %s: %s", message.channel.id, exc)

    async def _orders_in_own_channel(self, message: discord.Message, game_id: int, content: str) -> None:
        author = message.author.id
        if split_press(content) is not None:
            try:
                await message.reply("\n".join(await self._press(message, game_id)), mention_author=False)
            except discord.HTTPException as exc:
                log.info("could not answer a relay in channel %s: %s", message.channel.id, exc)
            return
        if not content or content.casefold() in HELP_WORDS:
            try:
                examples = await self.gamemaster.order_examples(game_id, author)
            except GameError:
                examples = []
            await _say(message.channel, [how_to_order_here(examples)], author)
            return
        try:
            report = await self.gamemaster.submit_orders(game_id, author, content)
        except GameError as exc:
            await _say(message.channel, [f"<@{author}>, {error_text(exc) or exc}"], author)
            return
        offer = ready_offer(report.view)
        lines = text.report_lines(report) + (["", offer[0]] if offer is not None else [])
        by_dm = await self._send_dm(message.author, lines, offer[1] if offer is not None else None)
        where = (
            "Each line's answer is in our direct messages."
            if by_dm
            else "Your direct messages are closed to me: `/orders show` lists your orders and `/order` "
            "answers line by line (only you see those)."
        )
        await _say(
            message.channel,
            [f"<@{author}>, got it.", *text.report_summary(report), where, ONLY_COUNTS],
            author,
        )

    @staticmethod
    async def _send_dm(
        user: discord.User | discord.Member, lines: list[str], buttons: discord.ui.View | None = None
    ) -> bool:
        try:
            parts = text.chunks(lines)
            for index, part in enumerate(parts):
                if buttons is not None and index == len(parts) - 1:
                    await user.send(part, view=buttons)
                else:
                    await user.send(part)
        except discord.HTTPException:
            return False
        return True


def _cut_short() -> bool:
    """A stop out of time is cancelling this work: what it raised unwinding is the stop's (cogs.shared.
    base), not a failure to try again."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _say(
    channel: discord.abc.Messageable, lines: list[str], user_id: int, *, unname: bool = False
) -> None:
    """Post in a channel, notifying ``user_id`` only. ``unname``: once posted (and so notified), the
    mention is edited away (an anonymous game: whoever holds the seat later reads the channel)."""
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(id=user_id)])
    mention = re.compile(rf"<@!?{user_id}>,? ?")
    for part in text.chunks(lines):
        try:
            posted = await channel.send(part, allowed_mentions=mentions)
            if unname and mention.search(part):
                words = mention.sub("", part)
                await posted.edit(content=words[:1].upper() + words[1:])
        except discord.HTTPException as exc:
            log.info("could not answer in channel %s: %s", getattr(channel, "id", None), exc)
            return


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DirectMessages(bot))
