"""The outbox's Discord end: rendering gm's messages as embeds and posting them exactly once."""
