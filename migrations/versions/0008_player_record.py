"""Each player's record for /stats: phases ordered in time, civil disorders, seats lost to a replacement.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("ordered_phases", "civil_disorders", "times_replaced")


def upgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
