#!/usr/bin/env bash
# The README's deployment sections followed on a fresh clone of this repository's HEAD, as an admin
# would, for a reviewer to re-run:  scripts/deploy_trial.sh
#
# Commands that run here are run as the README writes them (the settings file, --version, --check,
# the upgrade, a backup and its restore, --install-only). Docker, compose and systemd have no daemon
# here: their parts run as tests that build each deployment's environment the way Docker and systemd
# do (harness/deployments.py: their documented precedence) and start the real bot with it against the
# loopback fake Discord (tests/test_deploy_env.py), restore under a live bot (SQLite and PostgreSQL,
# tests/e2e/test_bot_restore_lock.py), roll back (tests/db/test_db_rollback.py), and check that the
# README's commands are the ones simulated (tests/test_deploy_env.py::test_the_readme_s_*).
# The clone uses this checkout's .venv (a fresh one would be made by ./run.sh, from the network).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$src" "$work/clone"
cd "$work/clone"
ln -s "$src/.venv" .venv
step() { printf '\n== %s\n' "$*"; }
expect() {  # expect CODE command...: run it, show its output, fail unless it exits with CODE
    local want="$1"; shift
    set +e; "$@"; local got=$?; set -e
    if [ "$got" != "$want" ]; then echo "FAILED: '$*' exited $got, expected $want" >&2; exit 1; fi
}

step "The two commands: install -m 600 .env.example .env, then DISCORD_TOKEN=..."
install -m 600 .env.example .env
sed -i 's/^DISCORD_TOKEN=$/DISCORD_TOKEN=trial-token/' .env
[ "$(stat -c %a .env)" = 600 ] && echo ".env is 600 and sets only: $(grep -v '^#' .env | cut -d= -f1 | tr '\n' ' ')"

step "./run.sh --version, ./run.sh --install-only (nothing to install: requirements unchanged)"
./run.sh --version
./run.sh --install-only && echo "install-only: exit 0"

step "./run.sh --check before the first start: exit 5, one line"
expect 5 ./run.sh --check
step "python -m db upgrade, then ./run.sh --check: exit 0"
.venv/bin/python -m db upgrade
expect 0 ./run.sh --check

step "Backups and restore: .venv/bin/python -m db backup backups/gm-\$(date +%F).db"
.venv/bin/python -m db backup "backups/gm-$(date +%F).db"
[ "$(stat -c %a "backups/gm-$(date +%F).db")" = 600 ] && echo "the backup is 600"
.venv/bin/python -m db restore "backups/gm-$(date +%F).db"
git status --porcelain --ignored=no | grep . && { echo "FAILED: files the bot made are not git-ignored" >&2; exit 1; }
echo "git status: clean (the database, its lock and the backups are git-ignored)"

step "Docker, compose and systemd, simulated (no daemons here), and rollback and restore under a live bot"
.venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/test_deploy_env.py tests/test_deploy.py tests/db/test_db_rollback.py \
    tests/e2e/test_bot_restore_lock.py tests/test_health_endpoint.py
step "done: the README's deployment sections hold on a fresh clone"
