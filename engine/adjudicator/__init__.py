"""The adjudicator's parts; the entry points are in :mod:`engine.adjudication`.

- :mod:`~engine.adjudicator.intake`: reading and judging each order line, one order per unit.
- :mod:`~engine.adjudicator.legality`: board-level legality (convoy routes, supports needing them).
- :mod:`~engine.adjudicator.convoys`: convoy geometry.
- :mod:`~engine.adjudicator.movement`: movement resolution (Kruijswijk's guess-and-check, Szykman).
- :mod:`~engine.adjudicator.retreats`: retreat options and the retreat phase.
- :mod:`~engine.adjudicator.adjustments`: builds, removals, waives.
- :mod:`~engine.adjudicator.civil_disorder`: which units go when removals are not ordered.
- :mod:`~engine.adjudicator.explain`: every reason shown to players.
"""
