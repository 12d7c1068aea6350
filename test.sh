#!/usr/bin/env bash
# Runs the whole test suite (lint included): creates the virtual environment if needed.
# Extra arguments go to pytest, e.g. ./test.sh tests/engine -k datc
# The tests run in TEST_WORKERS processes (pytest-xdist, default 4: on two cores the others run while
# some wait on subprocesses, sockets and deadlines). xdist's load scheduling hands the tests out from one
# queue, two at a time, to whichever worker is free; tests/conftest.py spreads the modules marked
# `waits` through the queue's first two thirds. TEST_WORKERS=0 runs them in this process.
# The property tests run a quarter of their random examples; HYPOTHESIS_PROFILE=thorough runs them all,
# HYPOTHESIS_PROFILE=quick a tenth (tests/helpers/profiles.py).
set -euo pipefail
cd "$(dirname "$0")"
REQUIREMENTS=dev source scripts/ensure_venv.sh  # runtime + test and build tools
.venv/bin/ruff check .
.venv/bin/ruff format --check .  # one layout everywhere (`ruff format .` fixes it)
# mypy (strict for engine/ and render/, default elsewhere: pyproject.toml) runs beside the tests.
# Its report follows the tests' and fails the run as they do.
mypy_report="$(mktemp)"
# The tests' files (their SQLite databases, the PostgreSQL servers' data, the bots' working directories)
# go to a directory in memory where there is one (/dev/shm): the same files, without waiting for the
# disk at each commit's fsync. Removed at the end; TEST_TMP=disk keeps them on the disk ($TMPDIR).
tests_tmp=""
if [ "${TEST_TMP:-memory}" = memory ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    tests_tmp="$(mktemp -d /dev/shm/diplomacy-tests.XXXXXX)"
    chmod 755 "$tests_tmp"  # the PostgreSQL server runs as `postgres` when the tests run as root
    export TMPDIR="$tests_tmp"
fi
trap 'rm -f "$mypy_report"; [ -z "$tests_tmp" ] || rm -rf "$tests_tmp"' EXIT
# Its cache (.mypy_cache) is mostly the installed packages' analysis (about 25 s of CPU without it): a
# clone without one starts from a copy of what a first run on this machine left in ~/.cache (mypy
# checks each entry against its source's hash: a stale one is only redone).
mypy_seed="${XDG_CACHE_HOME:-$HOME/.cache}/diplomacy-bot-mypy"
mypy_fresh=0
if [ ! -d .mypy_cache ]; then
    mypy_fresh=1
    [ ! -d "$mypy_seed" ] || cp -r "$mypy_seed" .mypy_cache || true
fi
.venv/bin/mypy >"$mypy_report" 2>&1 &
mypy_pid=$!
# Compiled modules and pytest's rewritten test modules are cached (__pycache__, ignored by git) even
# where the environment says not to: every worker and every bot process the tests start reuses them.
export PYTHONDONTWRITEBYTECODE=
# pytest rewrites each test module's asserts at its import and caches that beside it; where the cache
# is missing (a fresh clone's first run) one process writes it before the workers start, instead of
# every worker rewriting every module at once (8 s of CPU each: tests/helpers/rewritten.py).
uncached=()
if [ $# -eq 0 ] && [ "${TEST_WORKERS:-4}" != 0 ]; then  # the whole suite, in several processes
    mapfile -t uncached < <(.venv/bin/python -m tests.helpers.rewritten)
fi
if [ "${#uncached[@]}" -ge 20 ]; then
    .venv/bin/python -m pytest --collect-only -q -p no:cacheprovider "${uncached[@]}" >/dev/null 2>&1 || true
fi
status=0
.venv/bin/python -m pytest -n "${TEST_WORKERS:-4}" --dist load --maxschedchunk 2 "$@" || status=$?
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
if [ "$mypy_fresh" -eq 1 ] && [ "$mypy_status" -eq 0 ]; then  # this clone's cache, for the next one
    { mkdir -p "$(dirname "$mypy_seed")" && rm -rf "$mypy_seed.$$" && cp -r .mypy_cache "$mypy_seed.$$" \
        && rm -rf "$mypy_seed" && mv "$mypy_seed.$$" "$mypy_seed"; } || rm -rf "$mypy_seed.$$"
fi
echo "mypy: $(cat "$mypy_report")"
[ "$mypy_status" -eq 0 ] || exit "$mypy_status"
exit "$status"
