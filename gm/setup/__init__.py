"""Setting games up: create, join, leave, configure, absences, the server's settings, and the places a
game lives in (its settings themselves are gm.settings, below every folder)."""
