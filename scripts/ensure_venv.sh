#!/usr/bin/env bash
# Creates .venv and installs the pinned dependencies when they are missing or the
# requirement files changed since the last install. Sourced by run.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python_bin="${PYTHON:-python3}"
if ! "$python_bin" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "Python 3.11 or newer is needed (found $("$python_bin" --version 2>&1))." >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "Creating virtual environment in .venv ..." >&2
    "$python_bin" -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(cat "$root/requirements.txt" "$root/requirements-dev.txt" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "Installing pinned dependencies ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/requirements-dev.txt"
    echo "$want" > "$stamp"
fi
