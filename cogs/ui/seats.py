"""Open seats in the game channel: "Take over France" under the announcement that a player left or
fell into civil disorder, and "Approve" / "Decline" under a request when the game wants a moderator
to approve (gm.moderation.takeover decides who may do what).

The buttons are DynamicItems (their custom_id carries the game, the power and, for a request, the
member who asked), so they keep working after a restart. A click on a seat taken already, by a player
of the game, or by a moderator who plays is refused with the reason, and nothing changes. A button
that has done its work is turned off.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.places.members import member_of
from cogs.places.spaces import sees_everything
from cogs.shared import mod_flows as modflows
from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.context import is_server_moderator
from cogs.shared.replies import answering, defer, send
from cogs.ui.guard import Guarded

log = logging.getLogger(__name__)

POWER = r"[A-Z][A-Z_\-]{0,31}"


class TakeOverButton(Guarded[discord.ui.Button], template=rf"seat:(?P<game_id>\d+):(?P<power>{POWER})"):
    """Under an open seat's announcement: a member who does not play takes it (or asks for it)."""

    def __init__(self, game_id: int, power: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or f"Take over {text.power_name(power)}")[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"seat:{game_id}:{power}",
            )
        )
        self.game_id, self.power = game_id, power

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakeOverButton:
        return cls(int(match["game_id"]), match["power"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._take)(interaction)

    async def _take(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        await defer(interaction)
        await services.gamemaster.game_on_server(
            self.game_id, interaction.guild_id, pressed_in=interaction.channel_id
        )
        unhidden = sees_everything(interaction.user)
        reads = interaction.guild_id is not None and await is_server_moderator(
            interaction.client, interaction.user.id, interaction.guild_id
        )
        result = await services.gamemaster.take_over(
            self.game_id, interaction.user.id, self.power, sees_all=unhidden, reads_places=reads
        )
        if result.action == "take_over_request":
            await send(
                interaction,
                [text.safe_keeping_users(result.message), "You will get a direct message either way."],
            )
            return
        powers = text.powers_text(result.details["replacement"].powers)
        await send(
            interaction,
            [
                f"You now play {powers}. You get its private channel and negotiation spaces, and a "
                "direct message with its units, the orders given so far and the deadline.",
                "Send orders with /order, /orders edit or by direct message to me.",
            ],
        )
        await _turn_off(interaction, {self.custom_id})


REQUEST_LIMIT = 2**31 - 1  # an outbox row's number (a request's) is a 32-bit integer


class SeatDecisionButton(
    Guarded[discord.ui.Button],
    template=rf"seat-(?P<choice>ok|no):(?P<game_id>\d+):(?P<power>{POWER}):(?P<user_id>r?\d+)",
):
    """Under a request to take over a seat: a moderator approves or declines it. The id names who
    asked, or in an anonymous game (where everyone who sees a button may read its id) the request
    (``r`` and its number: gm.anonymity.requester_of)."""

    def __init__(
        self, choice: str, game_id: int, power: str, user_id: int, request: int | None = None
    ) -> None:
        approve = choice == "ok"
        asker = f"r{request}" if request is not None else str(user_id)
        super().__init__(
            discord.ui.Button(
                label="Approve" if approve else "Decline",
                style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
                custom_id=f"seat-{choice}:{game_id}:{power}:{asker}",
            )
        )
        self.choice, self.game_id, self.power, self.user_id = choice, game_id, power, user_id
        self.request = request

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatDecisionButton:
        asker = match["user_id"]
        if asker.startswith("r"):
            request = int(asker[1:])
            if request > REQUEST_LIMIT:
                raise ValueError("no request has that number")
            return cls(match["choice"], int(match["game_id"]), match["power"], 0, request)
        return cls(match["choice"], int(match["game_id"]), match["power"], int(asker))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._decide)(interaction)

    async def _decide(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        await defer(interaction)
        game = await services.gamemaster.game_on_server(
            self.game_id, interaction.guild_id, pressed_in=interaction.channel_id
        )
        actor = await modflows.actor_of(interaction, game)
        services.gamemaster.check_moderator(game, actor, "replace")
        user_id = self.user_id
        if self.request is not None:
            user_id = await services.gamemaster.take_over_requester(game.id, self.request)
        asker = await member_of(interaction.guild, user_id) if interaction.guild is not None else None
        result = await services.gamemaster.decide_take_over(
            game.id,
            actor,
            self.power,
            user_id,
            approve=self.choice == "ok",
            sees_all=sees_everything(asker),
            reads_places=await is_server_moderator(interaction.client, user_id, game.guild_id),
        )
        await send(interaction, modflows.answer_lines(result))
        await _turn_off(interaction, None)


def seat_view(game_id: int, seats: list[list[str]]) -> discord.ui.View:
    """A "Take over" button per open seat (named by all its powers, keyed by the first)."""
    view = discord.ui.View(timeout=None)
    for powers in seats[:25]:
        label = f"Take over {text.powers_text(powers)}"
        view.add_item(TakeOverButton(game_id, powers[0], label))
    return view


def decision_view(game_id: int, power: str, user_id: int, request: int | None = None) -> discord.ui.View:
    """Approve and Decline under a take-over request; ``request``: the ids name the request instead of
    the member (an anonymous game)."""
    view = discord.ui.View(timeout=None)
    view.add_item(SeatDecisionButton("ok", game_id, power, user_id, request))
    view.add_item(SeatDecisionButton("no", game_id, power, user_id, request))
    return view


async def _turn_off(interaction: discord.Interaction, custom_ids: set[str] | None) -> None:
    """Disable the clicked message's buttons (``None``: all of them); best effort."""
    message = interaction.message
    if message is None:
        return
    try:
        view = discord.ui.View.from_message(message, timeout=None)
        for item in view.children:
            if isinstance(item, discord.ui.Button) and (custom_ids is None or item.custom_id in custom_ids):
                item.disabled = True
        await message.edit(view=view)
    except discord.HTTPException as exc:
        log.info("could not turn off the buttons of message %s: %s", message.id, exc)


TAKEN_MARK = "**Seat taken:**"
BACK_MARK = "**Player back:**"


async def mark_taken(
    message: discord.Message,
    game_id: int,
    powers: list[str],
    new_user_id: int | None,
    *,
    returning: bool = False,
) -> None:
    """An open seat's post once the seat has a player again, a new one or (``returning``) its own,
    back: it says so, and its Take over button for that seat is turned off (idempotent: a post
    marked already is left as it is)."""
    embed = message.embeds[0] if message.embeds else None
    names = text.powers_text(powers)
    who = f"<@{new_user_id}>" if new_user_id else "a new player"
    if returning:
        words = f"{BACK_MARK} {who} plays {names} again; that seat is no longer open."
    else:
        words = f"{TAKEN_MARK} {who} now plays {names}; that seat is no longer open."
    if embed is None or words in (embed.description or ""):
        return
    embed.description = f"{embed.description or ''}\n\n{words}"[:4096]
    view = discord.ui.View.from_message(message, timeout=None)
    closed = {f"seat:{game_id}:{power}" for power in powers}
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.custom_id in closed:
            item.disabled = True
    await message.edit(embeds=[embed, *message.embeds[1:]], view=view)


def setup_buttons(client: discord.Client) -> None:
    client.add_dynamic_items(TakeOverButton, SeatDecisionButton)
