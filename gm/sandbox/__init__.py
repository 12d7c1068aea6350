"""Sandboxes: a member's private "what if" boards (/sandbox).

A sandbox is a copy of what a game's channel has shown (the position at the start of any of its
phases, the open one included, never anybody's orders of an open phase but, at the owner's choice,
their own), or of a variant's start. Its owner orders every power, with the same legal orders and the
same entry gate as in a game (gm.ordering.judging, engine.enter_order), adjudicates when they want
(the engine in the worker processes, gm.phases.worker.close_work, as a real close), sees the results
map, steps back and tries again.

A sandbox never touches its game: it is kept in tables of its own (db.models.Sandbox and
SandboxPhase), sends no message through the outbox and writes nothing in the game's phases, orders,
log or statistics. Limits (gm.sandbox.making): three per member (a fourth replaces the one used
longest ago, once confirmed), deleted 30 days after their last use, and when their owner leaves the
server they came from.

Modules: ``model`` (what the use cases return, the refusals), ``making`` (new, list, delete, the
sweeps), ``playing`` (the menu for one power, orders, step back), ``adjudicating`` (the request for
the worker and the results written back).
"""
