"""LOG_FORMAT=json: one JSON object per line with time, level, logger, message, the event's fields
and the traceback; text stays the default."""

from __future__ import annotations

import io
import json
import logging

from config import Settings
from ops.logjson import JsonFormatter


def emit(formatter: logging.Formatter, *args: object, exc: bool = False, **extra: object) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("test.json")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        if exc:
            try:
                raise ValueError("boom")
            except ValueError:
                logger.exception(*args, extra=extra)
        else:
            logger.warning(*args, extra=extra)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_a_line_is_one_json_object_with_the_events_fields() -> None:
    out = emit(JsonFormatter(), "phase closed: game %s %s", 3, "S1901M", event="phase_closed", game=3)
    assert out.count("\n") == 1
    entry = json.loads(out)
    assert entry["message"] == "phase closed: game 3 S1901M"
    assert entry["level"] == "WARNING" and entry["logger"] == "test.json"
    assert entry["event"] == "phase_closed" and entry["game"] == 3
    assert entry["time"].endswith("+00:00")
    assert not {"args", "msg", "levelno", "pathname", "exc_info"} & set(entry)


def test_a_traceback_stays_inside_the_one_line() -> None:
    out = emit(JsonFormatter(), "failed", exc=True)
    assert out.count("\n") == 1
    entry = json.loads(out)
    assert "ValueError: boom" in entry["exception"] and "Traceback" in entry["exception"]


def test_the_format_setting_is_text_unless_json() -> None:
    assert Settings(discord_token="x", _env_file=None).log_format == "text"
    assert Settings(discord_token="x", _env_file=None, log_format=" JSON ").log_format == "json"
