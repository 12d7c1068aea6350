#!/usr/bin/env bash
# Starts the bot: creates the virtual environment if needed (runtime dependencies only), upgrades the
# database, connects to Discord. Stop it with Ctrl-C or SIGTERM: it finishes the work under way first.
# Settings come from the environment or .env (see .env.example); DISCORD_TOKEN is required.
# ./run.sh --install-only: make .venv and install what requirements.txt asks (nothing when it did not
# change since the last install), then exit: the systemd unit runs it before each start.
set -euo pipefail
cd "$(dirname "$0")"
REQUIREMENTS=runtime source scripts/ensure_venv.sh  # runtime dependencies only
if [ "${1:-}" = "--install-only" ]; then
    exit 0
fi
exec .venv/bin/python bot.py "$@"
