"""One owner per transaction, one writer of the game log (docs/ARCHITECTURE.md, "Transactions").

The facade's use cases own their transactions (``async with sessions.begin()``, a read session for
a read); the gm functions they call write in the session they are handed and never end its
transaction. Below the facade only the machinery that runs by itself opens sessions (OWNERS). Every
entry of a game's log is made by gm.game_log.log_event. Read from the source, like tests/test_layers.py,
so that a new module that commits, or builds a log entry by hand, fails here."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACADE = "gm/facade/"

OWNERS = {
    # gm modules below the facade that open sessions themselves: each runs by itself, not inside a
    # use case, and each of its steps is a transaction of its own
    "gm/phases/closer.py": "a close's claim, a short transaction (exactly once)",
    "gm/phases/requesting.py": "a close's request, read in a read-only transaction",
    "gm/phases/finishing.py": "a close's results in one transaction; a failed close reopened",
    "gm/delivery/outbox.py": "the delivery's claims, each part's record, verdicts and releases",
    "gm/delivery/scheduler.py": "its jobs: the rebuild's pages, the sweep, the reminders",
    "gm/endings/final_post.py": "the final post's pictures, stored once drawn",
    "gm/setup/shields.py": "the shields put on older games, one game at a time",
}
ENDS = {"commit", "rollback"}
LOG_WRITER = ("gm/game_log.py", "log_event")


def sources(*where: str) -> list[Path]:
    found: list[Path] = []
    for place in where:
        path = ROOT / place
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


def opened_sessions(function: ast.AST) -> set[str]:
    """The names ``function`` binds with ``async with <a session factory>(...) as name``."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.AsyncWith):
            for item in node.items:
                if (
                    isinstance(item.context_expr, ast.Call)
                    and "session" in _dotted(item.context_expr).lower()
                    and isinstance(item.optional_vars, ast.Name)
                ):
                    names.add(item.optional_vars.id)
    return names


def opens_sessions(path: Path) -> bool:
    return any(opened_sessions(node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def foreign_ends(path: Path) -> list[str]:
    """Every ``x.commit()`` / ``x.rollback()`` in ``path`` on something its function did not open."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in ENDS:
            continue
        around = [f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
        owner = min(around, key=lambda f: (f.end_lineno or f.lineno) - f.lineno, default=None)
        target = node.func.value
        if owner is None or not (isinstance(target, ast.Name) and target.id in opened_sessions(owner)):
            found.append(f"{name(path)}:{node.lineno} {_dotted(node.func)}()")
    return found


def log_entries_built(path: Path) -> list[str]:
    """Every ``GameLogEntry(...)`` in ``path`` outside the one function that writes the log."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = [
        n
        for n in ast.walk(tree)
        if name(path) == LOG_WRITER[0] and isinstance(n, ast.FunctionDef) and n.name == LOG_WRITER[1]
    ]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _dotted(node.func).split(".")[-1] == "GameLogEntry":
            inside = any(f.lineno <= node.lineno <= (f.end_lineno or f.lineno) for f in allowed)
            if not inside:
                found.append(f"{name(path)}:{node.lineno}")
    return found


def test_below_the_facade_only_the_listed_machinery_opens_sessions() -> None:
    opening = {name(p) for p in sources("gm") if opens_sessions(p) and not name(p).startswith(FACADE)}
    assert opening == set(OWNERS), (
        "Below gm/facade a module writes in the session it is handed; only the machinery in OWNERS "
        "opens its own (add a new one there and to docs/ARCHITECTURE.md, 'Transactions', if it "
        f"really runs by itself). Opening sessions: {sorted(opening)}"
    )


def test_only_who_opened_a_session_ends_its_transaction() -> None:
    ends = [found for path in sources("gm") for found in foreign_ends(path)]
    assert ends == [], (
        "A gm function ends a transaction it did not open (flush instead; the facade's unit of "
        f"work, sessions.begin(), commits): {ends}"
    )


def test_every_game_log_entry_is_written_by_log_event() -> None:
    built = [
        found
        for path in sources("gm", "cogs", "db", "ops", "bot.py")
        if name(path) != "db/models.py"
        for found in log_entries_built(path)
    ]
    assert built == [], f"GameLogEntry built by hand (use gm.game_log.log_event): {built}"


def test_the_checks_see_what_they_forbid(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "async def helper(session):\n"
        "    session.add(GameLogEntry(game_id=1))\n"
        "    await session.commit()\n"
        "async def owner(sessions):\n"
        "    async with sessions() as session:\n"
        "        await session.commit()\n"
        "    async with sessions.read() as other:\n"
        "        await helper(other)\n"
        "        await other.rollback()\n"
        "async def reader(factory):\n"
        "    async with factory.session_factory.begin() as s:\n"
        "        pass\n"
    )
    assert foreign_ends(sample) == ["sample.py:3 session.commit()"]
    assert log_entries_built(sample) == ["sample.py:2"]
    assert opens_sessions(sample)
    plain = tmp_path / "plain.py"
    plain.write_text("async def helper(session):\n    await session.flush()\n")
    assert not opens_sessions(plain) and foreign_ends(plain) == []
