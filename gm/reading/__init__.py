"""Looking things up: load a game, its players and phases (lookup), the plain data the use cases
return (info), the public log, who reads a running fogged game and what (fog). Nothing here changes
a game; the reports built on them are gm.reports."""
