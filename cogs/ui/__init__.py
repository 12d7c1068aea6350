"""Buttons, forms and confirmations (DynamicItems that survive a restart), and the live lobby post."""
