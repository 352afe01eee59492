"""Logs as one JSON object per line on stdout: timestamp, level, logger, event, the request id while a
request is served, and the fields a call passed in `extra` (route, status, duration_ms, org_id ...).

Call sites pass what they log; nothing here reads request bodies, headers or parameters, so no token,
password, secret or message can reach a log line unless someone writes it into a message.
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any

import msgspec

from app.operations.request_ids import REQUEST_ID

_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with terminal colours
}
_QUIET_LOGGERS = ("uvicorn.access",)
"""The serving wrapper writes the access log itself, with the route template and the request id."""
_CHATTY_LOGGERS = ("aiosqlite", "httpcore")
"""Libraries that write a DEBUG line per call: kept at INFO when HEARKEN_LOG_LEVEL is debug, so that
Hearken's own lines (the public submissions' access lines) are what debug adds."""
_OWN_HANDLER = "hearken_json"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return msgspec.json.encode(entry, enc_hook=str).decode()


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines on stdout for the root logger and uvicorn's, from `level` up (HEARKEN_LOG_LEVEL)."""
    root = logging.getLogger()
    if not any(handler.get_name() == _OWN_HANDLER for handler in root.handlers):
        handler = logging.StreamHandler(sys.stdout)
        handler.set_name(_OWN_HANDLER)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    for name in _CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
