"""Spectators (/game watch): members who watch a game's public channel.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "spectator",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user_id"),
    )
    with op.batch_alter_table("spectator", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_spectator_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("spectator", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_spectator_game_id"))
    op.drop_table("spectator")
