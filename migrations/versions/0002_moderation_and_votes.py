"""Moderation and votes: the time left in a paused phase, draw/concession proposals, votes per proposal.

The first schema's ``vote`` table (one vote per phase, power and kind) was never written to; votes now
belong to a proposal, so the table is replaced rather than altered (no data to carry over).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 02:41:49.413773
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("phase", schema=None) as batch_op:
        batch_op.add_column(sa.Column("remaining_seconds", sa.Integer(), nullable=True))

    op.create_table(
        "proposal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("beneficiary", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_proposal_game_id_game")),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_proposal_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_proposal")),
        sa.UniqueConstraint(
            "phase_id", "kind", "beneficiary", name=op.f("uq_proposal_phase_id_kind_beneficiary")
        ),
    )
    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_proposal_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_proposal_phase_id"), ["phase_id"], unique=False)

    _drop_vote_table(("ix_vote_phase_id", "ix_vote_game_id"))
    op.create_table(
        "vote",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("proposal_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=20), nullable=False),
        sa.Column("choice", sa.String(length=10), nullable=False),
        sa.Column("cast_by", sa.BigInteger(), nullable=False),
        sa.Column("cast_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["proposal_id"], ["proposal.id"], name=op.f("fk_vote_proposal_id_proposal")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vote")),
        sa.UniqueConstraint("proposal_id", "power", name=op.f("uq_vote_proposal_id_power")),
    )
    with op.batch_alter_table("vote", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vote_proposal_id"), ["proposal_id"], unique=False)


def downgrade() -> None:
    _drop_vote_table(("ix_vote_proposal_id",))
    op.create_table(
        "vote",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=20), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("choice", sa.String(length=40), nullable=False),
        sa.Column("cast_by", sa.BigInteger(), nullable=False),
        sa.Column("cast_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_vote_game_id_game")),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_vote_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vote")),
        sa.UniqueConstraint("phase_id", "power", "kind", name=op.f("uq_vote_phase_id_power_kind")),
    )
    with op.batch_alter_table("vote", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vote_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_vote_phase_id"), ["phase_id"], unique=False)

    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_proposal_phase_id"))
        batch_op.drop_index(batch_op.f("ix_proposal_game_id"))
    op.drop_table("proposal")

    with op.batch_alter_table("phase", schema=None) as batch_op:
        batch_op.drop_column("remaining_seconds")


def _drop_vote_table(indexes: tuple[str, ...]) -> None:
    with op.batch_alter_table("vote", schema=None) as batch_op:
        for name in indexes:
            batch_op.drop_index(batch_op.f(name))
    op.drop_table("vote")
