"""Grace extensions used (gm.rules.grace): one row per player whose first miss extended a deadline.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "grace_use",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("grace_use", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_grace_use_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("grace_use", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_grace_use_game_id"))
    op.drop_table("grace_use")
