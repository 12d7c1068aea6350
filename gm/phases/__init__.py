"""The phase lifecycle: closing a phase exactly once, adjudication off the loop, results, absent players."""
