"""Setting games up: create, join, leave, settings, seats, and the places a game lives in."""
