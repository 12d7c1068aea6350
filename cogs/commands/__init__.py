"""The slash commands and direct messages, one cog per family."""
