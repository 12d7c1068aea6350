"""The gamemaster: Discord-free use cases over db/, engine/ and render/ (see DESIGN.md).

- gm.games      create, join, leave, start, set_game_channels, get_game, list_games, games_of_user
- gm.orders     submit_orders, clear_orders, my_orders, set_ready, early_close_due
- gm.history    phase_history, phase_map (public data only)
- gm.lifecycle  PhaseCloser: close a phase exactly once (claim, adjudicate off the loop, write)
- gm.scheduler  GameScheduler: deadline and reminder jobs, rebuilt from the database
- gm.reminders  queue_reminders
- gm.outbox     OutboxSender protocol, deliver_pending
- gm.runtime    Gamemaster: the above wired together for the bot
- gm.errors     GameError and its subclasses (message + hint) for every user mistake
"""
