"""An anonymous game's power whose seat changes hands (a replacement, a take-over, a hand-over) gets a
new private channel: what was written in the old one shows who wrote it (Discord names every
message's author, its replies and reactions), and the bot may not delete its members' messages (it
does not ask for Manage Messages). So, before the seat's change is announced:

- the old channel is closed to the player who leaves and shielded from the newcomer; it stays, renamed
  ``...-old``, for the moderators (its relays' edits and deletions still reach it);
- a new channel, named as the power's was, opens to the newcomer, with a transcript of the old one
  as a file: every message's words, embeds and file names, written by "France's player (before)" or
  the bot, every mention of a member said "a player";
- the new channel becomes the power's: every message to the power goes there from then on, and the
  newcomer's welcome points to it.

Each step is recorded (gm.setup.places.record_place, keyed by the power and the announcement) or
checked on the server before it is taken, so a run cut short (a crash, a restart, Discord failing) is
finished by the next one with the same channels: none is made twice, none is left without its player.
When the server refuses a new channel (full), the old one moves to the newcomer as in other games.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable

import discord

from cogs.places.spaces import SHIELD, moderator_role, place_prefix, players_of, private_overwrites
from cogs.shared.text import power_name
from gm.public import GameInfo, GamePlaces, PlaceKind, Recorder

log = logging.getLogger(__name__)

PowerSwitch = Callable[[int, str, int], Awaitable[None]]
"""How a power's channel becomes the new one: (game, power, channel) (the gamemaster's set_power_channel)."""
MENTION = re.compile(r"<@!?(\d+)>")
OLD_SUFFIX = "-old"
TRANSCRIPT_LIMIT = 8 * 1024 * 1024 - 1024
NOTE = (
    "**{power}** changed hands: this is its private channel from now on. What was written in its "
    "channel before is in the file below, nobody named in it; the moderators keep the old channel."
)


def transcript_name(power: str) -> str:
    return f"{power.lower()}-before.txt"


async def renew_power_channels(
    guild: discord.Guild,
    places: GamePlaces,
    game: GameInfo,
    *,
    powers: list[str],
    newcomer: int,
    leaver: int | None,
    key: str,
    moderators: str,
    record: Recorder,
    switch: PowerSwitch,
) -> None:
    """Give each of ``powers`` a new private channel for ``newcomer`` (see the module docstring);
    ``key`` tells this change of hands from any other (the announcement's outbox row)."""
    for power in powers:
        place_key = f"{power}:{key}"
        old_id = places.made.get((PlaceKind.FORMER_CHANNEL, place_key)) or places.power_channels.get(power)
        if old_id is None:
            continue
        if (PlaceKind.FORMER_CHANNEL, place_key) not in places.made:
            await record(PlaceKind.FORMER_CHANNEL, old_id, place_key)
        old = guild.get_channel(old_id)
        new_id = places.made.get((PlaceKind.SEAT_CHANNEL, place_key))
        new = guild.get_channel(new_id) if new_id is not None else None
        if not isinstance(new, discord.TextChannel):
            try:
                new = await _make_new(guild, places, game, power, newcomer, leaver, moderators)
            except discord.HTTPException as exc:  # the server full: the newcomer gets the old channel
                log.warning("game %s: no new channel for %s (%s): the old one moves", game.id, power, exc)
                continue
            await record(PlaceKind.SEAT_CHANNEL, new.id, place_key)
        if isinstance(old, discord.TextChannel):
            await _close_old(old, power, {u for u in (leaver, newcomer) if u is not None})
            await _carry_history(old, new, power, guild.me.id)
        if places.power_channels.get(power) != new.id:
            await switch(game.id, power, new.id)


async def _close_old(old: discord.TextChannel, power: str, shut_out: set[int]) -> None:
    """The old channel: the moderators' only (its player and the newcomer shielded), renamed."""
    overwrites = dict(old.overwrites)
    changed = False
    for user_id in sorted(shut_out):
        target = next((t for t in overwrites if t.id == user_id), None) or discord.Object(id=user_id)
        if overwrites.get(target) != SHIELD:
            overwrites[target] = SHIELD
            changed = True
    name = old.name if old.name.endswith(OLD_SUFFIX) else f"{old.name}{OLD_SUFFIX}"[:100]
    if changed or name != old.name:
        await old.edit(
            name=name,
            overwrites=overwrites,
            topic=f"{power_name(power)}'s channel before its seat changed hands: the moderators' only.",
            reason="an anonymous power changed hands",
        )


async def _make_new(
    guild: discord.Guild,
    places: GamePlaces,
    game: GameInfo,
    power: str,
    newcomer: int,
    leaver: int | None,
    moderators: str,
) -> discord.TextChannel:
    overwrites = private_overwrites(guild, moderator_role(guild, moderators), players_of(game), [newcomer])
    if leaver is not None and leaver != newcomer:  # a moderator who played reads it no more either
        overwrites[discord.Object(id=leaver)] = SHIELD
    category = guild.get_channel(places.category_id) if places.category_id is not None else None
    return await guild.create_text_channel(
        f"{place_prefix(game.id, places.place_tag)}-{power.lower()}",
        category=category if isinstance(category, discord.CategoryChannel) else None,
        overwrites=overwrites,
        topic=f"{power_name(power)}'s private channel: only its player, the moderators and the bot.",
        reason="an anonymous power changed hands",
    )


async def _carry_history(old: discord.TextChannel, new: discord.TextChannel, power: str, bot_id: int) -> None:
    """The old channel's transcript posted in the new one, unless an earlier run posted it."""
    name = transcript_name(power)
    async for message in new.history(limit=20, oldest_first=True):
        if message.author.id == bot_id and any(a.filename == name for a in message.attachments):
            return
    lines = []
    async for message in old.history(limit=None, oldest_first=True):
        lines += _transcribed(message, power, bot_id)
    data = ("\n".join(lines) or "(nothing was written there)").encode()
    if len(data) > TRANSCRIPT_LIMIT:  # within Discord's smallest upload limit: the newest part
        data = b"(the start is left out: too long)\n" + data[-TRANSCRIPT_LIMIT:]
    await new.send(
        NOTE.format(power=power_name(power)),
        file=discord.File(io.BytesIO(data), filename=name),
        allowed_mentions=discord.AllowedMentions.none(),
    )


def _transcribed(message: discord.Message, power: str, bot_id: int) -> list[str]:
    """One message of the old channel as the transcript says it: its writer as the power's player
    or the bot, member mentions as "a player"."""
    who = "the bot" if message.author.id == bot_id else f"{power_name(power)}'s player (before)"
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
    parts += [f"[file {a.filename}]" for a in message.attachments]
    text = "\n".join(p for p in parts if p)
    text = MENTION.sub(lambda m: "the bot" if int(m.group(1)) == bot_id else "a player", text)
    when = message.created_at.strftime("%Y-%m-%d %H:%M UTC")
    return [f"[{when}] {who}:", *(f"  {line}" for line in text.splitlines()), ""]
