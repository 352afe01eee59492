"""The streamed answer of an export: headers at once, then the rows in batches read through a
server-side cursor, so memory stays the same whatever the number of rows.

The rows are read on a session of their own: the request's session closes when the response starts.
It reads from where the request's reads came from (a replica, `app/db/read_routing.py`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

from litestar.response import Stream
from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Project
from app.exports.attachments import with_attachments
from app.exports.cells import CSV_START, CsvLines, ndjson_lines
from app.exports.kinds import ExportKind
from app.timestamps import utc_now

ExportFormat = Literal["csv", "ndjson"]

BATCH_ROWS = 1000
"""Rows fetched from the cursor, and sent, at a time."""

MEDIA_TYPES: dict[str, str] = {"csv": "text/csv; charset=utf-8", "ndjson": "application/x-ndjson"}


def export_response(
    session_maker: Callable[[], AsyncSession],
    project: Project,
    kind: ExportKind,
    query: Select[Any],
    format: ExportFormat,
    base_url: str = "",
) -> Stream:
    """`query` is the kind's select with the caller's filters and order (always limited to `project`);
    `base_url` begins the addresses of images in a feedback export."""
    filename = f"{file_word(project.name)}-{kind.name}-{utc_now().date().isoformat()}.{format}"
    return Stream(
        content=export_chunks(session_maker, kind, query, format, base_url),
        media_type=MEDIA_TYPES[format],
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


async def export_chunks(
    session_maker: Callable[[], AsyncSession],
    kind: ExportKind,
    query: Select[Any],
    format: str,
    base_url: str = "",
) -> AsyncIterator[bytes]:
    csv_lines = CsvLines()
    if format == "csv":
        yield CSV_START + csv_lines.encode([kind.columns])
    async with session_maker() as session:
        result = await session.stream(query.execution_options(yield_per=BATCH_ROWS))
        async for rows in result.partitions():
            records = [kind.record(row) for row in rows]
            if kind.attached:
                await with_attachments(session_maker, records, base_url)
            if format == "csv":
                yield csv_lines.encode(kind.cells(record) for record in records)
            else:
                yield ndjson_lines(records)


def file_word(name: str) -> str:
    """A project name as a safe file name part: letters, digits and hyphens."""
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "project"
