# The bot's image: runtime dependencies only, a non-root user, the SQLite file on a volume.
#   docker build -t diplomacy-gm .
#   docker run -d --name gm --env-file .env -v gm-data:/data diplomacy-gm
# With PostgreSQL: compose.yaml. Stopping (docker stop) sends SIGTERM: the bot finishes the close under
# way and sends its queued messages first (SHUTDOWN_TIMEOUT, 30 s; docker stop waits 10 s unless told
# otherwise: use docker stop -t 45, or compose's stop_grace_period).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

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

USER gm
# SQLite by default, on the volume; compose.yaml sets a PostgreSQL URL instead.
ENV DATABASE_URL=sqlite+aiosqlite:////data/diplomacy.db
VOLUME ["/data"]

STOPSIGNAL SIGTERM
# Settings valid, database reachable and writable, schema at the latest revision (exit codes: README).
HEALTHCHECK --interval=60s --timeout=30s --start-period=120s --retries=3 \
    CMD ["python", "bot.py", "--check"]

CMD ["python", "bot.py"]
