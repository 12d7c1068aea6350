"""The community's clock and memory through the real bot and the fake Discord: a game whose phases
close at 21:00 Berlin time and never on a weekend, as players set it up and read it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gm.clock import utcnow
from harness.bot_helpers import (
    POWERS,
    Table,
    ask,
    bot_messages,
    create_game,
    current_phase,
    deadline_passes,
    edit_board,
    embed_text,
    embeds_titled,
    game_channel_of,
    join_everyone,
    make_table,
    running,
    settle,
    start_game,
    started_game,
)
from harness.fakediscord import FakeDiscord, Message, Permission, User, UserActionError
from tests.helpers.e2e import eliminated

WEEKDAY_AT_21_BERLIN = re.compile(r"(Monday|Tuesday|Wednesday|Thursday|Friday) \d+ \w+, 21:00 Europe/Berlin")


async def test_a_game_at_21_berlin_without_weekends_is_set_up_and_shown_so(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=2)
    async with running(fake, tmp_path) as bot:
        creator = table.players[0]
        refused = await ask(
            fake, creator, "game", "create", channel=table.general, name="Typo", time_zone="Europe/Berln"
        )
        assert "did you mean Europe/Berlin" in refused.content, refused.content
        listed = await ask(fake, creator, "game", "list", channel=table.general)
        assert "Typo" not in listed.content, "a refused game is not created"

        choices = await (
            await fake.autocomplete(
                creator, "game", "create", focused="time_zone", options={"time_zone": "berl"}
            )
        ).choices()
        assert [c["value"] for c in choices][:1] == ["Europe/Berlin"]

        game_id = await create_game(
            fake,
            table,
            "Evenings",
            players=2,
            deadline_at="21:00",
            time_zone="europe/berlin",
            skip_days="sat,sun",
        )
        shown = await ask(fake, creator, "game", "settings", channel=table.general, game=str(game_id))
        assert "**Deadlines:** 21:00 Europe/Berlin, every day except Saturday and Sunday" in shown.content

        changed = await ask(
            fake, creator, "game", "settings", channel=table.general, game=str(game_id), every_days=2
        )
        assert "21:00 Europe/Berlin, every 2 days except Saturday and Sunday, which are not counted" in (
            changed.content
        ), changed.content
        back = await ask(
            fake, creator, "game", "settings", channel=table.general, game=str(game_id), every_days=1
        )
        assert "every day except Saturday and Sunday" in back.content

        await join_everyone(fake, table, game_id)
        await start_game(fake, bot, table, game_id)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        [now_line] = [line for line in status.content.splitlines() if line.startswith("Now:")]
        assert WEEKDAY_AT_21_BERLIN.search(now_line), now_line
        welcomes = [m for m in fake.visible_messages(table.players[1]) if "You play" in embed_text(m)]
        assert welcomes and WEEKDAY_AT_21_BERLIN.search(embed_text(welcomes[0])), embed_text(welcomes[0])

        await deadline_passes(bot, fake, game_id)
        channel = await game_channel_of(bot, fake, game_id)
        [results] = embeds_titled(fake, channel, "Movement results")
        assert WEEKDAY_AT_21_BERLIN.search(embed_text(results)), embed_text(results)
        phase = await current_phase(bot, game_id)
        assert phase.deadline is not None
        local = phase.deadline.astimezone(ZoneInfo("Europe/Berlin"))
        assert (local.hour, local.minute) == (21, 0) and local.weekday() < 5
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def stats_of(fake: FakeDiscord, asker: User, about: User, table: Table) -> Message:
    """``asker`` runs /stats user:``about``."""
    return await (await fake.slash(asker, "stats", options={"user": about}, channel=table.general)).message()


async def test_a_draw_is_scored_in_the_final_post_and_ranked_by_stats(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path, player_records=True) as bot:
        nobody = await ask(fake, table.onlooker, "stats", channel=table.general)
        assert "No finished game on this server yet" in nobody.content

        game_id = await started_game(fake, bot, table, "Scored", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        proposer, other, fallen = (table.player(p) for p in ("FRANCE", "ENGLAND", "RUSSIA"))
        await edit_board(bot, game_id, eliminated(*table.seats[fallen.id]))
        await ask(fake, proposer, "draw", "propose", channel=table.general)
        yes = await ask(fake, other, "draw", "vote", channel=table.general, choice="yes")
        assert "That was the last vote needed" in yes.content
        await settle(bot, fake)

        [final] = embeds_titled(fake, channel, "Scored is over")
        assert (
            "Scores (draw-size): Austria 20, England 20, France 20, Germany 20, Turkey 20; "
            "every other power 0." in embed_text(final)
        ), embed_text(final)

        board = await ask(fake, table.onlooker, "stats", channel=table.general)
        lines = board.content.splitlines()
        assert lines[0].startswith("**Leaderboard of this server** (1 finished game")
        scores = {s: 20 * len(table.seats[u.id]) for s, u in (("o", other), ("p", proposer))}
        best, second = sorted(((scores["o"], other), (scores["p"], proposer)), key=lambda x: -x[0])
        assert lines[1].startswith(f"1. <@{best[1].id}>: **{best[0]}** average over 1 game (0 solos, 1 draw")
        assert lines[2].startswith(f"2. <@{second[1].id}>: **{second[0]}** average over 1 game")
        assert lines[3].startswith(
            f"3. <@{fallen.id}>: **0** average over 1 game (0 solos, 0 draws, 0 survivals, 1 elimination)"
        )

        record = await stats_of(fake, table.onlooker, fallen, table)
        assert f"**Record of <@{fallen.id}> on this server**" in record.content
        assert (
            "Finished games: 1 (0 solos, 0 draws, 0 survivals, 1 elimination); average score 0"
            in record.content
        )
        assert "- Phases ordered in time: 0" in record.content and "- Civil disorders: 0" in record.content
        stranger = await stats_of(fake, table.players[0], table.onlooker, table)
        assert "has not played a game on this server yet" in stranger.content
        assert record.ephemeral and board.ephemeral

        # the server shows records in Join posts (PLAYER_RECORDS): a veteran's, and a newcomer's
        rematch = await create_game(fake, table, "Rematch", players=3, press="public")
        joined = await ask(fake, table.onlooker, "game", "join", channel=table.general, game=str(rematch))
        assert "You joined" in joined.content
        await settle(bot, fake)
        [post] = [m for m in bot_messages(fake, table.general) if f"join:{rematch}" in m.custom_ids()]
        said = embed_text(post)
        creator = table.players[0]
        # the game ended in its first phase (no phase owed, so no reliability yet); seats are random
        shown = "1 game" if creator.id == fallen.id else "1 game, 1 draw"
        assert f"<@{creator.id}> ({shown})" in said and f"<@{table.onlooker.id}> (first game)" in said, said
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_an_absence_moves_the_deadline_and_moderators_see_and_cancel_absences(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Holidays", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        away, other = table.players[1], table.players[2]
        before = (await current_phase(bot, game_id)).deadline
        assert before is not None

        past = await ask(
            fake, away, "absence", "add", channel=table.general, **{"from": "2020-01-01", "to": "2020-01-02"}
        )
        assert "starts in the past" in past.content and "Nothing was declared" in past.content
        outsider = await ask(
            fake,
            table.onlooker,
            "absence",
            "add",
            channel=table.general,
            **{"from": "today", "to": "tomorrow"},
        )
        assert "You play in no game" in outsider.content

        declared = await ask(
            fake, away, "absence", "add", channel=table.general, **{"from": "today", "to": "tomorrow"}
        )
        assert declared.ephemeral and "You declared your absence" in declared.content, declared.content
        assert "deadline of game" in declared.content and "moved already" in declared.content
        await settle(bot, fake)
        after = (await current_phase(bot, game_id)).deadline
        assert after is not None and after - before > timedelta(hours=24), "moved past the absence"
        [notice] = embeds_titled(fake, channel, "deadline moves")
        said = embed_text(notice)
        assert "a player is away" in said and f"<@{away.id}>" not in said and away.username not in said

        mine = await ask(fake, away, "absence", "list", channel=table.general)
        [line] = [x for x in mine.content.splitlines() if x.startswith("- ")]
        assert f"<@{away.id}>" in line and "(it has moved a deadline)" in line
        number = re.search(r"`#(\d+)`", line)
        assert number is not None
        theirs = await ask(fake, other, "absence", "list", channel=table.general, game=str(game_id))
        assert "No absence declared" in theirs.content, "a player sees only their own"
        refused = await ask(fake, other, "absence", "cancel", channel=table.general, absence=number[1])
        assert "only the player who declared" in refused.content
        none = await ask(fake, other, "absence", "cancel", channel=table.general, absence="9999")
        assert none.content.replace("9999", number[1]) == refused.content, "one answer: numbers are guessable"
        seen = await ask(fake, table.mod, "absence", "list", channel=table.general, game=str(game_id))
        assert f"<@{away.id}>" in seen.content
        cancelled = await ask(
            fake, table.mod, "absence", "cancel", channel=table.general, absence=f"#{number[1]}"
        )
        assert cancelled.content.startswith("Cancelled:"), cancelled.content
        gone = await ask(fake, away, "absence", "list", channel=table.general)
        assert "No absence declared" in gone.content
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_grace_extends_a_deadline_once_for_a_first_miss_without_naming_anyone(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Forgiving", players=3, press="public", grace=1, grace_hours=12
        )
        channel = await game_channel_of(bot, fake, game_id)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "**Grace:** 1 extension of 12 hours per player a year, for a first miss" in status.content
        forgetful = table.players[2]
        for user in table.players[:2]:
            reply = await ask(fake, user, "ready", channel=table.general)
            assert "You are ready" in reply.content, reply.content
        first = await current_phase(bot, game_id)

        await deadline_passes(bot, fake, game_id)
        still = await current_phase(bot, game_id)
        assert (still.id, still.status) == (first.id, "open"), "extended, not closed"
        assert still.deadline is not None and still.deadline - utcnow() > timedelta(hours=11)
        assert bot.runtime.scheduler.run_time(f"deadline:{game_id}:{still.name}") == still.deadline
        [notice] = embeds_titled(fake, channel, "deadline is extended")
        said = embed_text(notice)
        assert "extended by 12 hours: a grace extension" in said
        assert f"<@{forgetful.id}>" not in said and "orders" not in said

        await deadline_passes(bot, fake, game_id)
        assert (await current_phase(bot, game_id)).id != first.id, "the extended deadline closes the phase"
        assert len(embeds_titled(fake, channel, "deadline is extended")) == 1
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_non_player_reads_the_game_channel_only_and_the_eliminated_read_the_talks_after_the_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    spectator = table.onlooker
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Watched", players=3, talks_after_end=True)
        channel = await game_channel_of(bot, fake, game_id)
        private = [
            c for c in fake.guild_channels(table.guild) if c.id != channel.id and f"g{game_id}-" in c.name
        ]
        threads = [
            c
            for c in fake.guild_channels(table.guild)
            if c.is_thread and c.parent_id in {p.id for p in private}
        ]
        assert len(private) == 8 and len(threads) == 3, [c.name for c in private]  # 7 powers, 1 negotiation

        with pytest.raises(UserActionError):  # no spectator role: the game channel is every member's
            await fake.slash(
                spectator, "game", "watch", options={"game": str(game_id)}, channel=table.general
            )
        assert (
            fake.can_view(spectator, channel)
            and fake.permissions(spectator, channel) & Permission.SEND_MESSAGES
        )
        assert [c.name for c in private + threads if fake.can_view(spectator, c)] == []

        proposer, other, fallen = (table.player(p) for p in ("FRANCE", "ENGLAND", "RUSSIA"))
        their_talk = next(t for t in threads if fake.can_view(proposer, t) and fake.can_view(other, t))
        assert not fake.can_view(fallen, their_talk), "private while the game runs"
        await edit_board(bot, game_id, eliminated(*table.seats[fallen.id]))
        await ask(fake, proposer, "draw", "propose", channel=table.general)
        await ask(fake, other, "draw", "vote", channel=table.general, choice="yes")
        await settle(bot, fake)
        [final] = embeds_titled(fake, channel, "Watched is over")
        assert spectator.id in fake.world.audience(final), "the spectator sees the final post"

        assert all(fake.can_view(fallen, t) for t in threads), "the eliminated read every private talk"
        assert not fake.permissions(fallen, their_talk) & Permission.SEND_MESSAGES_IN_THREADS
        assert [c.name for c in private + threads if fake.can_view(spectator, c)] == []
        power_channels = [c for c in private if c.name.split("-")[-1].upper() in POWERS]
        assert len(power_channels) == 7
        seat = {p.lower() for p in table.seats[fallen.id]}
        assert [
            c for c in power_channels if fake.can_view(fallen, c) and c.name.split("-")[-1] not in seat
        ] == []
        assert not all(fake.can_view(proposer, t) for t in threads), "a survivor reads only their own talks"

    assert fake.unknown_calls == [] and fake.internal_errors == []
