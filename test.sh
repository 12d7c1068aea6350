#!/usr/bin/env bash
# Runs the whole test suite (lint included): creates the virtual environment if needed.
# Extra arguments go to pytest, e.g. ./test.sh tests/engine -k datc
set -euo pipefail
cd "$(dirname "$0")"
REQUIREMENTS=dev source scripts/ensure_venv.sh  # runtime + test and build tools
.venv/bin/ruff check .
.venv/bin/ruff format --check .  # one layout everywhere (`ruff format .` fixes it)
.venv/bin/mypy  # strict for engine/ and render/, default elsewhere (pyproject.toml)
exec .venv/bin/python -m pytest "$@"
