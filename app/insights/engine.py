"""The insights of this process: its embedder, its matrices and the vectors of recent search texts. One
per process, set up with the application (`configure`); the services reach it through
`insights_engine()` so that the API, the console, the CLI and other callers build nothing of their own."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from app.config import Settings, get_settings
from app.insights.embedders import Embedder, embedder_for
from app.insights.matrix import Matrices
from app.insights.query_vectors import QueryVectors


@dataclass
class InsightsEngine:
    embedder: Embedder
    matrices: Matrices = field(default_factory=Matrices)
    query_vectors: QueryVectors = field(default_factory=QueryVectors)
    themes_wanted: asyncio.Event | None = None
    """Set by a refresh request: the themes loop of this process looks at once."""

    @property
    def enabled(self) -> bool:
        return self.embedder.name != "off"

    def want_themes(self) -> None:
        if self.themes_wanted is not None:
            self.themes_wanted.set()


_engine: InsightsEngine | None = None


def configure(settings: Settings) -> InsightsEngine:
    global _engine
    _engine = InsightsEngine(embedder_for(settings.embeddings, settings.embeddings_model))
    return _engine


def insights_engine() -> InsightsEngine:
    return _engine if _engine is not None else configure(get_settings())
