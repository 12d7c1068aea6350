"""``python bot.py --check``: are the settings valid, the database reachable and writable, its schema
at the latest revision? One line, and an exit code (ops.exits) an orchestrator can act on (Docker's
HEALTHCHECK, a monitoring probe). It neither changes the database nor contacts Discord."""

from __future__ import annotations

from db.backup import sqlite_path
from db.database import make_engine
from db.preflight import DatabaseProblem, check_database, describe, newer_database, schema_state
from ops.exits import ExitCode


async def check(database_url: str) -> tuple[ExitCode, str]:
    path = sqlite_path(database_url)
    if path is not None and not path.exists():  # do not create it: the bot does, at its first start
        if not path.parent.is_dir():
            return ExitCode.DATABASE, f"the directory of the SQLite file {path} does not exist"
        return ExitCode.MIGRATION, f"there is no database at {path} yet: starting the bot creates it"
    engine = make_engine(database_url)
    try:
        await check_database(engine)
        state = await schema_state(engine)
    except DatabaseProblem as problem:
        return ExitCode.DATABASE, problem.reason
    finally:
        await engine.dispose()
    where = describe(engine)
    if state.newer_than_code:
        return ExitCode.NEWER_DATABASE, newer_database(where, state)
    if not state.at_head:
        return ExitCode.MIGRATION, (
            f"{where} is at revision {state.current or '(empty)'}, the latest is {state.head}: "
            "starting the bot upgrades it"
        )
    return ExitCode.OK, f"ok: settings valid; {where} reachable and writable; schema at revision {state.head}"
