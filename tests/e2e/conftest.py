"""Fixtures for end-to-end tests: a fake Discord on 127.0.0.1 with discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from harness.fakediscord import FakeDiscord, fake_discord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; discord.http.Route.BASE and DEFAULT_GATEWAY point at it during the test."""
    async with fake_discord() as started:
        yield started
