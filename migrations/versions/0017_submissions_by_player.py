"""A player's submissions in a phase found by one index (``order_submission (phase_id, user_id)``, in
place of the index on ``phase_id`` alone, its first column): every write about orders counts the
player's submissions of the phase, which read each of the phase's rows, every player's, to check its
user.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29 19:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("order_submission", schema=None) as batch_op:
        batch_op.create_index("ix_order_submission_phase_id_user_id", ["phase_id", "user_id"], unique=False)
        batch_op.drop_index(batch_op.f("ix_order_submission_phase_id"))


def downgrade() -> None:
    with op.batch_alter_table("order_submission", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_order_submission_phase_id"), ["phase_id"], unique=False)
        batch_op.drop_index("ix_order_submission_phase_id_user_id")
