"""The infrastructure behind the use cases: the outbox, the scheduler, the worker pool, follow-ups."""
