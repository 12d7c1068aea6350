"""What the gamemaster says: the outbox messages' contents, for the adapters to word, and the names
they share (words, map kinds, place kinds). Imports nothing else of gm."""
