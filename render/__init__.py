"""render package."""
