"""Benchmark: the CPU and SQL statements of gm's reads and writes behind the interactions when the
process does not hold their answer yet (a bot just started, a game changed): the game an interaction
names, a player's list of games (a direct message of orders asks it first), a sheet's order menu, and
the writes through gm.facade (the game held, as every write but a game's first): a typed submission,
a direct message's orders, an orders form's whole sheet, Ready and not ready.

    .venv/bin/python bench/db_reads.py                  # this checkout
    .venv/bin/python bench/db_reads.py --root ../main   # another checkout's gm (compare the two)

The real bot against the fake Discord (bench/taps.py's game in the mid-game position), each step
called in the bot's process without the fake: what the process holds of the answer (gm.ordering.current)
is dropped before each call, what it holds of the game is kept (the other players' reads and writes
fill it: the seven players of a game, one after the other). Printed per step: CPU per call (process
time, the best of three runs of ``--rounds`` calls) and SQL statements per call. The seven powers
submit in turn (a player's log of submissions stays under its bound, as in a game's play)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROUNDS = 100


async def run(rounds: int) -> None:
    from sqlalchemy import event

    from bench.taps import game_in_mid_game
    from engine.board import Board
    from engine.legal import legal_orders
    from gm.reading.lookup import latest_phase

    async with game_in_mid_game("Reads", 0) as (_fake, table, bot, game_id):
        gm = bot.services.gamemaster
        current = gm._current  # (what the process holds, dropped before each call)
        statements = [0]

        def count(*_args: Any) -> None:
            statements[0] += 1

        for engine in (
            bot.database,
            getattr(bot.database, "reader", None),
            getattr(bot.database, "urgent", None),
        ):
            if engine is not None:
                event.listen(engine.sync_engine, "before_cursor_execute", count)
        async with bot.runtime.sessions() as session:
            phase = await latest_phase(session, game_id)
            assert phase is not None
            board = Board.from_json(phase.board)
        players = []  # (user id, two legal orders of one of its units, taken in turn)
        for power in sorted(board.units):
            entry = next(e for e in legal_orders(board, power).entries if len(e.orders) > 1)
            players.append((table.player(power).id, [o.text for o in entry.orders[:2]]))
        france = table.player("FRANCE").id
        turn = [0]

        async def game() -> None:
            current.changed([game_id])  # the game's answers dropped, as by a change of the game (then
            # held again by the submissions: every step after this one finds the game held)
            await gm.get_game(game_id)

        async def games_listed() -> None:
            current._lists.clear()  # (a user's first list: the game itself held)
            await gm.games_of_user(france)

        async def menu() -> None:
            current._menus.clear()  # (a sheet's first menu: the game held)
            await gm.order_menu(game_id, france)

        async def submission() -> None:
            turn[0] += 1
            user_id, texts = players[turn[0] % len(players)]
            await gm.submit_orders(game_id, user_id, texts[(turn[0] // len(players)) % 2])

        async def direct_message() -> None:
            turn[0] += 1
            user_id, texts = players[turn[0] % len(players)]
            text = texts[(turn[0] // len(players)) % 2]
            await gm.submit_orders(game_id, user_id, text, message_id=10**12 + turn[0])

        async def form() -> None:
            turn[0] += 1
            user_id, texts = players[turn[0] % len(players)]
            await gm.replace_orders(game_id, user_id, texts[(turn[0] // len(players)) % 2])

        async def ready() -> None:  # six of the seven powers (the phase never closes early)
            turn[0] += 1
            user_id, _texts = players[turn[0] % 6]
            await gm.set_ready(game_id, user_id, ready=(turn[0] // 6) % 2 == 0)

        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("the game (get_game)", game),
            ("submission (gm.facade, game held)", submission),
            ("a direct message's orders (held)", direct_message),
            ("an orders form's whole sheet (held)", form),
            ("Ready, then not ready (held)", ready),
            ("a player's games (games_of_user)", games_listed),
            ("a sheet's order menu", menu),
        ]
        for name, step in steps:
            for _ in range(5):
                await step()
            times = []
            done = statements[0]
            for _ in range(3):
                began = time.process_time()
                for _ in range(rounds):
                    await step()
                times.append((time.process_time() - began) / rounds)
            made = (statements[0] - done) / (3 * rounds)
            print(f"{name:36s} {1e6 * min(times):7.0f} us of CPU, {made:4.1f} statements", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", help="run this checkout's bot (default: this one)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
    asyncio.run(run(args.rounds))


if __name__ == "__main__":
    main()
