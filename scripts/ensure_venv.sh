#!/usr/bin/env bash
# Creates .venv and installs the pinned dependencies when they are missing or their requirement files
# changed since the last install. Sourced by run.sh (REQUIREMENTS=runtime: requirements.txt only) and
# test.sh (REQUIREMENTS=dev: requirements-dev.txt, which adds the test and build tools).
# Needs bash and Python >= 3.11 (PYTHON=/path/to/python3.x to pick one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python_bin="${PYTHON:-python3}"
kind="${REQUIREMENTS:-dev}"
case "$kind" in
    runtime) files=("$root/requirements.txt"); install="$root/requirements.txt" ;;
    dev) files=("$root/requirements.txt" "$root/requirements-dev.txt"); install="$root/requirements-dev.txt" ;;
    *) echo "REQUIREMENTS must be runtime or dev (got '$kind')." >&2; exit 1 ;;
esac
if ! command -v "$python_bin" >/dev/null 2>&1; then
    echo "Python 3.11 or newer is needed, and '$python_bin' was not found (set PYTHON=/path/to/python3)." >&2
    exit 1
fi
if ! "$python_bin" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "Python 3.11 or newer is needed (found $("$python_bin" --version 2>&1))." >&2
    exit 1
fi

# sha256 of stdin: sha256sum (Linux), shasum (macOS, BSD), else Python's hashlib.
digest() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 | cut -d' ' -f1
    else
        "$python_bin" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'
    fi
}

if [ ! -x "$venv/bin/python" ]; then
    echo "Creating virtual environment in .venv ..." >&2
    "$python_bin" -m venv "$venv"
fi
stamp="$venv/.requirements-$kind.sha256"
want="$(cat "${files[@]}" | digest)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "Installing pinned $kind dependencies ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$install"
    echo "$want" > "$stamp"
    if [ "$kind" = dev ]; then  # the dev set includes the runtime set
        cat "$root/requirements.txt" | digest > "$venv/.requirements-runtime.sha256"
    fi
fi
