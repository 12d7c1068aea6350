"""Moderation through the real bot and the fake Discord: civil disorder for an absent player (the
moderators called, and only them), every /mod action by the creator or a moderator, each refused to a
player with nothing changed, a replacement who inherits the seat's places and orders, and a rollback
behind a confirmation."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

from gm.clock import utcnow
from harness.bot_helpers import (
    ask,
    bot_messages,
    current_phase,
    deadline_passes,
    embed_text,
    embeds_titled,
    game_channel_of,
    make_table,
    moderator_closes,
    pings,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import FakeDiscord
from tests.helpers.e2e import click_and_read, everyone_but_ready, mod, print_transcript

NOT_A_MODERATOR = "Only the creator of"


async def test_a_player_who_sends_nothing_falls_into_civil_disorder_and_the_moderators_are_called(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(
            fake, bot, table, "Absent", players=3, press="public", civil_disorder_after=2
        )
        channel = await game_channel_of(bot, fake, game_id)
        absent = table.players[2]
        seat = table.seats[absent.id]
        for phase in ("S1901M", "F1901M"):
            assert (await current_phase(bot, game_id)).name == phase
            assert embeds_titled(fake, channel, "civil disorder") == [], "not before the second miss"
            await everyone_but_ready(fake, table, absent)
            await deadline_passes(bot, fake, game_id)

        [notice] = embeds_titled(fake, channel, "in civil disorder")
        assert "units hold" in embed_text(notice) and "replace" in embed_text(notice)
        [(call, mentioned)] = pings(fake)
        assert call.channel_id == channel.id and f"<@&{table.moderators.id}>" in call.content
        assert mentioned["mention_roles"] == [str(table.moderators.id)] and mentioned["mentions"] == []
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        disorderly = [line for line in status.content.splitlines() if "in civil disorder" in line]
        assert [line.split()[1] for line in disorderly] == [p.capitalize() for p in sorted(seat)]
        assert all(f"<@{absent.id}>" in line for line in disorderly)

        back = await mod(fake, table.mod, table, "disorder", power=seat[0], state="off", game=str(game_id))
        assert back.content.startswith("Done:") and f"<@{absent.id}>" in back.content
        await settle(bot, fake)
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=str(game_id))
        assert "in civil disorder" not in status.content.split("Moderation:")[0]
        assert f"<@{table.mod.id}> put" in status.content and "out of civil disorder" in status.content
        assert len(pings(fake)) == 1, "a moderator's own action calls nobody"
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_players_may_not_moderate_and_the_creator_who_plays_only_extends_pauses_resumes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Guarded", players=3, press="public")
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        before = await current_phase(bot, game_id)
        posted = len(bot_messages(fake, channel))
        attempts: list[tuple[str, dict[str, object]]] = [
            ("extend", {"hours": 2}),
            ("pause", {}),
            ("resume", {}),
            ("close", {}),
            ("replace", {"power": "FRANCE", "player": table.onlooker}),
            ("disorder", {"power": "FRANCE", "state": "on"}),
            ("rollback", {}),
            ("end", {"reason": "bored"}),
        ]
        for action, options in attempts:
            refused = await mod(fake, table.players[1], table, action, game=game, **options)
            assert NOT_A_MODERATOR in refused.content and "nothing was changed" in refused.content, action
            assert refused.custom_ids() == [], "no confirmation offered to someone who may not"
        await settle(bot, fake)
        after = await current_phase(bot, game_id)
        assert (after.id, after.deadline, after.status) == (before.id, before.deadline, "open")
        assert len(bot_messages(fake, channel)) == posted, "nothing announced"

        creator = table.players[0]  # no moderator role, no Manage Server: it is their game
        paused = await mod(fake, creator, table, "pause", game=game)
        assert paused.content.startswith("Done:") and "is paused with 23 hours" in paused.content
        left = (await current_phase(bot, game_id)).remaining_seconds
        assert left is not None and (await current_phase(bot, game_id)).deadline is None
        twice = await mod(fake, creator, table, "pause", game=game)
        assert "already paused" in twice.content and "/mod resume" in twice.content
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert "paused by a moderator, 23 hours 59 minutes left" in status.content
        resumed = await mod(fake, creator, table, "resume", game=game)
        assert "is running again" in resumed.content and "Orders due <t:" in resumed.content
        deadline = (await current_phase(bot, game_id)).deadline
        assert deadline is not None and abs(deadline - (utcnow() + timedelta(seconds=left))) < timedelta(
            seconds=5
        )
        extended = await mod(fake, creator, table, "extend", hours=2, game=game)
        assert "extended by 2 hours" in extended.content
        assert (await current_phase(bot, game_id)).deadline == deadline + timedelta(hours=2)
        nothing = await mod(fake, creator, table, "extend", game=game)
        assert "Say how much time to add" in nothing.content
        for action, options in attempts[3:]:  # the creator plays: a judge's actions are not theirs
            refused = await mod(fake, creator, table, action, game=game, **options)
            assert "may extend, pause or resume it but not" in refused.content, action
            assert "Nothing was changed" in refused.content and refused.custom_ids() == [], action
        judge = table.mod  # a moderator who plays in no game here
        england = table.player("ENGLAND")
        benched = await mod(fake, judge, table, "disorder", power="ENGLAND", state="on", game=game)
        assert (
            "put in civil disorder by a moderator" in benched.content
            and "Their units hold" in benched.content
        )
        twice = await mod(fake, judge, table, "disorder", power="ENGLAND", state="on", game=game)
        assert (
            "is already in civil disorder" in twice.content
            and "/mod disorder with state off" in twice.content
        )
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert f"- England <@{england.id}>: 3 centers, 3 units, in civil disorder" in status.content
        closed = await moderator_closes(fake, judge, table.general, game_id)  # confirmed: it opened just now
        assert "is being closed now" in closed
        await settle(bot, fake)
        assert (await current_phase(bot, game_id)).name == "F1901M"
        said = [embed_text(m) for m in bot_messages(fake, channel)[posted:] if m.embeds]
        for words in (
            "is paused with",
            "is running again",
            "extended by 2 hours",
            "A moderator put",
            "being closed now",
            "results",
        ):
            assert any(words in text for text in said), words
        [closing] = [text for text in said if "being closed now" in text]
        assert "Deadline" not in closing, "a phase closing now has no deadline to show"
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        log = status.content.split("Moderation (newest first):")[1]
        for who, words in (
            (creator, "paused the game"),
            (creator, "resumed the game"),
            (creator, "extended Spring 1901 Movement"),
            (judge, "closed Spring"),
            (judge, "put Austria, England and Germany in civil disorder"),
        ):
            assert f"<@{who.id}> {words}" in log, words
        assert pings(fake) == []
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_replacement_inherits_the_seat_its_places_and_its_orders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Handover", players=3)  # private threads
        game = str(game_id)
        old, newcomer = table.player("FRANCE"), table.onlooker
        seat = table.seats[old.id]
        assert seat == ("FRANCE", "TURKEY")
        answer = await ask(fake, old, "order", channel=table.general, text="A Par-Bur; F Ank-Bla")
        assert answer.content.count("✅") == 2
        names = {p.capitalize() for p in seat}
        places = [place_named(fake, table.guild, game_id, f"g{game_id}-{p.lower()}") for p in seat]
        places += [
            c
            for c in fake.guild_channels(table.guild)
            if c.is_thread and names & set(re.split(" – |/", c.name))
        ]
        assert len(places) == 2 + 2 and all(fake.can_view(old, c) for c in places), "a thread per other seat"
        assert not any(fake.can_view(newcomer, c) for c in places)

        for player in table.players:  # the seat's own player, and one who holds another seat
            taken = await mod(fake, table.mod, table, "replace", power="FRANCE", player=player, game=game)
            assert f"<@{player.id}> already plays" in taken.content and "Pick someone" in taken.content
        done = await mod(fake, table.mod, table, "replace", power="TURKEY", player=newcomer, game=game)
        assert f"Done: <@{newcomer.id}> now plays France and Turkey, replacing <@{old.id}>" in done.content
        await settle(bot, fake)
        assert all(fake.can_view(newcomer, c) for c in places)
        assert not any(fake.can_view(old, c) for c in places)

        shown = await ask(fake, newcomer, "orders", "show", channel=table.general)
        assert "`A PAR - BUR`" in shown.content and "`F ANK - BLA`" in shown.content
        [welcome] = [m for m in fake.dm_messages(newcomer) if "You play France and Turkey" in embed_text(m)]
        told = embed_text(welcome)
        assert "A moderator gave you France and Turkey" in told
        assert (
            "Centers: Brest, Marseilles, Paris" in told and "Centers: Ankara, Constantinople, Smyrna" in told
        )
        assert "Home centers" not in told, "a game under way: the centers owned now"
        assert "Orders so far: `A PAR - BUR`" in told and "Orders so far: `F ANK - BLA`" in told
        assert "Now: Spring 1901 Movement, orders due <t:" in told
        assert any("You no longer play France and Turkey" in embed_text(m) for m in fake.dm_messages(old))
        channel = await game_channel_of(bot, fake, game_id)
        [public] = embeds_titled(fake, channel, "Handover: France and Turkey have a new player")
        assert f"<@{newcomer.id}> now plays France and Turkey, replacing <@{old.id}>" in embed_text(public)
        assert "A PAR - BUR" not in embed_text(public), "the orders stay private"
        gone = await ask(fake, old, "order", channel=table.general, text="A Mar H")
        assert "not playing in any running game" in gone.content
        assert pings(fake) == []
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []


async def test_a_rollback_is_confirmed_first_then_voids_the_results_and_returns_the_orders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    table = await make_table(fake, players=3)
    async with running(fake, tmp_path) as bot:
        game_id = await started_game(fake, bot, table, "Undo", players=3, press="public")
        game = str(game_id)
        channel = await game_channel_of(bot, fake, game_id)
        too_early = await mod(fake, table.mod, table, "rollback", game=game)
        assert "is in its first phase" in too_early.content and too_early.custom_ids() == []

        france = table.player("FRANCE")
        await ask(fake, france, "order", channel=table.general, text="A Par-Bur")
        await deadline_passes(bot, fake, game_id)
        await ask(fake, france, "order", channel=table.general, text="A Bur-Bel")
        fall = await current_phase(bot, game_id)
        asked = await mod(fake, table.mod, table, "rollback", game=game)
        assert "back to **Spring 1901 Movement**" in asked.content
        assert "Fall 1901 Movement, open now, is deleted" in asked.content
        roll, cancel = asked.custom_ids()
        assert roll == f"mod:rollback:{game_id}:{fall.id}:-"
        assert await click_and_read(fake, table.mod, asked, cancel) == "Cancelled: nothing was changed."
        assert (await current_phase(bot, game_id)).id == fall.id

        asked = await mod(fake, table.mod, table, "rollback", game=game)
        stale = await mod(fake, table.mod, table, "rollback", game=game)
        done = await click_and_read(fake, table.mod, asked, roll)
        assert (
            done.startswith("Done:") and "is back at Spring 1901 Movement" in done and "New deadline" in done
        )
        await settle(bot, fake)
        spring = await current_phase(bot, game_id)
        assert (spring.name, spring.status) == ("S1901M", "open")
        late = await click_and_read(fake, table.mod, stale, roll)
        assert "has moved on since you asked" in late and "nothing was changed" in late
        assert (await current_phase(bot, game_id)).id == spring.id

        [notice] = embeds_titled(fake, channel, "is rolled back to Spring 1901 Movement")
        assert "The results posted for Spring 1901 Movement are void" in embed_text(notice)
        [voided] = embeds_titled(fake, channel, "Spring 1901 Movement results")
        assert voided.embeds[0]["title"].startswith("~~VOID~~") and voided.attachments, "marked, map kept"
        assert "Rolled back by a moderator: these results are void." in embed_text(voided)
        listing = next(
            m for m in bot_messages(fake, channel) if "Orders and results, Spring 1901" in m.content
        )
        assert listing.content.startswith("~~VOID~~") and "`A PAR - BUR`" in listing.content
        assert not embed_text(notice).startswith("~~VOID~~"), "only what the rollback voids"
        [voided] = [m for m in fake.dm_messages(france) if "voided by a rollback" in embed_text(m)]
        assert "A Bur-Bel" in embed_text(voided)
        others = [u for u in [*table.players, table.onlooker, table.mod] if u.id != france.id]
        assert not any("A Bur-Bel" in t for u in others for t in fake.seen_texts(u)), "sent to France only"
        mine = await ask(fake, france, "orders", "show", channel=table.general)
        assert "`A PAR - BUR`" in mine.content

        ending = await mod(fake, table.mod, table, "end", reason="the group *disbanded*", game=game)
        assert (
            "without a winner" in ending.content
            and "Reason given: the group \\*disbanded\\*" in ending.content
        )
        out = await click_and_read(fake, table.mod, ending, ending.custom_ids()[0])
        assert "was ended by a moderator" in out
        await settle(bot, fake)
        [final] = embeds_titled(fake, channel, "is over: ended by a moderator")
        assert "A moderator ended the game." in embed_text(final) and "disbanded" in embed_text(final)
        assert [a.filename for a in final.attachments] == [
            "S1901M-final.png",
            f"game-{game_id}-chart.png",
            f"game-{game_id}-animation.gif",
        ]
        status = await ask(fake, table.onlooker, "game", "status", channel=table.general, game=game)
        assert "Result: a moderator ended the game without a winner." in status.content
        assert f"<@{table.mod.id}> rolled the game back to Spring 1901 Movement" in status.content
        assert f"<@{table.mod.id}> ended the game: the group \\*disbanded\\*" in status.content
        again = await mod(fake, table.mod, table, "end", game=game)
        assert "already over" in again.content and again.custom_ids() == []
    if os.environ.get("SHOW_TRANSCRIPT"):
        print_transcript(fake, table)
    assert fake.unknown_calls == [] and fake.internal_errors == []
