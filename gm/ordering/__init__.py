"""Orders: submitting and judging them, what each power owes, readiness, reminders."""
