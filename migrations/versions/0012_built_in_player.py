"""The built-in player: whether it plays a power while no active player does (power_assignment.built_in).

Games stored before keep playing as they did: NULL follows the game's ``absent_seats`` setting,
which they do not have (the rulebook's civil disorder).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-08 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("power_assignment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("built_in", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("power_assignment", schema=None) as batch_op:
        batch_op.drop_column("built_in")
