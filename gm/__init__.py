"""gm package."""
