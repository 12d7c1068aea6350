"""What the gamemaster says: the outbox messages' contents, for the adapters to word."""
