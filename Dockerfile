# The bot's image: runtime dependencies only, a non-root user, the SQLite file on a volume.
#   docker build -t diplomacy-gm .
#   docker run -d --name gm --env-file .env -v gm-data:/data diplomacy-gm
# The .env made from .env.example sets only DISCORD_TOKEN: a line of it would win over the ENV below
# (Docker's precedence), so leave DATABASE_URL, BACKUP_DIR and HEALTH_PORT commented there.
# With PostgreSQL: compose.yaml. Stopping (docker stop) sends SIGTERM: the bot finishes the close under
# way and sends its queued messages first (SHUTDOWN_TIMEOUT, 30 s; docker stop waits 10 s unless told
# otherwise: use docker stop -t 45, or compose's stop_grace_period).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# pg_dump, for the dump the bot takes of a PostgreSQL database before each schema upgrade: version 16
# to match compose.yaml's server (a pg_dump older than its server refuses to dump it), from
# PostgreSQL's own Debian repository (set up by Debian's postgresql-common).
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-common \
    && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
    && apt-get install -y --no-install-recommends postgresql-client-16 \
    && apt-get purge -y --auto-remove postgresql-common \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so that a code change does not reinstall them.
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

RUN groupadd --system --gid 10001 gm \
    && useradd --system --uid 10001 --gid gm --home-dir /app --no-create-home --shell /usr/sbin/nologin gm \
    && mkdir /data \
    && chown gm:gm /data

# The code, owned by root and read-only for the bot's user.
COPY alembic.ini bot.py config.py ./
COPY cogs ./cogs
COPY data ./data
COPY db ./db
COPY engine ./engine
COPY gm ./gm
COPY migrations ./migrations
COPY ops ./ops
COPY render ./render

# The commit this image is built from (docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) .):
# --version, the first log line and /admin status name it.
ARG GIT_COMMIT=unknown
RUN echo "$GIT_COMMIT" > /app/COMMIT

USER gm
# SQLite by default, on the volume, with the backups made before each upgrade (and PostgreSQL's
# dumps: compose.yaml sets a PostgreSQL URL); files readable by the bot's user only.
ENV DATABASE_URL=sqlite+aiosqlite:////data/diplomacy.db \
    BACKUP_DIR=/data/backups \
    HEALTH_PORT=8080 \
    HEALTH_HOST=127.0.0.1
VOLUME ["/data"]

STOPSIGNAL SIGTERM
# Asks the running bot's /healthz (inside the container only): connected to Discord, event loop
# answering, database reachable, scheduler running (README, "Health and metrics").
HEALTHCHECK --interval=60s --timeout=15s --start-period=120s --retries=3 \
    CMD ["python", "-m", "ops.probe"]

CMD ["python", "bot.py"]
