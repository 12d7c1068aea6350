"""`docker stop` and `systemctl stop` send SIGTERM, Ctrl-C sends SIGINT: the bot takes no more
interactions, lets the close under way finish, sends what it queued, and exits 0 with nothing left
half done. The bot runs as its own process (harness.processes) against the loopback fake."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import sqlite3
import stat
from collections.abc import Coroutine
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot import DiplomacyBot
from cogs.commands.direct import MISSED_WHILE_OFFLINE, RECORDED_WHILE_OFFLINE
from gm.phases.closer import CloseHooks
from harness.bot_helpers import (
    Table,
    ask,
    listeners_done,
    make_settings,
    make_table,
    moderator_closes,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from harness.fakediscord.runner import ready_at_last_guild
from harness.processes import bot_process
from harness.remote import env_for, phase_status_becomes, started_remote_game
from ops import eventloop
from ops.gate import RESTARTING
from ops.version import VERSION, commit

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)


@pytest.fixture
def real_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop out of time runs in a fresh interpreter, not a zygote's fork (harness/zygote.py): under
    load a forked bot's stop out of time left its results' claims held (3 failures in 5 runs; none in
    8 with real processes). The other stops (signals, the process group, the worker processes) are a
    zygote's forks, whose signals, process group and exit are a fresh start's (tests/test_zygote.py)."""
    monkeypatch.setenv("TEST_ZYGOTE", "0")


@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["SIGTERM to the bot (docker stop)", "SIGINT to the process group (Ctrl-C)"],
)
async def test_a_stop_during_a_close_finishes_it_posts_its_results_and_exits_0(
    fake: FakeDiscord, tmp_path: Path, sig: signal.Signals, group: bool
) -> None:
    table = await make_table(fake, players=3)
    # each close waits 1 s after its claim, so that the signal comes mid-close on a busy machine too
    env = env_for(fake, tmp_path, HOLD_CLOSES="1")
    async with bot_process(tmp_path, fake_url=fake.base_url, **env) as bot:
        await bot.line_with("ready: connected to Discord")
        game_id = await started_remote_game(fake, table, bot)
        await moderator_closes(fake, table.mod, table.general, game_id)
        await bot.line_with(f"phase closed: game {game_id} S1901M")  # the worker process is up now
        await fake.wait_for(
            lambda: True if results_posts(fake, "Spring 1901 Movement") else None, what="S1901M"
        )
        # Discord answers slowly, so the results are still being posted when the signal comes.
        fake.slow_down("POST /channels/*/messages", 0.3, times=10)
        answer = await moderator_closes(fake, table.mod, table.general, game_id)
        assert "results follow" in answer, answer
        caught = await phase_status_becomes(bot, game_id, "F1901M", "adjudicating", timeout=30)
        code, _ = await bot.stopped_by(sig, group=group)

        assert code == 0, bot.output
        assert caught == "adjudicating", "the signal came while the phase was being closed"
        statuses = dict(bot.query("SELECT name, status FROM phase WHERE game_id = ?", game_id))
        assert statuses == {"S1901M": "closed", "F1901M": "closed", "S1902M": "open"}, (
            "the close was finished"
        )
        unsent = bot.query("SELECT id, kind, claim_token FROM outbox WHERE sent_at IS NULL")
        assert unsent == [], "every queued message was sent before the exit, none left claimed"
        assert len(results_posts(fake, "Fall 1901 Movement")) == 1, "the results are on Discord, once"
        logged = bot.output
        assert f"{sig.name} received: stopping" in logged
        assert re.search(
            rf"phase closed: game {game_id} F1901M, adjudication [\d.]+ ms, maps [\d.]+ ms", logged
        )
        # a complete stop (no "work left for the next start"): done within SHUTDOWN_TIMEOUT (30 s)
        assert re.search(r"stopped in [\d.]+ s$", logged, re.MULTILINE), logged
        assert "a worker process died" not in logged, "the worker processes ignore the terminal's signal"
        assert "Traceback" not in logged and "PyNaCl" not in logged and "davey" not in logged
    assert fake.unknown_calls == [] and fake.internal_errors == []


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
async def test_an_idle_bot_stops_at_once_and_json_logs_are_one_object_a_line(
    fake: FakeDiscord, tmp_path: Path, loop: str
) -> None:
    """On either event loop (EVENT_LOOP, ops.eventloop; uvloop where it is installed)."""
    await make_table(fake, players=3)
    env = env_for(fake, tmp_path, LOG_FORMAT="json", SHUTDOWN_TIMEOUT="5", EVENT_LOOP=loop)
    async with bot_process(tmp_path, fake_url=fake.base_url, **env) as bot:
        await bot.line_with('"event": "ready"')
        made = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.glob("bot.db*")}
        code, _ = await bot.stopped_by(signal.SIGINT)
    assert code == 0, bot.output
    assert set(made) == {"bot.db", "bot.db-wal", "bot.db-shm", "bot.db.lock"}, made
    assert set(made.values()) == {0o600}, f"the files the bot made are its own only: {made}"
    entries = [json.loads(line) for line in bot.lines]  # every line is a JSON object
    events = [e["event"] for e in entries if "event" in e]
    assert events == [
        "starting",
        "database_upgraded",
        "commands",
        "rebuilt",
        "ready",
        "stop_requested",
        "stopped",
    ], events  # no "handed_back": its work was done within a short SHUTDOWN_TIMEOUT (5 s)
    first = entries[0]
    assert first["version"] == VERSION and first["commit"] == commit(), "the first line names the version"
    assert first["message"].startswith(f"diplomacy-gm {VERSION} (commit {commit()}) starting")
    assert first["event_loop"] == (loop if eventloop.UVLOOP is not None else "asyncio"), first
    ready = next(e for e in entries if e.get("event") == "ready")
    assert ready["guilds"] == 1 and ready["level"] == "INFO" and ready["logger"] == "bot"
    stopped = entries[-1]
    assert stopped["event"] == "stopped" and stopped["complete"] is True
    assert not any("exception" in e for e in entries), "no traceback, no KeyboardInterrupt"


