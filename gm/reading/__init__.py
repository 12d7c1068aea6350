"""Looking things up: game and phase info, status, history and maps, export. Nothing here changes a game."""
