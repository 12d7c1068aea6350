"""Initial schema: games, players, powers, phases, orders, log, ready flags, votes, maps, outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 02:14:01.720564
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("creator_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("lobby_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("category_id", sa.BigInteger(), nullable=True),
        sa.Column("game_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_guild_id"), ["guild_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_status"), ["status"], unique=False)

    op.create_table(
        "game_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_game_log_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_log")),
    )
    with op.batch_alter_table("game_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_log_game_id"), ["game_id"], unique=False)

    op.create_table(
        "phase",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=10), nullable=False),
        sa.Column("board", sa.JSON(), nullable=False),
        sa.Column("adjustments", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("adjudication_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("close_reason", sa.String(length=20), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("results", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_phase_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phase")),
        sa.UniqueConstraint("game_id", "ordinal", name=op.f("uq_phase_game_id_ordinal")),
    )
    with op.batch_alter_table("phase", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_phase_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_phase_status"), ["status"], unique=False)

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("missed_phases", sa.Integer(), nullable=False),
        sa.Column("missed_in_a_row", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_player_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_player_game_id_user_id")),
    )
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_player_user_id"), ["user_id"], unique=False)

    op.create_table(
        "order_submission",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_order_submission_game_id_game")),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_order_submission_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_order_submission")),
    )
    with op.batch_alter_table("order_submission", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_order_submission_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_order_submission_phase_id"), ["phase_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("phase_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("target_kind", sa.String(length=20), nullable=False),
        sa.Column("target_power", sa.String(length=20), nullable=True),
        sa.Column("target_user_id", sa.BigInteger(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("dedup_key", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claim_token", sa.String(length=40), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_outbox_game_id_game")),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_outbox_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("dedup_key", name=op.f("uq_outbox_dedup_key")),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outbox_game_id"), ["game_id"], unique=False)
        batch_op.create_index("ix_outbox_pending", ["sent_at", "failed_at", "id"], unique=False)

    op.create_table(
        "phase_map",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_phase_map_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phase_map")),
        sa.UniqueConstraint("phase_id", "kind", name=op.f("uq_phase_map_phase_id_kind")),
    )
    with op.batch_alter_table("phase_map", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_phase_map_phase_id"), ["phase_id"], unique=False)

    op.create_table(
        "power_assignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("assigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_power_assignment_game_id_game")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_power_assignment_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_power_assignment")),
        sa.UniqueConstraint("game_id", "power", name=op.f("uq_power_assignment_game_id_power")),
    )
    with op.batch_alter_table("power_assignment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_power_assignment_game_id"), ["game_id"], unique=False)

    op.create_table(
        "ready_flag",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=20), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_ready_flag_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ready_flag")),
        sa.UniqueConstraint("phase_id", "power", name=op.f("uq_ready_flag_phase_id_power")),
    )
    with op.batch_alter_table("ready_flag", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ready_flag_phase_id"), ["phase_id"], unique=False)

    op.create_table(
        "unit_order",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=20), nullable=False),
        sa.Column("unit_key", sa.String(length=20), nullable=False),
        sa.Column("text", sa.String(length=80), nullable=False),
        sa.Column("input", sa.Text(), nullable=False),
        sa.Column("submitted_by", sa.BigInteger(), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["phase_id"], ["phase.id"], name=op.f("fk_unit_order_phase_id_phase")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unit_order")),
        sa.UniqueConstraint(
            "phase_id", "power", "unit_key", name=op.f("uq_unit_order_phase_id_power_unit_key")
        ),
    )
    with op.batch_alter_table("unit_order", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_unit_order_phase_id"), ["phase_id"], unique=False)

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


def downgrade() -> None:

    with op.batch_alter_table("vote", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_vote_phase_id"))
        batch_op.drop_index(batch_op.f("ix_vote_game_id"))

    op.drop_table("vote")
    with op.batch_alter_table("unit_order", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_unit_order_phase_id"))

    op.drop_table("unit_order")
    with op.batch_alter_table("ready_flag", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ready_flag_phase_id"))

    op.drop_table("ready_flag")
    with op.batch_alter_table("power_assignment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_power_assignment_game_id"))

    op.drop_table("power_assignment")
    with op.batch_alter_table("phase_map", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_phase_map_phase_id"))

    op.drop_table("phase_map")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_pending")
        batch_op.drop_index(batch_op.f("ix_outbox_game_id"))

    op.drop_table("outbox")
    with op.batch_alter_table("order_submission", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_order_submission_phase_id"))
        batch_op.drop_index(batch_op.f("ix_order_submission_game_id"))

    op.drop_table("order_submission")
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_user_id"))
        batch_op.drop_index(batch_op.f("ix_player_game_id"))

    op.drop_table("player")
    with op.batch_alter_table("phase", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_phase_status"))
        batch_op.drop_index(batch_op.f("ix_phase_game_id"))

    op.drop_table("phase")
    with op.batch_alter_table("game_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_log_game_id"))

    op.drop_table("game_log")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_status"))
        batch_op.drop_index(batch_op.f("ix_game_guild_id"))

    op.drop_table("game")
