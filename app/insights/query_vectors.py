"""The vectors of recent search texts in this process. Paging through a search by meaning asks for the
same text again, and embedding it is the largest part of a search; the vector of a text never changes
for one embedder. Entries are kept per organization as well: one organization's searches never answer
another's (nor show in how fast its searches come back)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from uuid import UUID

import numpy as np

from app.insights.embedders import Embedder
from app.insights.languages import language_of

KEPT = 256
"""Texts a process remembers (least recently used goes first): 384 floats each, about 400 KB in all."""


@dataclass(frozen=True, slots=True)
class QueryVector:
    vector: np.ndarray
    """Read-only: callers centre a copy."""
    language: str | None


class QueryVectors:
    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._recent: OrderedDict[tuple[str, UUID, str], QueryVector] = OrderedDict()

    async def of(self, embedder: Embedder, org_id: UUID, text: str) -> QueryVector:
        """The text's vector and language, embedded unless this organization asked for it lately."""
        key = (embedder.name, org_id, text)
        found = self._recent.get(key)
        if found is None:
            vector = np.array((await embedder.embed([text], waiting=True))[0], dtype=np.float32)
            vector.setflags(write=False)
            found = QueryVector(vector, await asyncio.to_thread(language_of, text))
            self._recent[key] = found
            while len(self._recent) > self._kept:
                self._recent.popitem(last=False)
        self._recent.move_to_end(key)
        return found
