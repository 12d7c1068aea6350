"""The reports a reader asks for: /game status, the phase history and its maps, the export, the
leaderboard and statistics, the operators' figures. Nothing here changes a game; each report reads
several folders below it, so it sits above them (gm.reading holds the plain lookups they all use)."""
