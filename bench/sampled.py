"""Where the bot's CPU went over bench/load.py's play, from bench/sampler's samples: the share of the
samples each part of the work was on the stack for (the parts are the bot's own entry points, each a
task or a callback of its own, so they do not overlap; what is left is the event loop's own work and
stacks deeper than the parts' functions).

    .venv/bin/python bench/sampled.py /tmp/paced.1234.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PARTS = (
    ("slash commands: the command tree, the cogs, gm, SQL, the answers", "app_commands/tree.py:1136:wrapper"),
    (
        "taps answered: discord.py's view from the message, cogs.ui, gm, SQL",
        "ui/view.py:988:schedule_dynamic_item_call",
    ),
    ("a tap's redraw after its first answer (cogs.ui.sheet_flows)", "cogs/ui/sheet_flows.py:362:in_turn"),
    ("forms submitted (cogs.ui.guard's listener, gm)", "cogs/ui/guard.py:210:on_interaction"),
    ("direct messages of orders (cogs.commands.direct)", "cogs/commands/direct.py:422:on_message"),
    ("  their batch's write (gm.facade.playing, a task of its own)", "gm/facade/playing.py:261:_write"),
    ("direct-message sheets redrawn (cogs.ui.sheet_live)", "cogs/ui/sheet_live.py:179:_refresh"),
    ("gateway events read and parsed (discord.py's shard worker)", "discord/shard.py:170:worker"),
    ("interactions let in and parsed (ops.gate, discord.py)", "ops/gate.py:95:now"),
    ("sockets read (aiohttp's answers, the gateway's frames)", "asyncio/selector_events.py:951:_read_ready"),
    ("request bodies written (aiohttp)", "aiohttp/client_reqrep.py:1538:write_bytes"),
    ("/healthz: the outbox's figures", "gm/facade/operating.py:21:outbox_backlog"),
    ("/healthz served", "aiohttp/web_protocol.py:567:_handle_request"),
    ("the event loop's lag probe (ops.liveness)", "ops/liveness.py:82:probe"),
    ("the scheduler's jobs (APScheduler)", "apscheduler/executors/base.py:161:run_coroutine_job"),
)
ACROSS = (
    ("calls to Discord (ops.turns: discord.py, aiohttp)", "ops/turns.py:77:in_turn"),
    ("SQLAlchemy's execution", "sqlalchemy/engine/base.py:1450:execute"),
    ("the sheet's drawing (cogs.ui.sheet_draw)", "cogs/ui/sheet_draw.py:69:draw"),
    ("discord.py parsing an interaction", "discord/interactions.py:215:_from_data"),
    ("discord.py rebuilding a tapped message's view", "discord/ui/view.py:385:from_message"),
    ("the engine's legal orders listed", "engine/legal.py"),
)


def share(inclusive: dict[str, int], suffix: str) -> int:
    """Samples on a stack holding the function named by ``suffix`` (a file's path alone: the most of
    any of its functions)."""
    if suffix.endswith(".py"):
        return max((n for name, n in inclusive.items() if suffix in name), default=0)
    return sum(n for name, n in inclusive.items() if name.endswith(suffix))


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    inclusive: dict[str, int] = data["inclusive"]
    idle = sum(n for name, n in data["leaf"].items() if name.endswith("selectors.py:451:select"))
    busy = max(1, data["total"] - idle)
    print(f"{data['total']} samples, {busy} of them working")
    parts = 0
    for label, suffix in PARTS:
        found = share(inclusive, suffix)
        parts += 0 if label.startswith(" ") else found
        print(f"{100 * found / busy:5.1f} %  {label}")
    print(
        f"{100 * parts / busy:5.1f} %  the parts above together; the rest: the loop's own work, deeper stacks"
    )
    print("across the parts:")
    for label, suffix in ACROSS:
        print(f"{100 * share(inclusive, suffix) / busy:5.1f} %  {label}")


if __name__ == "__main__":
    main()
