"""A server on the fake Discord with a bot member, for the fake's own tests."""

from __future__ import annotations

from dataclasses import dataclass

from harness.fakediscord import (
    Channel,
    FakeDiscord,
    Guild,
    Permission,
    Role,
    User,
)


@dataclass
class Server:
    guild: Guild
    general: Channel
    moderator_role: Role
    alice: User
    bob: User
    mod: User


async def make_server(fake: FakeDiscord) -> Server:
    guild = await fake.create_guild("Diplomacy Club")
    moderator_role = await fake.create_role(
        guild, "Moderator", Permission.MANAGE_GUILD | Permission.MANAGE_THREADS
    )
    alice = await fake.create_user("alice")
    bob = await fake.create_user("bob")
    mod = await fake.create_user("mod")
    await fake.add_member(guild, alice)
    await fake.add_member(guild, bob)
    await fake.add_member(guild, mod, moderator_role)
    general = await fake.create_channel(guild, "general")
    return Server(guild, general, moderator_role, alice, bob, mod)
