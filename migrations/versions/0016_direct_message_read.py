"""The latest direct message of each player the bot has handled (``direct_message_read``): the start-up
catch-up reads what came after it. The row of user 0 says when these records began (now).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-28 10:00:00.000000
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    table = op.create_table(
        "direct_message_read",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.bulk_insert(table, [{"user_id": 0, "message_id": 0, "read_at": datetime.now(UTC)}])


def downgrade() -> None:
    op.drop_table("direct_message_read")
