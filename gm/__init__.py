"""The gamemaster: Discord-free use cases over db/, engine/ and render/ (see docs/ARCHITECTURE.md,
"Layers"). Adapters call :class:`gm.facade.Gamemaster` and nothing else.

Inside gm, each line below may import its own folder and the lines under it, never one above or
beside it (tests/test_layers.py holds the same order, GM_LAYERS, and checks every import):

- gm.facade, gm.public   the Gamemaster: one call per use case (session, commit, follow-ups), its
                  machinery behind .runtime; the types, errors and wording helpers adapters may name
- gm.relaying     an anonymous game's talks, relayed as the sender's powers' (/press)
- gm.sandbox      sandboxes: a member's private "what if" boards (/sandbox)
- gm.reports      status, history (and maps), export, stats and the leaderboard, operations figures
- gm.moderation   actions (/mod), replacement, takeover (open seats), rollback, shared (rights, the log)
- gm.setup        games (create, join, leave, start), configure, absences, server, places, shields
- gm.phases       closer (a phase closed exactly once), worker (adjudication and maps off the loop),
                  results, disorder (missed orders, civil disorder, eliminations), absent, coin
- gm.endings      ending (every way a game ends), votes (draws and concessions), final_post (map, GIF)
- gm.ordering     submission and judging of orders, whole_sheet (the /orders form), required (what
                  each power owes), progress (who is done, early close), reminders
- gm.follow_ups   FollowUps: what a use case asks the Gamemaster to do after its commit
- gm.reading      lookup (load and lock games, players, phases), info (GameInfo, PhaseInfo: plain
                  data out), the public log
- gm.builtin      the built-in player: the seats it plays, its orders, what their talks are told
- gm.delivery     outbox (messages sent exactly once), scheduler (deadline and reminder jobs; the
                  facade hands it the reminders), pool (worker processes), shards
- gm.anonymity    an anonymous game's messages with their members veiled, the end's reveal
- gm.settings     GameSettings: every game setting declared once (type, range, default, option)
- gm.rules        pure rules of the community's clock and memory: deadlines at a fixed hour,
                  absences, grace, scores and the leaderboard
- gm.checking     pydantic's refusals turned into one InvalidSettings in each field's words
- gm.actor, gm.clock, gm.errors, gm.game_log, gm.meant_for, gm.messages   who asks (Actor); aware
                  UTC time; the GameErrors every refusal raises; log_event, the one writer of a game's
                  log; MeantFor, the phase and game a tap or form was made for (a stale one is
                  refused); the typed messages, their words, map kinds and place kinds (data the
                  adapters word)

A function a lower folder needs moves down; a lower folder that must call up is handed a callback
(the scheduler's reminders). The rules of Diplomacy themselves, and the variants, are the engine's
(engine.variants).
"""
