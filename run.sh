#!/usr/bin/env bash
# Starts the bot: creates the virtual environment if needed (runtime dependencies only), upgrades the
# database, connects to Discord. Stop it with Ctrl-C or SIGTERM: it finishes the work under way first.
# Settings come from the environment or .env (see .env.example); DISCORD_TOKEN is required.
set -euo pipefail
cd "$(dirname "$0")"
REQUIREMENTS=runtime source scripts/ensure_venv.sh  # runtime dependencies only
exec .venv/bin/python bot.py "$@"
