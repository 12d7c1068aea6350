"""Issue 27's shields on games that were running before it, and messages to a pair's private place.

- ``game.places_shielded``: whether the players' member overwrites (no player reads a rival's place,
  whatever their roles) are on the game's private places. Every game set up from now on has them from
  the start (True); a game running when this migration comes in was set up without them (False), and
  the bot puts them on at its next start (gm.setup.shields), then marks it True.
- ``outbox.target_place_id``: a message to one private place by its id (OutboxTarget.PLACE: a pair's
  thread or channel, told who plays a seat now).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-10 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RUNNING = ("active", "paused")  # db.models.GameStatus, as the rows store it


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("places_shielded", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    game = sa.table("game", sa.column("status", sa.String()), sa.column("places_shielded", sa.Boolean()))
    op.execute(game.update().where(game.c.status.in_(RUNNING)).values(places_shielded=False))
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("target_place_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("target_place_id")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("places_shielded")
