"""Search texts' vectors are remembered per embedder and per organization: paging through a search does
not embed its text again, and nothing one organization asked for answers another's search."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import uuid4

import numpy as np

from app.insights.query_vectors import QueryVectors


class CountingEmbedder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.asked: list[str] = []

    async def embed(self, texts: Sequence[str], *, waiting: bool = False) -> np.ndarray:
        assert waiting  # a search's text does not queue behind a backfill
        self.asked += texts
        return np.ones((len(texts), 4), np.float32) / 2

    def status(self) -> tuple[str, str | None]:
        return "ok", None


async def test_a_text_is_embedded_once_per_embedder_and_organization() -> None:
    vectors = QueryVectors()
    local, remote = CountingEmbedder("local"), CountingEmbedder("remote:other")
    org, other_org = uuid4(), uuid4()

    first = await vectors.of(local, org, "the app crashes when I open it")
    again = await vectors.of(local, org, "the app crashes when I open it")
    assert local.asked == ["the app crashes when I open it"]
    assert again is first and first.language == "en"
    assert not first.vector.flags.writeable  # a caller cannot change what the next search gets

    await vectors.of(local, other_org, "the app crashes when I open it")
    await vectors.of(remote, org, "the app crashes when I open it")
    assert local.asked == ["the app crashes when I open it"] * 2
    assert remote.asked == ["the app crashes when I open it"]


async def test_only_the_most_recently_asked_texts_are_kept() -> None:
    vectors = QueryVectors(kept=2)
    embedder = CountingEmbedder("local")
    org = uuid4()
    for text in ("dark mode", "too expensive", "dark mode", "export to excel"):
        await vectors.of(embedder, org, text)
    assert embedder.asked == ["dark mode", "too expensive", "export to excel"]

    await vectors.of(embedder, org, "dark mode")  # kept: asked again after "too expensive"
    await vectors.of(embedder, org, "too expensive")  # gone: the least recently asked
    assert embedder.asked[3:] == ["too expensive"]
