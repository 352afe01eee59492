"""Themes cluster on distances computed by matrix products; they must be scipy's cosine distances."""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import pdist

from app.insights.clustering import DISTANCE_BLOCK, cosine_distances


def test_the_distances_are_scipys_across_several_blocks() -> None:
    rows = np.random.default_rng(3).normal(size=(2 * DISTANCE_BLOCK + 37, 24)).astype(np.float32)
    expected = np.clip(pdist(rows.astype(np.float64), metric="cosine"), 0.0, 2.0)
    assert np.allclose(cosine_distances(rows), expected, atol=1e-5)
