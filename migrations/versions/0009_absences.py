"""Absences (/absence): days a player will be away, per game; a deadline inside one moves after it once.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "absence",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("declared_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_by", sa.BigInteger(), nullable=True),
        sa.Column("used_phase_id", sa.Integer(), nullable=True),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("absence", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_absence_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_absence_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("absence", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_absence_user_id"))
        batch_op.drop_index(batch_op.f("ix_absence_game_id"))
    op.drop_table("absence")
