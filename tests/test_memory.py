"""ops.memory: glibc's mmap threshold fixed, so that big freed blocks (maps) go back to the system."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
RSS = """
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
"""


def run(script: str, *args: str) -> str:
    """What ``script`` prints, run by a fresh Python in the project (with ``rss()``: its resident KiB)."""
    done = subprocess.run(
        [sys.executable, "-c", RSS + script, *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout


@pytest.mark.skipif(not GLIBC, reason="glibc only: elsewhere the call changes nothing and says so")
def test_freed_map_sized_blocks_go_back_to_the_system_with_the_threshold_fixed() -> None:
    """A burst of 300 KiB buffers freed at once (50 closes' maps): with glibc's moving threshold they
    stay in the process; with the threshold fixed, the resident size comes back down."""
    script = """
import sys
from ops.memory import keep_big_blocks_returnable
if sys.argv[1] == "fixed":
    assert keep_big_blocks_returnable()
first = bytearray(300 * 1024); del first  # a first big block freed: glibc raises its threshold
before = rss()
maps = [bytearray(300 * 1024) for _ in range(200)]
keep = [bytearray(100) for _ in range(2000)]  # small objects after them pin the heap's top
del maps
print(rss() - before)
"""
    grown = {mode: int(run(script, mode)) for mode in ("moving", "fixed")}
    assert grown["fixed"] < 5_000, grown  # KiB: the 60 MiB went back
    assert grown["moving"] > 20_000, grown  # without it they stay (what the bot saw after closes)


def test_the_bot_process_does_not_load_the_renderer() -> None:
    """Only the worker processes draw: the bot's own process never imports the renderer or Pillow
    (about 5 MiB resident kept out of the process that stays up)."""
    script = "import sys, bot; print(sorted({m.split('.')[0] for m in sys.modules} & {'render', 'PIL'}))"
    assert run(script).strip() == "[]"


@pytest.mark.skipif(not GLIBC, reason="glibc only: elsewhere there is no malloc_trim")
def test_the_heaps_free_pages_go_back_to_the_system_when_asked() -> None:
    """Many small buffers (rows, messages) freed after a burst, with a few left here and there: the
    heap keeps its pages until give_back_free_memory, then the resident size comes down."""
    script = """
from ops.memory import give_back_free_memory
before = rss()
burst = [bytearray(4000) for _ in range(20000)]  # 80 MB in heap-sized blocks
kept = burst[::500]  # a few survive, pinning the heap's top
del burst
held = rss() - before
give_back_free_memory()
print(held, rss() - before)
"""
    held, after = map(int, run(script).split())
    assert held > 60_000, f"the freed burst stayed resident ({held} KiB) before the trim"
    assert after < held / 4, f"{after} KiB still resident after the trim, from {held} KiB"


@pytest.mark.skipif(not GLIBC, reason="glibc only: elsewhere the call changes nothing and says so")
def test_threads_sharing_two_heaps_keep_less_memory_than_one_heap_each() -> None:
    """Eight threads each allocating and freeing 12 MB at once (SQLite's threads in a burst): with
    glibc's heap per thread, each keeps its free pages; sharing two heaps, they reuse each other's."""
    script = """
import sys, threading
from ops.memory import share_heaps
if sys.argv[1] == "shared":
    assert share_heaps()
kept = []
barrier = threading.Barrier(8)
def work():
    barrier.wait()
    burst = [bytearray(3000) for _ in range(4000)]
    kept.extend(burst[::400])
    del burst
before = rss()
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(rss() - before)
"""
    grown = {mode: int(run(script, mode)) for mode in ("own", "shared")}
    assert grown["shared"] < 0.9 * grown["own"], grown


def test_many_sqlite_connections_reading_a_big_database_stay_small() -> None:
    """Twelve read sessions at once (a busy moment), each reading all of a 20 MB database: each
    connection keeps its page cache for as long as it lives, at most db.database.PAGE_CACHE_KIB (with
    SQLite's own 2,000 KiB, the twelve held about 24 MiB)."""
    script = """
import asyncio, sqlite3, sys, tempfile
from pathlib import Path
from sqlalchemy import column, func, select, table
import db.database
from db.database import make_engine, make_session_factory

if sys.argv[1] == "sqlite's":
    db.database.PAGE_CACHE_KIB = 2000
path = Path(tempfile.mkdtemp()) / "big.db"
made = sqlite3.connect(path)
made.execute("PRAGMA journal_mode=WAL")
made.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b TEXT)")
made.executemany("INSERT INTO t (b) VALUES (?)", [("x" * 1000,) for _ in range(20000)])
made.commit()
made.close()
rows = table("t", column("b"))

async def main():
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    sessions = make_session_factory(engine)
    done, gate = [], asyncio.Event()

    async def read():
        async with sessions.read() as session:
            await session.exec(select(func.sum(func.length(rows.c.b))))
            done.append(1)
            await gate.wait()

    before = rss()
    readers = [asyncio.create_task(read()) for _ in range(12)]
    while len(done) < 12:
        await asyncio.sleep(0.01)
    print(rss() - before)
    gate.set()
    await asyncio.gather(*readers)
    await engine.dispose()

asyncio.run(main())
"""
    grown = {mode: int(run(script, mode)) for mode in ("sqlite's", "ours")}
    assert grown["ours"] < 10_000, grown  # KiB
    assert grown["sqlite's"] > 18_000, grown


def test_the_bot_process_on_sqlite_does_not_load_postgresqls_dialect() -> None:
    """A bot on SQLite (the default) never loads SQLAlchemy's PostgreSQL dialect and its drivers
    (about 3 MiB of code kept out of the process that stays up); one on PostgreSQL loads it."""
    script = """
import asyncio, importlib, sys, tempfile
from pathlib import Path
import bot
for name in bot.EXTENSIONS:
    importlib.import_module(name)
from db.database import make_engine, make_session_factory
from gm.ordering.offline import _upsert

async def main():
    engine = make_engine(f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'bot.db'}")
    async with make_session_factory(engine).read() as session:
        await session.connection()
    await engine.dispose()

asyncio.run(main())
_upsert("sqlite")
print(sorted(m for m in sys.modules if m.startswith("sqlalchemy.dialects.postgresql")))
_upsert("postgresql")
print(any(m.startswith("sqlalchemy.dialects.postgresql") for m in sys.modules))
"""
    on_sqlite, on_postgresql = run(script).splitlines()
    assert on_sqlite == "[]"
    assert on_postgresql == "True"


def test_boards_listing_the_same_orders_hold_them_once() -> None:
    """Ten games in near-alike mid-game positions (34 units, one missing in each), every power's legal
    orders listed and looked up, as the busy bot holds them: what is held grows by the orders no
    other board lists, not by a copy of every order per board (6.7 MB with a copy each, 3.6 MB now)."""
    script = """
import gc, tracemalloc
from bench.legal_orders import MID_GAME
from engine import Board
from engine.legal import forget_legal_orders, legal_orders

every = [(power, unit) for power, units in MID_GAME.items() for unit in units]
boards = [
    Board.from_json({"phase": "F1905M", "centers": {}, "units": {
        power: [u for u in units if (power, u) != every[n]] for power, units in MID_GAME.items()}})
    for n in range(10)
]
forget_legal_orders()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
listed = 0
for board in boards:
    for power in board.game_map.powers:
        legal = legal_orders(board, power)
        listed += len(legal)
        assert all(legal.find(item.text) is item and legal.find(item.order) is item for item in legal)
gc.collect()
print(listed, tracemalloc.get_traced_memory()[0] - before)
"""
    listed, held = map(int, run(script).split())
    assert listed > 15_000  # about 1,700 orders a board
    assert held < 4_500_000, f"{held} bytes held for {listed} orders"
