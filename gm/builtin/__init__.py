"""The built-in player in a game: which seats it plays (:mod:`gm.builtin.seats`), the orders it gives
at a close, in the worker processes (:mod:`gm.builtin.orders`), and the seats it fills at the start.

The player itself is the engine's (engine.player): pure, seeded, legal orders only. gm decides where
it plays: seats nobody took when a game starts with ``fill_seats``; seats whose player left or fell
into civil disorder when the game's ``absent_seats`` setting is ``built_in``; seats a moderator gives
it (/mod builtin). A person who takes the seat (take-over, /mod replace) or a player who comes back
(sending orders) plays it again at once.
"""
