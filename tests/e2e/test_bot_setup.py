"""Setting the bot up: what an operator sees when the token is missing, and the invite link the
README gives asks for what the bot needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot
from cogs.places.spaces import BOT_PERMISSIONS
from config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_token_explains_how_to_make_and_invite_a_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot.main([]) == 2
    said = capsys.readouterr().err
    assert "discord_token" in said.lower()
    assert "https://discord.com/developers/applications" in said
    assert "'bot' and 'applications.commands'" in said
    assert f"permissions={BOT_PERMISSIONS.value}" in said
    assert "The first start publishes the slash commands" in said


def test_settings_come_from_a_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "MODERATOR_ROLE"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=debug\nMODERATOR_ROLE=Umpires\n")
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "abc"
    assert (settings.log_level, settings.moderator_role) == ("DEBUG", "Umpires")
    assert settings.database_url.startswith("sqlite+aiosqlite:///")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=loud\n")
    with pytest.raises(ValueError, match="unknown log level"):
        Settings()


def test_the_readme_invite_link_asks_for_the_permissions_the_bot_needs() -> None:
    readme = (ROOT / "README.md").read_text()
    [asked] = re.findall(r"permissions=(\d+)", readme)
    assert int(asked) == BOT_PERMISSIONS.value
