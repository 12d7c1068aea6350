"""The door the bot closes when it stops: from then on an interaction (a slash command, a button, a
form) is answered "restarting, try again in a minute" instead of being acted on, and a message (an
order by DM or by mention) is left unread; the bot's direct-message catch-up tells its author at the
next start, as for any message sent while the bot was offline (cogs.commands.direct).

discord.py offers no public hook that sees every interaction before it is acted on (slash commands
go to the command tree, buttons and forms to the view store), so the gate wraps the connection
state's parsers of the two gateway events (``INTERACTION_CREATE``, ``MESSAGE_CREATE``): pinned
discord.py 2.7.1, checked by tests/e2e/test_bot_shutdown.py.

The same door holds the per-member rate limit (ops.limits): an interaction, or a message the bot would
read (a direct message, a mention of the bot), from a member over their limit is dropped there, on the
raw event, before discord.py parses it and before any database work; the member is told once in a
while (one answer per flood, not one per interaction), and each one dropped is counted (/metrics).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from gm.delivery import lanes
from ops.limits import MemberLimiter, Refusal, slow_down
from ops.turns import answer_key, rank_of, reply_key

log = logging.getLogger(__name__)

RESTARTING = "The bot is restarting and did not act on that. Please try again in a minute."
AUTOCOMPLETE = 4  # interaction type: the user is typing an option; answered with no suggestions
AUTOCOMPLETE_COST = 0.25  # of a member's tokens: sent at each keystroke while typing an option
UNREAD = (
    "Slow down: you are sending me messages faster than I read them from one member, so I did not "
    "read that one (nor any you send before you slow down). Send it again in {seconds} s."
)


class InteractionGate:
    def __init__(
        self,
        client: discord.Client,
        on_interaction: Callable[[int], None] | None = None,
        *,
        limiter: MemberLimiter | None = None,
        on_limited: Callable[[str], None] | None = None,
    ) -> None:
        """``on_interaction(id)``: told of each interaction let in (the metrics time its answer);
        ``limiter``: the per-member rate limit (None: none); ``on_limited(kind)``: told of each
        interaction or message it drops (``interaction`` or ``message``)."""
        self._client = client
        self._on_interaction = on_interaction
        self.limiter = limiter
        self._on_limited = on_limited
        self.open = True
        self.refused = 0  # interactions answered "restarting"
        self.ignored = 0  # messages left unread
        self.limited = 0  # interactions and messages dropped by the rate limit
        self._answers: set[asyncio.Task[None]] = set()
        parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
        parsers["INTERACTION_CREATE"] = self._guard(
            self._limit_interactions(self._noted(parsers["INTERACTION_CREATE"])), self._refuse
        )
        parsers["MESSAGE_CREATE"] = self._guard(self._limit_messages(parsers["MESSAGE_CREATE"]), self._ignore)

    def close(self) -> None:
        self.open = False

    async def idle(self) -> None:
        """Wait for the "restarting" answers already under way."""
        while self._answers:
            await asyncio.gather(*list(self._answers), return_exceptions=True)

    def _guard(self, parse: Callable[[Any], None], otherwise: Callable[[Any], None]) -> Callable[[Any], None]:
        def guarded(data: Any) -> None:
            (parse if self.open else otherwise)(data)

        return guarded

    def _noted(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def noted(data: Any) -> None:
            try:
                interaction_id = int(data["id"])
            except (KeyError, TypeError, ValueError):
                parse(data)
                return
            if self._on_interaction is not None:
                self._on_interaction(interaction_id)
            turns = lanes.turns()
            owed = turns.owe(lanes.ANSWER, answer_key(interaction_id))

            def now() -> None:  # its slot (gm.delivery.lanes): discord.py reads it, its handlers start
                with lanes.working_for(owed):
                    (parse if self.open else self._refuse)(data)

            turns.admit(owed, now, rank_of(self._client, data), _interaction_user(data))

        return noted

    def _limit_interactions(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def limited(data: Any) -> None:
            refusal = self._take(
                _interaction_user(data), AUTOCOMPLETE_COST if _kind(data) == AUTOCOMPLETE else 1
            )
            if refusal is None:
                parse(data)
                return
            self._count("interaction")
            if refusal.tell and _kind(data) != AUTOCOMPLETE:  # a typed option's suggestions: none
                interaction = discord.Interaction(data=data, state=self._client._connection)
                self._spawn(self._send(interaction, slow_down(refusal)))

        return limited

    def _limit_messages(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def limited(data: Any) -> None:
            reader = self._reader_of(data)
            refusal = self._take(reader, 1)
            if refusal is None:
                if reader is not None and data.get("guild_id") is None:  # a direct message: owed its reply
                    self._read_direct(parse, data)
                    return
                parse(data)
                return
            self._count("message")
            if refusal.tell:
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    channel = self._client.get_partial_messageable(int(data["channel_id"]))
                    self._spawn(self._post(channel, UNREAD.format(seconds=refusal.seconds)))

        return limited

    def _read_direct(self, parse: Callable[[Any], None], data: Any) -> None:
        """A direct message owes its reply from now; it is read (discord.py's parse, its handler
        started) once no orders form is owed (gm.delivery.lanes.Turns.behind_forms): its handler's
        first step (the orders read and checked) does not fill the loop's rounds a form opens in.
        Read after the door closed: left unread, as at the door."""
        turns = lanes.turns()
        owed = turns.owe(lanes.REPLY, reply_key(int(data["id"])))

        def now() -> None:
            if not self.open:
                self._ignore(data)
                turns.pay(owed.key)
                return
            with lanes.working_for(owed):
                parse(data)

        turns.behind_forms(now)

    def _take(self, member_id: int | None, cost: float) -> Refusal | None:
        if self.limiter is None or member_id is None:
            return None
        return self.limiter.take(member_id, cost)

    def _count(self, kind: str) -> None:
        self.limited += 1
        if self._on_limited is not None:
            self._on_limited(kind)

    def _reader_of(self, data: Any) -> int | None:
        """The author of a message the bot reads (a direct message, or one that mentions the bot);
        None for the others (the bot's own, other bots', a server's chat), which are not limited."""
        try:
            author = data["author"]
            if author.get("bot") or data.get("webhook_id"):
                return None
            me = self._client.user
            mentioned = me is not None and any(
                str(m.get("id")) == str(me.id) for m in data.get("mentions") or ()
            )
            return int(author["id"]) if data.get("guild_id") is None or mentioned else None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def _spawn(self, answer: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(answer, name="gate-answer")
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    @staticmethod
    async def _send(interaction: discord.Interaction, text: str) -> None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(text, ephemeral=True)

    @staticmethod
    async def _post(channel: discord.PartialMessageable, text: str) -> None:
        with contextlib.suppress(discord.HTTPException):
            await channel.send(text)

    def _ignore(self, _data: Any) -> None:
        self.ignored += 1

    def _refuse(self, data: Any) -> None:
        self.refused += 1
        interaction = discord.Interaction(data=data, state=self._client._connection)
        task = asyncio.get_running_loop().create_task(self._answer(interaction), name="gate-refusal")
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    @staticmethod
    async def _answer(interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.HTTPException):
            if interaction.type.value == AUTOCOMPLETE:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)


def _kind(data: Any) -> int | None:
    try:
        return int(data["type"])
    except (KeyError, TypeError, ValueError):
        return None


def _interaction_user(data: Any) -> int | None:
    """Who sent an interaction (a server's member, or a user in direct messages), from the raw event."""
    try:
        user = data["member"]["user"] if data.get("member") else data["user"]
        return int(user["id"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
