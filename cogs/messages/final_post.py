"""The final post of a game (gm.messages.kinds.GameOver) as Discord messages: the result with the final
map, the GIF of the whole game attached, then the table of supply centers per power per year.

Discord refuses uploads over 10 MiB per file (unboosted servers) and 25 MiB per message; gm keeps the
GIF under 8 MB, but should a picture still be too big it is left out and the post says so rather than
failing for good.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.shared.text import chunks
from gm.public import Attachment, GameOver

FILE_LIMIT = 10 * 1024 * 1024
MESSAGE_LIMIT = 25 * 1024 * 1024
RESULT_COLOUR = discord.Colour.from_rgb(201, 162, 39)
CODE_FENCE = "```"


def fitting(attachments: list[Attachment]) -> tuple[list[Attachment], list[str]]:
    """The attachments Discord will take in one message, and a note for each one left out. The final
    map goes first and is kept whenever it fits; animations are dropped first."""
    kept: list[Attachment] = []
    notes: list[str] = []
    total = 0
    for item in sorted(attachments, key=lambda a: a.filename.endswith(".gif")):
        size = len(item.data)
        if size > FILE_LIMIT or total + size > MESSAGE_LIMIT:
            what = (
                "animation of the whole game"
                if item.filename.endswith(".gif")
                else "chart of the centers"
                if "-chart" in item.filename
                else "final map"
            )
            notes.append(
                f"The {what} ({size / 1_000_000:.1f} MB) is too large for Discord's upload limit, "
                "so it is not attached."
            )
            continue
        kept.append(item)
        total += size
    return kept, notes


def centers_table(table: dict[str, Any]) -> list[str]:
    """Supply centers per year (rows) and power (columns), as lines of a code block; narrow enough for
    a phone (seven powers take 35 characters)."""
    years: list[str] = list(table.get("years") or [])
    rows: list[dict[str, Any]] = list(table.get("rows") or [])
    if not years or not rows:
        return []
    heads = [str(row["power"])[:3].capitalize() for row in rows]
    lines = ["Year  " + " ".join(f"{h:>3}" for h in heads)]
    for index, year in enumerate(years):
        counts = [row["centers"][index] if index < len(row["centers"]) else 0 for row in rows]
        lines.append(f"{year:<5} " + " ".join(f"{n:>3}" for n in counts))
    return lines


def table_messages(table: dict[str, Any]) -> list[str]:
    """The table under a heading, split into code blocks of at most 2,000 characters each."""
    lines = centers_table(table)
    if not lines:
        return []
    heading = "**Supply centers per year**\n"
    room = 2000 - len(heading) - 2 * len(CODE_FENCE) - 2  # each message a closed code block
    blocks = chunks(lines, room)
    out = [f"{CODE_FENCE}\n{block}\n{CODE_FENCE}" for block in blocks]
    out[0] = heading + out[0]
    return out


def final_embed(post: GameOver, embed: discord.Embed, attachments: list[Attachment]) -> list[str]:
    """Finish the final post's embed (colour, map as its image); returns the notes to add."""
    embed.colour = RESULT_COLOUR
    kept, notes = fitting(attachments)
    picture = next((a for a in kept if a.filename.endswith(".png")), None)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    if post.pictures_failed:
        notes.append("The final map and the animation could not be drawn this time.")
    elif not any(a.filename.endswith(".gif") for a in kept) and not notes:
        notes.append("The animation of the game is not available.")
    attachments[:] = kept
    return notes
