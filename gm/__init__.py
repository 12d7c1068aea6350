"""The gamemaster: Discord-free use cases over db/, engine/ and render/ (see docs/ARCHITECTURE.md,
"Layers"). Adapters call :class:`gm.facade.Gamemaster` and nothing else.

- gm.facade     the Gamemaster: one call per use case (session, commit, follow-ups), the moving parts
- gm.setup      games (create, join, leave, start), configure, settings, seats (who plays what), places
- gm.ordering   submission and judging of orders, whole_sheet (the /orders form), required (what each
                power owes), progress (who is done, early close), reminders
- gm.phases     closer (a phase closed exactly once), worker (adjudication and maps off the loop),
                results, disorder (missed orders, civil disorder, eliminations), coin (the 1914 flip)
- gm.endings    ending (every way a game ends), votes (draws and concessions), final_post (map and GIF)
- gm.moderation actions (/mod), replacement, takeover (open seats), rollback, shared (rights, the log)
- gm.delivery   outbox (messages sent exactly once), scheduler (deadline jobs), pool (worker
                processes), follow_ups (what a use case asks the Gamemaster to do after its commit)
- gm.reading    info (GameInfo, PhaseInfo: plain data out), lookup, status, history (and maps), export
- gm.messages   payloads: what the outbox messages say, as data the adapters word
- gm.rules      pure rules of the community's clock and memory: deadlines at a fixed hour,
                absences, grace, scores and the leaderboard
- gm.clock, gm.errors   aware UTC time; the GameErrors every refusal raises (message + hint)
- gm.game_log   log_event: the one writer of a game's log

The rules of Diplomacy themselves, and the variants, are the engine's (engine.variants).
"""
