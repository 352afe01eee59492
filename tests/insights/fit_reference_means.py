"""Fits app/insights/reference_means.json: each language's mean vector of the local model over the
labelled set (and `_all`, over every message), the prior that small projects' own means are pulled
towards. Run again after changing the model or the set: .venv/bin/python -m tests.insights.fit_reference_means
"""

from __future__ import annotations

import asyncio

import numpy as np

from app.insights.embedders import LocalEmbedder
from app.insights.languages import language_of
from app.insights.vectors import OTHER, REFERENCE_FILE, write_reference_means
from tests.insights.labelled import messages


def main() -> None:
    texts = [m.text for m in messages()]
    vectors = asyncio.run(LocalEmbedder().embed(texts))
    languages = np.array([language_of(text) or "" for text in texts])
    means = {OTHER: vectors.mean(axis=0)}
    for language in ("en", "de", "sv"):
        means[language] = vectors[languages == language].mean(axis=0)
    write_reference_means(means)
    print(f"wrote {REFERENCE_FILE} ({', '.join(sorted(means))})")


if __name__ == "__main__":
    main()
