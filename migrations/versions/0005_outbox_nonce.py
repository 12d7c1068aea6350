"""Each outbox row gets a random nonce when it is queued, so that no two databases (a restored
backup, a second instance) ever give Discord the same nonce for different messages; rows queued
before keep the old id-based one.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 14:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("nonce", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("nonce")