def query(tmp_path: Path, sql: str, *params: object) -> list[tuple]:
    with closing(sqlite3.connect(tmp_path / "bot.db", timeout=30)) as conn:
        return conn.execute(sql, params).fetchall()


def results_posts(fake: FakeDiscord, phase: str) -> list:
    return [
        m
        for m in fake.world.messages.values()
        if m.author_id == fake.world.bot.id
        and m.embeds
        and f"{phase} results" in m.embeds[0].get("title", "")
    ]


async def test_while_stopping_interactions_are_answered_restarting_and_dms_wait_for_the_next_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Door", players=3, press="public")
        fake.slow_down("POST /channels/*/messages", 1.0, times=2)  # the results take a while to post
        await moderator_closes(fake, table.mod, table.general, game_id)
        stopping = asyncio.create_task(bot.close())
        await fake.wait_for(lambda: True if not bot.gate.open else None, what="the stop to begin")
        player = table.players[1]
        answer = await ask(fake, player, "game", "status", channel=table.general, game=str(game_id))
        assert answer.ephemeral and answer.content == RESTARTING
        await fake.wait_for(
            lambda: True if query(tmp_path, "SELECT id FROM phase WHERE name = 'F1901M'") else None,
            what="the close to commit Fall 1901",
        )
        dm = await fake.dm_bot(player, "A Par-Bur")
        await fake.flush()
        await stopping
        assert not stopping.exception()
        assert bot.gate.refused == 1 and bot.gate.ignored >= 1
        assert len(results_posts(fake, "Spring 1901 Movement")) == 1, "the close under way was finished"

    def answers() -> list:
        return [
            m
            for m in fake.world.channel_messages(dm.channel.id)
            if m.author_id == fake.world.bot.id and m.id > dm.sent.id
        ]

    assert answers() == [], "the stopping bot did not read the order sent by DM"
    async with running(fake, tmp_path) as again:
        await settle(again, fake)
        # Sent once Fall 1901 was open (the close had committed, its results were being posted):
        # read at the next start as orders for that phase, which still takes them.
        told = [m.content or "" for m in answers()]
        assert len(told) == 1 and told[0].startswith(RECORDED_WHILE_OFFLINE), told
        assert MISSED_WHILE_OFFLINE not in told[0]
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_stop_out_of_time_hands_the_close_back_and_the_next_start_finishes_it_once(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path, shutdown_timeout=1) as bot:
        game_id = await started_game(fake, bot, table, "Hurry", players=3, press="public")
        claimed = asyncio.Event()

        async def stuck(_phase_id: int) -> None:  # a close that would outlast any stop
            claimed.set()
            await asyncio.Event().wait()

        bot.runtime.closer._hooks = CloseHooks(after_claim=stuck)
        await moderator_closes(fake, table.mod, table.general, game_id)
        await asyncio.wait_for(claimed.wait(), 10)
        # the close never ends: the stop gives up at SHUTDOWN_TIMEOUT and hands it back (the lines
        # below); wait_for only keeps a broken stop from hanging the suite
        await asyncio.wait_for(bot.close(), 60)
        statuses = dict(query(tmp_path, "SELECT name, status FROM phase WHERE game_id = ?", game_id))
        assert statuses == {"S1901M": "adjudicating"}, "handed back, not half written"
        assert (
            query(tmp_path, "SELECT id FROM outbox WHERE claim_token IS NOT NULL AND sent_at IS NULL") == []
        )
        assert results_posts(fake, "Spring 1901 Movement") == []
        phase_id = query(tmp_path, "SELECT id FROM phase WHERE game_id = ?", game_id)[0][0]
        logged = [r.getMessage() for r in caplog.records]
        assert any(f"phases [{phase_id}] left being closed" in line for line in logged), logged
        assert any(line.endswith("(work left for the next start)") for line in logged)
        caplog.clear()
    async with running(fake, tmp_path) as again:
        await settle(again, fake)
        statuses = dict(query(tmp_path, "SELECT name, status FROM phase WHERE game_id = ?", game_id))
        assert statuses == {"S1901M": "closed", "F1901M": "open"}
        assert len(results_posts(fake, "Spring 1901 Movement")) == 1
        logged = [r.getMessage() for r in caplog.records]
        assert (
            "start-up: 0 overdue phases to close now, 1 stuck closes to finish now, 0 open phases "
            "scheduled with 0 reminders" in logged
        )
    assert fake.unknown_calls == [] and fake.internal_errors == []


