"""Sandboxes (/sandbox): a member's private boards, copied from a game's public position or a variant's
start, ordered for every power and adjudicated at will; no part of any game's records.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-20 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sandbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("tag", sa.String(length=12), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("source_game_id", sa.Integer(), nullable=True),
        sa.Column("source_phase", sa.String(length=10), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("sandbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sandbox_owner_id"), ["owner_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sandbox_guild_id"), ["guild_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sandbox_used_at"), ["used_at"], unique=False)
    op.create_table(
        "sandbox_phase",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sandbox_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=10), nullable=False),
        sa.Column("board", sa.JSON(), nullable=False),
        sa.Column("adjustments", sa.JSON(), nullable=True),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["sandbox_id"], ["sandbox.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sandbox_id", "step"),
    )
    with op.batch_alter_table("sandbox_phase", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sandbox_phase_sandbox_id"), ["sandbox_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sandbox_phase", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sandbox_phase_sandbox_id"))
    op.drop_table("sandbox_phase")
    with op.batch_alter_table("sandbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sandbox_used_at"))
        batch_op.drop_index(batch_op.f("ix_sandbox_guild_id"))
        batch_op.drop_index(batch_op.f("ix_sandbox_owner_id"))
    op.drop_table("sandbox")
