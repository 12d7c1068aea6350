"""Fixtures for every test: the databases (tests/pg.py): ``database_url`` (empty) and
``migrated_database_url`` (at the latest schema), each on SQLite and on PostgreSQL, ``postgres_url``,
``postgres_server``. Defined once here so that the whole session shares one PostgreSQL server and one
migrated template per backend; the Hypothesis profile (tests/helpers/profiles.py); and, under
pytest-xdist, the order that spreads the tests marked ``waits`` through the run; which tests run
on PostgreSQL as well (the marker ``both_backends``); and, with ``TEST_CPU_LOG=FILE``, each test's
CPU seconds written to FILE."""

import gc
import os
import resource
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import zygote
from tests import pg
from tests.helpers import compiled_cache, profiles
from tests.pg import (  # noqa: F401  (fixtures)
    database_url,
    migrated_database_url,
    migrated_postgres_url,
    postgres_server,
    postgres_template,
    postgres_url,
    sqlite_template,
)

compiled_cache.install()  # one cache of compiled SQL for every engine (tests/helpers/compiled_cache.py)
profiles.load()  # HYPOTHESIS_PROFILE: suite (default), thorough or quick (tests/helpers/profiles.py)


def pytest_collection_finish() -> None:
    """What the session has made by now (the modules, pytest's items: most of the process's objects)
    lives to its end: frozen, Python's cycle collector no longer walks it at every full collection; and
    it runs less often. tests/gm and tests/engine alone take a sixth less CPU so; in a whole run the
    harness's bots freeze the heap at their start (bot.py) anyway, and the gain is smaller."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    _log_cpu("<start and collection>", (0.0, 0.0, 0.0), _cpu())


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist the controller names the directory of the run's one PostgreSQL server
    (tests/pg.py) and that of the zygotes the workers share (harness/zygote.py: they end with the
    controller): the workers inherit them; the first to need the server or a zygote starts it there."""
    if getattr(config, "workerinput", None) is None and (config.getoption("numprocesses", None) or 0) > 0:
        os.environ[pg.SHARED] = tempfile.mkdtemp(prefix="gm-pg-")
        zygotes = Path(tempfile.mkdtemp(prefix="zygotes-"))
        (zygotes / "lifeline").write_text(str(os.getpid()))
        os.environ[zygote.SHARED] = str(zygotes)


def pytest_unconfigure(config: pytest.Config) -> None:
    _log_cpu("<whole process>", (0.0, 0.0, 0.0), _cpu())
    if getattr(config, "workerinput", None) is None and os.environ.get(pg.SHARED):
        pg.stop_server(Path(os.environ.pop(pg.SHARED)))
    if getattr(config, "workerinput", None) is None and os.environ.get(zygote.SHARED):
        shutil.rmtree(os.environ.pop(zygote.SHARED), ignore_errors=True)  # the zygotes end with this process


BOTH = "both_backends"  # the marker of a test whose PostgreSQL copy runs in every run
WAITS = "waits"  # the marker of a module whose tests start processes or wait in real time
SPREAD = 2 / 3  # the waiting modules sit in the first two thirds of the queue


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected: xdist hands out what is left
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The PostgreSQL copies of the tests not marked ``both_backends`` are deselected, unless
    ``TEST_BACKENDS=all`` or named on the command line (docs/ARCHITECTURE.md, "Running the suite").

    Under pytest-xdist, the modules marked ``waits`` (``pytestmark = pytest.mark.waits``) are spread
    evenly through the first two thirds of the queue, each module's tests together. ./test.sh runs
    xdist's ``load`` scheduling with ``--maxschedchunk 2``: one queue, handed out two tests at a time
    to whichever worker is free. So the workers mix waiting with computing, and the run ends on short
    tests that keep every worker busy to the end. Only the order changes."""
    if os.environ.get("TEST_BACKENDS", "marked") != "all":
        named = set(config.args)  # a copy named on the command line runs
        copies = [
            postgres_copy(item) and item.get_closest_marker(BOTH) is None and item.nodeid not in named
            for item in items
        ]
        if any(copies):
            config.hook.pytest_deselected(
                items=[item for item, drop in zip(items, copies, strict=True) if drop]
            )
            items[:] = [item for item, drop in zip(items, copies, strict=True) if not drop]
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0")) < 2:
        return
    items[:] = spread_waiting(items, [item.get_closest_marker(WAITS) is not None for item in items])


def spread_waiting(items: list[pytest.Item], waits: list[bool]) -> list[pytest.Item]:
    """``items`` with the waiting ones (``waits``) moved, a module at a time in collection order, to
    evenly spaced places among the first :data:`SPREAD` of the others."""
    light = [item for item, waiting in zip(items, waits, strict=True) if not waiting]
    groups: dict[str, list[pytest.Item]] = {}
    for item, waiting in zip(items, waits, strict=True):
        if waiting:
            groups.setdefault(item.nodeid.split("::")[0], []).append(item)
    ordered: list[pytest.Item] = []
    at = 0
    for n, group in enumerate(groups.values()):
        place = round(n * SPREAD * len(light) / len(groups))
        ordered += light[at:place] + group
        at = max(at, place)
    return ordered + light[at:]


def postgres_copy(item: pytest.Item) -> bool:
    """Whether ``item`` is the PostgreSQL copy of a test run on both backends (the ``postgresql``
    parameter of tests/pg.py's ``database_url`` or ``migrated_database_url``)."""
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    return "postgresql" in (params.get("database_url"), params.get("migrated_database_url"))


CPU_LOG = os.environ.get("TEST_CPU_LOG")  # where each test's CPU seconds go (none: not measured)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``TEST_CPU_LOG=FILE``, appends a line per test to FILE: its node id, then the CPU seconds
    (user + system) of the test's process, of the processes it started and waited for, and of the
    zygotes' children it ran (harness/zygote.py), its set-up and tear-down included."""
    if not CPU_LOG:
        yield
        return
    before = _cpu()
    yield
    _log_cpu(item.nodeid, before, _cpu())


def _log_cpu(name: str, before: tuple[float, ...], after: tuple[float, ...]) -> None:
    if CPU_LOG:
        figures = "\t".join(str(round(b - a, 3)) for a, b in zip(before, after, strict=True))
        with open(CPU_LOG, "a") as log:
            log.write(f"{name}\t{figures}\n")


def _cpu() -> tuple[float, float, float]:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        mine.ru_utime + mine.ru_stime,
        theirs.ru_utime + theirs.ru_stime,
        zygote.served_cpu,
    )
