"""Where things are, for tests that start processes from the repository's root."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root (where bot.py is)."""
