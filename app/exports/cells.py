"""Rows to text: CSV lines through the `csv` module, NDJSON lines through msgspec.

A CSV cell that a spreadsheet would read as a formula (it begins with =, +, -, @, a tab or a carriage
return) is prefixed with an apostrophe, so opening an export never runs a visitor's text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_json = msgspec.json.Encoder()


def csv_cell(value: Any) -> str:
    """The text of one cell: empty for null, true/false for booleans, JSON for objects."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, dict | list):
        text = _json.encode(value).decode()
    else:
        text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class CsvLines:
    """Encodes rows as RFC 4180 lines (CRLF, quotes doubled), reusing one buffer."""

    def __init__(self) -> None:
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer, lineterminator="\r\n")

    def encode(self, rows: Iterable[Sequence[Any]]) -> bytes:
        self._writer.writerows([csv_cell(value) for value in row] for row in rows)
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return text.encode()


def ndjson_lines(records: Iterable[Any]) -> bytes:
    """One JSON object per line, each line ending in a newline."""
    return b"".join(_json.encode(record) + b"\n" for record in records)
