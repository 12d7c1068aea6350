"""The final post as Discord will get it (cogs.messages.render): what happens when the pictures are too big
for Discord's upload limits, and a long game's table of centers. Formatting only: no fake needed."""

from __future__ import annotations

from typing import Any

from cogs.messages.final_post import FILE_LIMIT
from cogs.messages.render import render
from gm.delivery.outbox import Attachment, OutboxMessage

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def final_post(attachments: list[Attachment], years: int = 2, **payload: Any) -> OutboxMessage:
    labels = ["start"] + [str(1901 + i) for i in range(years - 1)]
    return OutboxMessage(
        id=1,
        nonce="gm1",
        kind="game_over",
        game_id=3,
        target_kind="game_channel",
        channel_id=10,
        user_id=None,
        payload={
            "game": {"id": 3, "name": "Long game"},
            "title": "Long game is over",
            "lines": ["France wins with 18 centers."],
            "fields": [{"name": "France", "value": "18"}],
            "centers_by_year": {
                "years": labels,
                "rows": [{"power": p, "centers": [3 + i % 5 for i in range(years)]} for p in POWERS],
            },
            **payload,
        },
        attachments=tuple(attachments),
    )


def picture(name: str, size: int) -> Attachment:
    return Attachment(name, b"x" * size)


def test_a_gif_over_discords_file_limit_is_left_out_and_the_post_says_so() -> None:
    parts = render(
        final_post([picture("F1910M-final.png", 300_000), picture("game-3-animation.gif", FILE_LIMIT + 1)])
    )
    post = parts[0]
    assert [a.filename for a in post.attachments] == ["F1910M-final.png"]
    assert post.embed is not None and post.embed.image.url == "attachment://F1910M-final.png"
    assert "animation of the whole game (10.5 MB) is too large" in (post.embed.description or "")


def test_a_map_over_the_limit_is_left_out_and_the_animation_still_goes() -> None:
    parts = render(
        final_post([picture("F1910M-final.png", FILE_LIMIT + 1), picture("game-3-animation.gif", 5000)])
    )
    assert [a.filename for a in parts[0].attachments] == ["game-3-animation.gif"]
    embed = parts[0].embed
    assert embed is not None and "The final map (10.5 MB) is too large" in (embed.description or "")


def test_the_post_with_both_pictures_attaches_both_and_shows_the_map() -> None:
    parts = render(final_post([picture("F1910M-final.png", 1000), picture("game-3-animation.gif", 5000)]))
    assert [a.filename for a in parts[0].attachments] == ["F1910M-final.png", "game-3-animation.gif"]
    embed = parts[0].embed
    assert embed is not None and "too large" not in (embed.description or "")


def test_when_the_pictures_failed_the_post_says_so() -> None:
    parts = render(final_post([], pictures_failed=True))
    assert parts[0].attachments == []
    embed = parts[0].embed
    assert embed is not None and "could not be drawn" in (embed.description or "")


def test_a_century_of_centers_is_split_into_code_blocks_under_the_message_limit() -> None:
    parts = render(final_post([], years=101))
    tables = [p.content or "" for p in parts[1:]]
    assert len(tables) >= 2 and all(len(t) <= 2000 for t in tables)
    assert all(t.count("```") == 2 for t in tables), "each message is a closed code block"
    rows = [line for t in tables for line in t.splitlines() if line[:4].isdigit() or line.startswith("start")]
    assert len(rows) == 101 and rows[-1].startswith("2000 ")
    assert tables[0].splitlines()[2] == "Year  Aus Eng Fra Ger Ita Rus Tur"
