"""A game's places by id: the negotiation channel, pair channels and threads it made (game_place), and
a random tag in the names of its places (game.place_tag), so set-up never adopts a place by its name.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("place_tag", sa.String(length=12), nullable=True))
    op.create_table(
        "game_place",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("discord_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "kind", "key"),
    )
    with op.batch_alter_table("game_place", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_place_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_place", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_place_game_id"))
    op.drop_table("game_place")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("place_tag")
