"""The bot's settings, from the environment and `.env` (see .env.example).

One order, the same everywhere (README, "Running it"): a variable of the process's environment wins,
then a line of ``.env`` in the working directory, then the default below. An empty value means the
default. The deployments put their own values in the environment, and their supervisor decides
which of them wins (harness/deployments.py says how each one does, and tests/test_deploy_env.py
proves it): Docker's ``--env-file``/``env_file:`` over the image's ``ENV``, compose's
``environment:`` over both; systemd's ``EnvironmentFile=`` over ``Environment=``. So .env.example sets
nothing but DISCORD_TOKEN: a line left commented keeps the deployment's value."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import discord
from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from db.backup import sqlite_path
from db.database import DEFAULT_DATABASE_URL, url_problem
from gm.delivery.shards import NAME, Ownership
from ops.logjson import JsonFormatter

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class Settings(BaseSettings):
    """Environment variables (names are the field names in upper case)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr
    database_url: str = DEFAULT_DATABASE_URL
    moderator_role: str = "Diplomacy Moderator"
    """Members with this role (or Manage Server) moderate every game on the server."""
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"
    """``json``: one JSON object per line (ops.logjson), for a log collector."""
    sync_commands: bool | None = None
    """Publish the slash commands at start-up: unset or ``auto`` when Discord's are missing or differ
    (ops.commands), ``true`` always, ``false`` never."""
    close_workers: int = Field(default=2, ge=0, le=16)
    """Processes for adjudication and map rendering (0: a thread inside the bot)."""
    forming_games_per_user: int = Field(default=3, ge=1, le=100)
    """Games one user may have created that still wait for players (against spam)."""
    forming_games_per_server: int = Field(default=25, ge=1, le=1000)
    """Games waiting for players one server may have at once."""
    connect_timeout: float = Field(default=60.0, gt=0, le=3600)
    """Seconds to wait at start-up for Discord's API to answer, then for its gateway to connect."""
    shutdown_timeout: float = Field(default=30.0, ge=0, le=3600)
    """Seconds a stop (SIGTERM, Ctrl-C) waits for the work under way; what is left then is finished
    by the next start. Keep it below the supervisor's own limit (Docker's stop_grace_period,
    systemd's TimeoutStopSec)."""
    migration_backups: int = Field(default=3, ge=0, le=100)
    """Backups kept from before each schema upgrade: of the SQLite file, or PostgreSQL dumps where
    pg_dump is installed (0: make none)."""
    backup_dir: Path | None = None
    """Where the backups made before a schema upgrade go (default: next to the SQLite file; for
    PostgreSQL the working directory)."""
    member_burst: int = Field(default=20, ge=1, le=10_000)
    member_rate: float = Field(default=4.0, gt=0, le=1000)
    """The per-member rate limit on interactions and the messages the bot reads (ops.limits): a
    member may send ``member_burst`` at once, then ``member_rate`` a second; what is over is dropped
    before any work, the member told once in a while."""
    player_records: bool = False
    """Show each player's record on the server (games, solos, draws, reliability: /stats) beside their
    name in a forming game's Join post."""
    health_port: int | None = Field(default=None, ge=0, le=65535)
    """The port of the HTTP endpoint with /healthz and /metrics (unset: none is served)."""
    health_host: str = "127.0.0.1"
    """The address it listens on: this machine only by default, or when empty (0.0.0.0: every
    interface; any address but the loopback is logged as a warning at start)."""
    metrics_token: SecretStr | None = None
    """When set, /metrics answers only a request with ``Authorization: Bearer <token>`` (/healthz
    stays open: it tells nothing but ok or what is wrong)."""
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    """How many shards the bot runs, over all its processes (unset: Discord says, and this one
    process runs them all)."""
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process runs, a comma list like ``0,1`` (unset: all of them). Needs
    SHARD_COUNT. Several processes on one database each run their own shards (README)."""
    event_loop: Literal["uvloop", "asyncio"] = "uvloop"
    """The event loop the bot runs on (ops.eventloop): ``uvloop`` where it is installed (Linux and
    macOS; otherwise asyncio's, which ``asyncio`` asks for always)."""
    process_name: str | None = None
    """This process's name among several (its outbox claims carry it; a restart under the same name
    takes back its predecessor's claims at once). Unset: derived from SHARD_IDS, e.g. ``shards-0-1``."""

    @field_validator("discord_token")
    @classmethod
    def _token_given(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("empty; put your bot's token after DISCORD_TOKEN= in .env")
        return value

    @field_validator("database_url")
    @classmethod
    def _usable_url(cls, value: str) -> str:
        problem = url_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value.strip()

    @field_validator("sync_commands", mode="before")
    @classmethod
    def _auto_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and value.strip().lower() in ("", "auto") else value

    @field_validator("health_host", mode="before")
    @classmethod
    def _blank_is_loopback(cls, value: object) -> object:
        return "127.0.0.1" if value is None or (isinstance(value, str) and not value.strip()) else value

    @field_validator("metrics_token", mode="before")
    @classmethod
    def _blank_is_no_token(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("event_loop", mode="before")
    @classmethod
    def _blank_is_uvloop(cls, value: object) -> object:
        return "uvloop" if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_count", "process_name", "backup_dir", "health_port", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if not parts:
            return None
        wrong = [part for part in parts if not part.isdigit()]
        if wrong:
            raise ValueError(f"not shard numbers: {', '.join(wrong)}; write them like 0,1")
        return tuple(int(part) for part in parts)

    @field_validator("shard_ids")
    @classmethod
    def _within_count(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        if len(set(value)) != len(value):
            raise ValueError(f"a shard is named twice in {','.join(map(str, value))}")
        count = info.data.get("shard_count")
        if count is None:
            if "shard_count" in info.data:  # given and valid, just unset
                raise ValueError("needs SHARD_COUNT, the number of shards over all processes")
            return value  # SHARD_COUNT itself is wrong: it is named on its own
        outside = [i for i in value if i >= count]
        if outside:
            named = (
                f"shard {outside[0]} does"
                if len(outside) == 1
                else f"shards {', '.join(map(str, outside))} do"
            )
            raise ValueError(
                f"{named} not exist with SHARD_COUNT={count} (shards are numbered 0 to {count - 1})"
            )
        url = info.data.get("database_url")
        if url is not None and sqlite_path(url) is not None and len(set(value)) < count:
            raise ValueError(
                f"this process runs shards {','.join(map(str, sorted(value)))} of {count}, so others run "
                "the rest, and they cannot share a SQLite file: use PostgreSQL (README, 'Several "
                "processes'), or one process with SHARD_IDS unset"
            )
        return tuple(sorted(value))

    @field_validator("process_name")
    @classmethod
    def _usable_name(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not NAME.fullmatch(value):
            raise ValueError(
                f"{value!r} is not usable: 1 to 20 letters, digits, '-', '_' or '.' (e.g. shards-0-1)"
            )
        return value

    @property
    def ownership(self) -> Ownership:
        """The shards whose games this process looks after (gm.delivery.shards)."""
        return Ownership.of(self.shard_count, self.shard_ids)

    @property
    def process(self) -> str:
        """This process's name: PROCESS_NAME, or one derived from the shards it runs."""
        return self.process_name or self.ownership.default_name()

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {value!r}; use DEBUG, INFO, WARNING or ERROR")
        return level


def describe_problems(errors: Sequence[Mapping[str, Any]]) -> str:
    """Pydantic's validation errors as lines naming the environment variable and what is wrong."""
    lines = []
    for error in errors:
        name = ".".join(map(str, error["loc"])).upper()
        if error["type"] == "missing":
            lines.append(f"- {name} is not set (in .env or the environment)")
        else:
            lines.append(f"- {name}: {error['msg'].removeprefix('Value error, ')}")
    return "\n".join(lines)


def configure_logging(level: str, log_format: str = "text") -> None:
    """Log to stderr at ``level``, as text or JSON lines. Players' orders never reach the log: the
    libraries that would log request bodies or SQL parameters stay at INFO or above."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
    at_least_info = max(logging.getLevelName(level), logging.INFO)
    # At DEBUG these log request bodies and SQL parameters, that is players' orders: never below INFO.
    for name in ("discord.gateway", "discord.http", "discord.webhook", "aiosqlite", "asyncpg"):
        logging.getLogger(name).setLevel(at_least_info)
    # SQLAlchemy logs every statement (its parameters hidden: db.database) and the pool's chatter at
    # INFO: shown at LOG_LEVEL=DEBUG only, an operator's INFO log has one line per event.
    debug = logging.getLevelName(level) <= logging.DEBUG
    logging.getLogger("sqlalchemy").setLevel(logging.INFO if debug else logging.WARNING)
    # Alembic's per-connection chatter; db.preflight logs the upgrade in one line.
    logging.getLogger("alembic").setLevel(logging.INFO if debug else logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    silence_voice_warnings()


def silence_voice_warnings() -> None:
    """discord.py warns at every start that PyNaCl and davey (voice) are missing: a text bot needs
    neither."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def setup_help(permissions: int) -> str:
    """How to make a Discord bot and invite it: shown when the token is missing or refused."""
    return (
        "To run this bot you need a Discord application with a bot user: open "
        "https://discord.com/developers/applications, choose New Application, then Bot: press Reset Token "
        "and put the token in .env as DISCORD_TOKEN=... (see .env.example), and turn on Server Members "
        "Intent on the same page. Invite the bot to your server with OAuth2 > URL Generator, scopes "
        "'bot' and 'applications.commands', and the permissions View Channels, Send Messages, Send "
        "Messages in Threads, Embed Links, Attach Files, Read Message History, Manage Channels, Manage "
        "Roles, Create Private Threads and Manage Threads; or open "
        "https://discord.com/oauth2/authorize?client_id=APPLICATION_ID&scope=bot+applications.commands"
        f"&permissions={permissions} with your application id. The first start publishes the slash "
        "commands."
    )
