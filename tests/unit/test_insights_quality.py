"""The shipped model and the language centring on the labelled set (tests/insights/): generous floors
well below what `make bench` measures, so a broken model, tokenizer or centring fails here."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from app.insights.clustering import cluster
from app.insights.embedders import LOCAL_MODEL, NICENESS, LocalEmbedder
from app.insights.languages import language_of
from app.insights.vectors import centred, language_means, reference_means
from tests.insights.labelled import (
    cross_language_recall_at_3,
    duplicate_precision_at_1,
    messages,
    theme_agreement,
)


@pytest.fixture(scope="module")
def embedded() -> tuple[list, np.ndarray, list[str | None]]:
    items = messages()
    texts = [m.text for m in items]
    vectors = asyncio.run(LocalEmbedder().embed(texts))
    return items, vectors, [language_of(text) for text in texts]


def test_the_labelled_set_is_what_the_measures_expect() -> None:
    items = messages()
    assert len(items) >= 240
    assert {m.language for m in items} == {"en", "de", "sv"}
    assert len({m.theme for m in items if m.theme}) == 12
    twins = {m.dup for m in items if m.dup}
    assert any(len({m.language for m in items if m.dup == dup}) == 3 for dup in twins)


def test_languages_are_told_apart(embedded: tuple[list, np.ndarray, list[str | None]]) -> None:
    items, _, languages = embedded
    told = [language for language, m in zip(languages, items, strict=True) if language is not None]
    right = sum(language == m.language for language, m in zip(languages, items, strict=True))
    assert right / len(told) >= 0.95


def test_twins_are_found_across_languages_and_centring_helps(
    embedded: tuple[list, np.ndarray, list[str | None]],
) -> None:
    items, vectors, languages = embedded
    shifted = centred(vectors, languages, language_means(vectors, languages, reference_means(LOCAL_MODEL)))
    assert duplicate_precision_at_1(shifted @ shifted.T, items) >= 0.65
    assert cross_language_recall_at_3(shifted @ shifted.T, items) >= 0.65
    found = cluster(shifted, [m.text for m in items], languages)
    raw = cluster(vectors, [m.text for m in items], languages)

    def ari(groups: list) -> float:
        assigned = [-1] * len(items)
        for number, group in enumerate(groups):
            for row in group.members:
                assigned[row] = number
        return theme_agreement(assigned, items)[0]

    assert ari(found) >= 0.4
    assert ari(found) > ari(raw) + 0.1
    assert all(group.keywords and group.label for group in found)


def niceness(prefix: str) -> set[int]:
    threads = [thread for thread in threading.enumerate() if thread.name.startswith(prefix)]
    stats = [Path(f"/proc/self/task/{thread.native_id}/stat").read_text() for thread in threads]
    return {int(stat.rsplit(")", 1)[1].split()[16]) for stat in stats}


def test_the_model_runs_at_the_lowest_cpu_priority_except_for_a_search() -> None:
    """Requests go first on a busy machine: the embedding thread runs at the lowest priority. A search
    is a request: its text is embedded at the process's own priority, not behind a backfill."""
    embedder = LocalEmbedder()  # held: a collected executor lets its thread exit before it is looked at
    asyncio.run(embedder.embed(["Die App stürzt ab"]))
    asyncio.run(embedder.embed(["Die App stürzt ab"], waiting=True))
    assert niceness("hearken-embeddings") == {NICENESS}
    assert niceness("hearken-search-embeddings") == {os.getpriority(os.PRIO_PROCESS, 0)}
