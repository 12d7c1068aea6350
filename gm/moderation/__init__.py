"""What moderators do: deadlines, pause, close, replacements and open seats, civil disorder, rollback, end."""
