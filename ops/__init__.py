"""Running the bot as a service: start-up checks that name what failed, a graceful stop on SIGTERM,
logs an operator can read, the health check. The composition root (bot.py) wires these in; they know
Discord and the database but none of the cogs."""
