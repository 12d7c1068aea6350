"""Looking things up: load a game, its players and phases (lookup), the plain data the use cases
return (info), the public log. Nothing here changes a game; the reports built on them are gm.reports."""
