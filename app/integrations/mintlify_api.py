"""Reads page feedback from Mintlify's analytics API, one page at a time.

`GET {api}/api/external/v1/analytics/{project_id}/feedback` with a Bearer admin key, `limit=100`,
`dateFrom` and `cursor`; the answer is `{"feedback": [...], "nextCursor", "hasMore"}`. Every way the
call can fail becomes a MintlifyError whose text is shown to people as it is (never the key).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
import msgspec

from app.timestamps import iso_z

PAGE_SIZE = 100
TIMEOUT_SECONDS = 10.0


class MintlifyError(Exception):
    """The import could not read a page; `retry_after` is what a 429 asked for, in seconds."""

    def __init__(self, words: str, *, retry_after: int | None = None) -> None:
        super().__init__(words)
        self.words = words
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class FeedbackPage:
    items: list[dict[str, Any]]
    next_cursor: str | None
    has_more: bool


class _Page(msgspec.Struct):
    feedback: list[Any]
    hasMore: bool = False
    nextCursor: str | None = None


async def feedback_page(
    client: httpx.AsyncClient,
    api_url: str,
    project_id: str,
    api_key: str,
    *,
    date_from: datetime | None,
    cursor: str | None,
) -> FeedbackPage:
    params: dict[str, str | int] = {"limit": PAGE_SIZE}
    if date_from is not None:
        params["dateFrom"] = iso_z(date_from)
    if cursor is not None:
        params["cursor"] = cursor
    url = f"{api_url}/api/external/v1/analytics/{project_id}/feedback"
    try:
        response = await client.get(
            url, params=params, headers={"Authorization": f"Bearer {api_key}"}, timeout=TIMEOUT_SECONDS
        )
    except httpx.TimeoutException:
        raise MintlifyError(f"Mintlify did not answer within {TIMEOUT_SECONDS:.0f} seconds") from None
    except httpx.HTTPError:
        raise MintlifyError("Mintlify could not be reached") from None
    if response.status_code != 200:
        raise _refusal(response)
    try:
        page = msgspec.json.decode(response.content, type=_Page)
    except (msgspec.DecodeError, RecursionError):  # RecursionError: nested too deep to read
        raise MintlifyError(
            "Mintlify answered HTTP 200 with a body that is not its documented JSON"
        ) from None
    items = [item for item in page.feedback if isinstance(item, dict)]
    return FeedbackPage(items=items, next_cursor=page.nextCursor, has_more=page.hasMore)


def _refusal(response: httpx.Response) -> MintlifyError:
    status = response.status_code
    if status in (401, 403):
        return MintlifyError(f"Mintlify answered HTTP {status}: the API key or project id was refused")
    if status == 404:
        return MintlifyError("Mintlify answered HTTP 404: no such project id")
    if status == 429:
        retry_after = _seconds(response.headers.get("Retry-After"))
        later = f"; it asks to retry after {retry_after} seconds" if retry_after else ""
        return MintlifyError(f"Mintlify answered HTTP 429: too many requests{later}", retry_after=retry_after)
    return MintlifyError(f"Mintlify answered HTTP {status}")


def _seconds(value: str | None) -> int | None:
    """Retry-After as whole seconds (the HTTP-date form is rare from APIs and read as absent)."""
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())
