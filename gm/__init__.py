"""The gamemaster: Discord-free use cases over db/, engine/ and render/ (see DESIGN.md).

- gm.games       create, join, leave, start, set_game_channels, get_game, list_games, games_of_user
- gm.configure   update_settings (before the start)
- gm.orders      submit_orders, clear_orders, my_orders, set_ready, early_close_due; gm.sheet replace_orders;
                 gm.judging judges each line
- gm.history     phase_history, phase_map (public data only)
- gm.lifecycle   PhaseCloser: close a phase exactly once (claim, adjudicate off the loop, write)
- gm.disorder    missed orders, civil disorder after missed movement phases, eliminations
- gm.moderation  Actor; extend_deadline, pause_game, resume_game, close_now, replace_player
                 (gm.replacement), set_civil_disorder, end_game; gm.rollback rollback_last_phase;
                 gm.modtools what they share (rights, the locked game, the log, the announcement)
- gm.votes       propose, cast_vote, open_proposals, my_votes (draws and concessions, secret, unanimous)
- gm.ending      finish_game: one end for every result; gm.archive makes the final post's map and GIF
                 (render.animation) off the event loop
- gm.status      game_status (/game status); gm.export export_game (JSON)
- gm.variants    the playable set-ups: seats for 2 to 7 players, neutral powers, targets, coin flip
- gm.scheduler   GameScheduler: deadline and reminder jobs, rebuilt from the database; failed closes retried
- gm.pool        WorkerPool (worker processes replaced when one dies), run_off_loop
- gm.reminders   queue_reminders
- gm.outbox      OutboxSender protocol, deliver_pending
- gm.effects     Effects: what a use case asks the running Gamemaster to do after its commit
- gm.facade     Gamemaster: the above wired together for the bot (apply(effects))
- gm.errors      GameError and its subclasses (message + hint) for every user mistake
"""
