"""What the tests and the benchmarks share: the loopback fake Discord the bot runs against, helpers
that play a game through it, the bot as a process of its own, and sample boards and games. Nothing
here ships in the product; bench/ and tests/ import it, the product never does."""
