"""Is an error the database being away (a restart, a lost connection, a refused connection), rather
than a fault of the bot? Interactions that meet one are answered "try again in a minute" and logged
as one line per minute (cogs.shared.replies), not one traceback each."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

_OUTAGE_NAMES = {
    "CannotConnectNowError",  # asyncpg: the server is starting or shutting down
    "ConnectionDoesNotExistError",
    "ConnectionFailureError",
    "AdminShutdownError",
    "InterfaceError",
}


def database_outage(error: BaseException) -> str | None:
    """The outage in a few words (None: not an outage)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DBAPIError) and current.connection_invalidated:
            return _words(current)
        if isinstance(current, OperationalError | InterfaceError | PoolTimeout):
            text = str(current).lower()
            if isinstance(current, PoolTimeout) or any(
                word in text for word in ("connect", "closed", "terminat", "shutdown", "unable to open")
            ):
                return _words(current)
        if isinstance(current, ConnectionError | TimeoutError) or type(current).__name__ in _OUTAGE_NAMES:
            return _words(current)
        if isinstance(current, OSError) and current.errno is not None:
            return _words(current)
        current = current.__cause__ or current.__context__
    return None


def _words(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    text = lines[0] if lines else type(cause).__name__
    if text.startswith("(") and ") " in text:
        text = text.split(") ", 1)[1]
    return text[:200]
