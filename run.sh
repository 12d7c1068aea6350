#!/usr/bin/env bash
# Starts the bot: creates the virtual environment if needed, upgrades the database, connects to Discord.
# Settings come from the environment or .env (see .env.example); DISCORD_TOKEN is required.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/ensure_venv.sh
exec .venv/bin/python bot.py "$@"
