"""Vectors as stored (float32 bytes) and as compared: each language's mean subtracted, then
normalised again. The means come from the project's own messages, pulled towards reference means of
the local model (fitted on the labelled set in tests/insights/) while a language has few messages, so a
small project compares as sensibly as a large one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from app.insights.embedders import LOCAL_MODEL, normalised

PRIOR_WEIGHT = 20.0
"""How many messages the reference mean counts for against the project's own."""
REFERENCE_FILE = Path(__file__).with_name("reference_means.json")
OTHER = "_all"


def to_bytes(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def from_bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<f4")


def reference_means(model: str) -> dict[str, np.ndarray]:
    """The reference mean of each language for this model (none for another model), read once."""
    if model != LOCAL_MODEL:
        return {}
    return _local_reference_means()


@cache
def _local_reference_means() -> dict[str, np.ndarray]:
    if not REFERENCE_FILE.exists():
        return {}
    stored = json.loads(REFERENCE_FILE.read_text())
    return {key: np.array(values, dtype=np.float32) for key, values in stored.items()}


def write_reference_means(means: dict[str, np.ndarray]) -> None:
    """Store the means as text (float32 values round-trip exactly through JSON's decimal floats)."""
    payload = {key: [float(x) for x in value.astype(np.float32)] for key, value in means.items()}
    REFERENCE_FILE.write_text(json.dumps(payload, indent=0) + "\n")
    _local_reference_means.cache_clear()


def language_means(
    vectors: np.ndarray, languages: Sequence[str | None], reference: dict[str, np.ndarray]
) -> dict[str | None, np.ndarray]:
    """The mean to subtract for each language present (None: messages of no known language)."""
    if len(vectors) == 0:
        return {}
    overall = vectors.mean(axis=0)
    prior_all = reference.get(OTHER, overall)
    labels = np.array([language or "" for language in languages])
    means: dict[str | None, np.ndarray] = {}
    for language in set(languages):
        rows = vectors[labels == (language or "")]
        prior = reference.get(language or OTHER, prior_all)
        means[language] = (rows.sum(axis=0) + PRIOR_WEIGHT * prior) / (len(rows) + PRIOR_WEIGHT)
    return means


def centred(
    vectors: np.ndarray, languages: Sequence[str | None], means: dict[str | None, np.ndarray]
) -> np.ndarray:
    """Each vector less its language's mean (a language without one: the mean of all), normalised."""
    if len(vectors) == 0:
        return vectors
    fallback = np.mean(list(means.values()), axis=0) if means else np.zeros(vectors.shape[1], np.float32)
    shift = np.stack([means.get(language, fallback) for language in languages])
    return normalised(vectors - shift)


def comparable(
    stored: Sequence[bytes], languages: Sequence[str | None], model: str
) -> tuple[np.ndarray, dict[str | None, np.ndarray]]:
    """Stored vectors (at least one) as they are compared: centred on their languages' means, drawn
    towards the model's reference means; with those means, which centre a query too."""
    vectors = np.stack([from_bytes(data) for data in stored])
    means = language_means(vectors, languages, reference_means(model))
    return centred(vectors, languages, means), means
