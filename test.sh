#!/usr/bin/env bash
# Runs the whole test suite (lint included): creates the virtual environment if needed.
# Extra arguments go to pytest, e.g. ./test.sh tests/engine -k datc
set -euo pipefail
cd "$(dirname "$0")"
REQUIREMENTS=dev source scripts/ensure_venv.sh  # runtime + test and build tools
.venv/bin/ruff check .
exec .venv/bin/python -m pytest "$@"
