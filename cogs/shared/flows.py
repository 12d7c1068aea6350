"""What a command, a button and a form have in common: the flows behind them, written once.

Each flow defers (ephemerally: the answers are private; only when its answer is not ready within
replies.ANSWER_WITHIN: otherwise the answer is the one reply), calls gm, answers, and hands slow work (an
early close: adjudication, maps, posting) to the background so the interaction is answered at once.
"""

from __future__ import annotations

import discord

from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import defer, send
from cogs.ui.sheet import ready_offer
from gm.public import MeantFor


async def submit(
    interaction: discord.Interaction, game_id: int, orders_text: str, *, sheet_of_phase: str | None = None
) -> None:
    """Judge ``orders_text`` line by line and answer with each line's fate, what is still missing and
    the deadline. ``sheet_of_phase``: the text is the whole sheet from the /orders form of that phase
    (it replaces every earlier order); otherwise the lines add to or replace orders unit by unit."""
    gamemaster = services_of(interaction.client).gamemaster
    await defer(interaction, unless_quick=True)
    user_id = interaction.user.id
    if sheet_of_phase is None:
        report = await gamemaster.submit_orders(game_id, user_id, orders_text)
    elif orders_text.strip():
        report = await gamemaster.replace_orders(
            game_id, user_id, orders_text, meant_for=MeantFor(sheet_of_phase)
        )
    else:
        view = await gamemaster.clear_orders(game_id, user_id, meant_for=MeantFor(sheet_of_phase))
        await send(interaction, ["Your form was empty, so you now have no orders.", *text.view_lines(view)])
        return
    lines = text.report_lines(report)
    offer = ready_offer(report.view)
    if offer is None:
        await send(interaction, lines)
        return
    await send(interaction, [*lines, "", offer[0]], view=offer[1])
