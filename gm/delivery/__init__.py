"""The infrastructure behind the use cases: the outbox, the scheduler's jobs, the worker pool, shards."""
