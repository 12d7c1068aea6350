"""db package."""