@pytest.mark.usefixtures("real_processes")
async def test_a_stop_out_of_time_ends_within_two_seconds_of_the_timeout_without_a_traceback(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A deadline passed while the bot was down: at start its deadline job closes the phase, and
    Discord hangs on the results when SIGTERM comes (SHUTDOWN_TIMEOUT=1). The stop hands the work
    back and the process ends by that stop, exit 0, with one warning and no traceback (the scheduler's
    job cancelled, the worker process killed): not by the exit guard, which ends a stop still running
    SHUTDOWN_TIMEOUT + 1.8 s after it began (bot.EXIT_GRACE) with a warning of its own."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:  # set up in-process: quicker
        game_id = await started_game(fake, bot, table, "Hurry", players=3, press="public")
    past = "2020-01-01 00:00:00.000000"
    with closing(sqlite3.connect(tmp_path / "bot.db")) as conn, conn:
        conn.execute("UPDATE phase SET deadline = ? WHERE game_id = ? AND status = 'open'", (past, game_id))
    fake.slow_down("POST /channels/*/messages", 120, times=50)  # Discord stops answering
    env = env_for(fake, tmp_path, SHUTDOWN_TIMEOUT="1")
    async with bot_process(tmp_path, fake_url=fake.base_url, **env) as process:
        await process.line_with(f"phase closed: game {game_id} S1901M")  # by the deadline job
        code, _ = await process.stopped_by(signal.SIGTERM)
    assert code == 0, process.output
    assert "the stop outlasted SHUTDOWN_TIMEOUT" not in process.output, process.output
    assert re.search(r"stopped in [\d.]+ s \(work left for the next start\)$", process.output, re.M)
    assert "Traceback" not in process.output and "raised an exception" not in process.output, process.output
    assert "stopped before the work under way was done" in process.output
    unsent = query(tmp_path, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND claim_token IS NULL")
    assert unsent[0][0] > 0, "the results wait, unclaimed, for the next start"


@pytest.mark.usefixtures("real_processes")
async def test_claims_a_stop_out_of_time_could_not_release_are_taken_back_at_the_next_start_at_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A stop out of time that could not release its outbox claims (the database away at that moment,
    or the exit guard first): the results do not wait for the claims' lease (2 minutes). The next
    start, a new run, takes them back at once and posts them, once."""
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:  # set up in-process: quicker
        game_id = await started_game(fake, bot, table, "Held", players=3, press="public")
    past = "2020-01-01 00:00:00.000000"
    with closing(sqlite3.connect(tmp_path / "bot.db")) as conn, conn:
        conn.execute("UPDATE phase SET deadline = ? WHERE game_id = ? AND status = 'open'", (past, game_id))
    posts = fake.hold("POST /channels/*/messages", times=1000)  # Discord stops answering
    env = env_for(fake, tmp_path, SHUTDOWN_TIMEOUT="1", KEEP_CLAIMS="1")
    try:
        async with bot_process(tmp_path, fake_url=fake.base_url, **env) as process:
            await process.line_with(f"phase closed: game {game_id} S1901M")  # by the deadline job
            await asyncio.wait_for(posts.reached.wait(), 30)  # the results being posted: claimed
            code, _ = await process.stopped_by(signal.SIGTERM)
    finally:
        posts.remaining = 0
        posts.release()
    assert code == 0, process.output
    assert "could not release the outbox claims" in process.output, process.output
    claimed = "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND claim_token IS NOT NULL"
    assert query(tmp_path, claimed)[0][0] > 0, "the stop left claims held"
    async with running(fake, tmp_path) as again:
        await settle(again, fake)
        assert query(tmp_path, claimed)[0][0] == 0
        assert len(results_posts(fake, "Spring 1901 Movement")) == 1, "posted by the next start, once"
    assert fake.unknown_calls == [] and fake.internal_errors == []


FIRST_ORDERS = {
    "AUSTRIA": "A Vie-Gal",
    "ENGLAND": "F Lon-Nth",
    "FRANCE": "A Par-Bur",
    "GERMANY": "A Ber-Kie",
    "ITALY": "A Rom-Apu",
    "RUSSIA": "A Mos-Ukr",
    "TURKEY": "A Con-Bul",
}


def orders_sent_while_offline(fake: FakeDiscord, table: Table) -> dict[int, int]:
    """Each player sends the bot an order by direct message while it is down: their message's id."""
    sent = {}
    for player in table.players:
        order = FIRST_ORDERS[table.power_of[player.id]]
        sent[player.id] = fake.backend.post_message(
            fake.backend.open_dm(player), player.id, {"content": order}
        ).id
    return sent


def answers_to(fake: FakeDiscord, table: Table, sent: dict[int, int]) -> dict[int, list[str]]:
    """The bot's answers to each player's message sent while it was down."""
    return {
        player.id: [
            m.content or ""
            for m in fake.dm_messages(player)
            if m.author_id == fake.world.bot.id
            and int((m.message_reference or {}).get("message_id", 0)) == sent[player.id]
        ]
        for player in table.players
    }


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def next_start_answers_each_once(
    fake: FakeDiscord, tmp_path: Path, table: Table, sent: dict[int, int], caplog: pytest.LogCaptureFixture
) -> None:
    """The next start answers every direct message sent while offline once, as recorded, quietly."""
    async with running(fake, tmp_path) as again:
        await settle(again, fake)
    answers = answers_to(fake, table, sent)
    assert all(len(told) == 1 and told[0].startswith(RECORDED_WHILE_OFFLINE) for told in answers.values()), (
        answers
    )
    assert tracebacks(caplog) == []
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_stop_during_the_catch_up_of_offline_dms_ends_it_after_the_player_in_hand_and_the_next_start_answers_the_rest(  # noqa: E501
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Three players wrote while the bot was down; the stop comes while the start-up catch-up reads
    the first one's messages: that player is answered, the catch-up ends there (the stop does not wait
    for every player's), quietly, and the next start answers the two others, each once."""
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Catch", players=3, press="public")
    sent = orders_sent_while_offline(fake, table)
    history = fake.hold("GET /channels/*/messages")  # the catch-up's read of its first player's DMs
    async with running(fake, tmp_path) as bot:
        await asyncio.wait_for(history.reached.wait(), 30)
        stopping = asyncio.create_task(bot.close())
        await fake.wait_for(lambda: True if not bot.gate.open else None, what="the stop to begin")
        history.release()
        await asyncio.wait_for(stopping, 60)
        assert bot.stopped_completely, "a stop within SHUTDOWN_TIMEOUT"
    during = answers_to(fake, table, sent)
    assert sorted(len(told) for told in during.values()) == [0, 0, 1], during
    assert tracebacks(caplog) == []
    await next_start_answers_each_once(fake, tmp_path, table, sent, caplog)


async def test_a_bot_connected_once_its_stop_has_begun_leaves_the_offline_dms_to_the_next_start(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord's gateway may connect only after a stop has begun (SIGTERM during start-up, while a
    close under way holds the stop): the catch-up of direct messages sent while offline does not
    start then (its connection and database would close under it, with a traceback), nor any other
    work on_ready starts (a delivery of the queued messages outlived a stop out of time under load:
    "Session is closed" with a traceback); the next start answers every one of them, once."""
    caplog.set_level(logging.INFO)
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        await started_game(fake, bot, table, "Late", players=3, press="public")
    sent = orders_sent_while_offline(fake, table)
    identify = asyncio.Event()

    async def identify_when_told(shard_id: int | None, *, initial: bool = False) -> None:
        await identify.wait()

    bot = DiplomacyBot(make_settings(tmp_path), guild_ready_timeout=0.2)
    ready_at_last_guild(bot)
    bot.before_identify_hook = identify_when_told  # type: ignore[method-assign]
    spawned: list[str] = []
    spawn = bot.runtime.spawn

    def recorded(work: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        spawned.append(what)
        return spawn(work, what)

    bot.runtime.spawn = recorded  # type: ignore[method-assign]
    await bot.login(fake.token)  # set up (setup_hook ran), not connected to the gateway yet
    fake.attach_client(bot)
    connect = asyncio.create_task(bot.connect(reconnect=True))
    try:
        busy = asyncio.Event()  # gamemaster work the stop waits for (as a close under way)
        bot.runtime.spawn(busy.wait(), "the test's close under way")
        stopping = asyncio.create_task(bot.close())
        await fake.wait_for(lambda: True if not bot.gate.open else None, what="the stop to begin")
        spawned.clear()  # what the start-up and the test started before the stop
        identify.set()  # connected now, during the stop
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        await listeners_done()  # on_ready handled
        # nor a delivery or the shields' repair: started during the stop, they could outlive its
        # hand-back (a stop out of time) and meet a closed connection
        assert spawned == []
        busy.set()
        await asyncio.wait_for(stopping, 60)
    finally:
        identify.set()
        busy.set()
        await asyncio.wait({connect}, timeout=10)
        connect.cancel()
        fake.attach_client(None)
    assert bot.stopped_completely
    assert tracebacks(caplog) == []
    assert answers_to(fake, table, sent) == {p.id: [] for p in table.players}, "none read by the stopping bot"
    await next_start_answers_each_once(fake, tmp_path, table, sent, caplog)
