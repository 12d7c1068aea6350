"""Finding a server's member by id, for the places that give or take a member's access."""

from __future__ import annotations

import discord


async def member_of(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """The server's member ``user_id`` (from the cache, else asked), or None when gone."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None
