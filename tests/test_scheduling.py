"""The tests' order under pytest-xdist (tests/helpers/scheduling.py): every test still runs once, the
waiting modules are dealt out over the workers' first shares, and the list names modules that exist."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.scheduling import SPREAD, WAITING, interleaved, share_sizes

ROOT = Path(__file__).resolve().parent.parent


def test_every_waiting_module_named_exists() -> None:
    assert [m for m in WAITING if not (ROOT / m).is_file()] == []


def test_shares_are_what_work_stealing_sends_first() -> None:
    assert share_sizes(10, 3) == [3, 3, 4]
    assert sum(share_sizes(2346, 4)) == 2346


def test_the_order_is_a_permutation_spreading_the_waiting_modules_over_the_shares() -> None:
    waiting = sorted(WAITING, key=lambda m: -WAITING[m])[:6]
    modules = [f"tests/light_{n // 10}.py" for n in range(300)]
    for n, module in enumerate(waiting):  # in file order: all at the end, as collected
        modules += [module] * (n + 2)
    items = list(range(len(modules)))
    workers = 3
    ordered = interleaved(items, modules, workers)
    assert sorted(ordered) == items
    sizes = share_sizes(len(items), workers)
    starts = [sum(sizes[:k]) for k in range(workers)]
    seconds = []
    for k in range(workers):
        share = ordered[starts[k] : starts[k] + sizes[k]]
        here = {modules[i] for i in share if modules[i] in WAITING}
        seconds.append(sum(WAITING[m] for m in here))
        assert here, f"share {k} has no waiting module"
        for module in here:  # a module's tests together, in the first part of the share
            places = [p for p, i in enumerate(share) if modules[i] == module]
            assert places == list(range(places[0], places[-1] + 1))
            assert places[0] <= SPREAD * len(share) + 10
    assert max(seconds) - min(seconds) <= max(WAITING[m] for m in waiting)
    assert interleaved(items, modules, 1) == items
