"""Rows to text: CSV lines through the `csv` module, NDJSON lines through msgspec.

A CSV cell that a spreadsheet would read as a formula (it begins with =, +, -, @, a tab or a carriage
return) is prefixed with an apostrophe, so opening an export never runs a visitor's text. A spreadsheet
may also split a cell where we did not: German or Swedish Excel separates on ";", and other programs on
tabs or line breaks, so `x;=1+1;y` opens as three cells, the middle one a formula. An apostrophe goes
after every such separator that is followed (past spaces and quotes) by a formula character too.

CSV exports begin with a UTF-8 byte order mark (`CSV_START`): without it, Excel opened by a double click
reads the file in the system's legacy code page and garbles every non-ASCII letter.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t\r\n])(?=[\s\"']*[=+\-@])")
"""A separator a spreadsheet may split on, followed by what would start a formula in the next cell."""
CSV_START = "\ufeff".encode()
"""The UTF-8 byte order mark every CSV export begins with."""

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
    text = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", text)
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
