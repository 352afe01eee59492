"""Themes from vectors: average-link agglomerative clustering on cosine distance (scipy), cut at the
threshold with the best silhouette (scikit-learn) among those giving a sensible number of groups; each
group labelled with its own words: the message nearest its centre, and the words that set it apart
from the other groups (class-based TF-IDF). No text is generated.

Pure computation on arrays and strings, run in a thread by the themes loop.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MIN_THEME_SIZE = 2
KEYWORDS = 5
LABEL_CHARACTERS = 80
SILHOUETTE_SAMPLE = 2000
DISTANCE_BLOCK = 512
THRESHOLDS = np.arange(0.30, 1.20, 0.02)
WORD = re.compile(r"(?u)\b[^\W\d_]{3,}\b")
STOP_WORDS = frozenset(
    # English, German and Swedish words that say nothing about a theme.
    [
        "about",
        "after",
        "again",
        "all",
        "also",
        "always",
        "and",
        "any",
        "are",
        "because",
        "been",
        "before",
        "but",
        "can",
        "cannot",
        "could",
        "did",
        "does",
        "doesn",
        "don",
        "even",
        "every",
        "for",
        "from",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "how",
        "into",
        "its",
        "just",
        "keep",
        "keeps",
        "like",
        "more",
        "most",
        "much",
        "never",
        "not",
        "now",
        "only",
        "other",
        "our",
        "out",
        "please",
        "really",
        "same",
        "should",
        "since",
        "some",
        "still",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "too",
        "very",
        "was",
        "way",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "isn",
        "aren",
        "aber",
        "alle",
        "als",
        "also",
        "auch",
        "auf",
        "aus",
        "bei",
        "bin",
        "bis",
        "bitte",
        "das",
        "dass",
        "dem",
        "den",
        "der",
        "des",
        "die",
        "dies",
        "diese",
        "doch",
        "durch",
        "ein",
        "eine",
        "einem",
        "einen",
        "einer",
        "eines",
        "für",
        "gar",
        "geht",
        "gibt",
        "hat",
        "hatte",
        "ich",
        "ihr",
        "ihre",
        "immer",
        "ist",
        "jede",
        "jeder",
        "jetzt",
        "kann",
        "kein",
        "keine",
        "man",
        "mehr",
        "meine",
        "meinen",
        "meiner",
        "mich",
        "mir",
        "mit",
        "nach",
        "nicht",
        "noch",
        "nur",
        "oder",
        "ohne",
        "schon",
        "sehr",
        "sich",
        "sie",
        "sind",
        "und",
        "uns",
        "von",
        "vor",
        "war",
        "warum",
        "was",
        "weil",
        "wenn",
        "wie",
        "wir",
        "wird",
        "wurde",
        "zum",
        "zur",
        "alla",
        "allt",
        "att",
        "av",
        "bara",
        "den",
        "det",
        "där",
        "efter",
        "eller",
        "ett",
        "för",
        "från",
        "får",
        "gör",
        "har",
        "hela",
        "hur",
        "inga",
        "inget",
        "inte",
        "jag",
        "kan",
        "man",
        "med",
        "mig",
        "min",
        "mitt",
        "många",
        "när",
        "och",
        "också",
        "om",
        "på",
        "sig",
        "som",
        "till",
        "under",
        "upp",
        "vad",
        "var",
        "vara",
        "vi",
        "vill",
        "än",
        "är",
        "även",
    ]
)


@dataclass(frozen=True, slots=True)
class Cluster:
    members: list[int]
    """Row positions, nearest to the centre first."""
    label: str
    keywords: list[str]


def cluster(vectors: np.ndarray, texts: Sequence[str], languages: Sequence[str | None]) -> list[Cluster]:
    """Groups of at least MIN_THEME_SIZE rows of centred, normalised `vectors`, biggest first; each
    labelled by the most central message in the group's most common language."""
    count = len(vectors)
    if count < 2 * MIN_THEME_SIZE:
        return []
    from scipy.cluster.hierarchy import fcluster, linkage

    tree = linkage(cosine_distances(vectors), method="average")
    labels = _best_cut(tree, vectors, fcluster)
    groups: dict[int, list[int]] = {}
    for position, label in enumerate(labels):
        groups.setdefault(int(label), []).append(position)
    kept = sorted((rows for rows in groups.values() if len(rows) >= MIN_THEME_SIZE), key=len, reverse=True)
    keywords = _keywords([[texts[i] for i in rows] for rows in kept])
    result = []
    for rows, words in zip(kept, keywords, strict=True):
        centre = vectors[rows].mean(axis=0)
        order = sorted(rows, key=lambda i: -float(vectors[i] @ centre))
        spoken = Counter(languages[i] for i in order if languages[i]).most_common(1)
        label_row = next((i for i in order if languages[i] == spoken[0][0]), order[0]) if spoken else order[0]
        result.append(Cluster(members=order, label=_label(texts[label_row]), keywords=words))
    return result


def cosine_distances(vectors: np.ndarray) -> np.ndarray:
    """The condensed matrix of cosine distances (as scipy's `pdist` gives it) computed by matrix
    products, a block of rows at a time: `pdist` compares pairs one by one and took most of a 10,000-item
    recompute."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    count = len(unit)
    condensed = np.empty(count * (count - 1) // 2, dtype=np.float64)
    position = 0
    for start in range(0, count, DISTANCE_BLOCK):
        block = 1.0 - unit[start : start + DISTANCE_BLOCK] @ unit.T
        for offset, row in enumerate(block):
            following = row[start + offset + 1 :]
            condensed[position : position + len(following)] = following
            position += len(following)
    return np.clip(condensed, 0.0, 2.0)


def _best_cut(tree: np.ndarray, vectors: np.ndarray, fcluster: object) -> np.ndarray:
    from sklearn.metrics import silhouette_score

    count = len(vectors)
    fewest, most = min(5, max(2, count // 4)), min(max(40, count // 150), count - 1)
    best: tuple[float, np.ndarray] | None = None
    fallback: np.ndarray | None = None
    for threshold in THRESHOLDS:
        labels = fcluster(tree, t=threshold, criterion="distance")  # type: ignore[operator]
        groups = len(set(labels.tolist()))
        if groups < 2 or groups >= count:
            continue
        fallback = labels if fallback is None else fallback
        if not fewest <= groups <= most:
            continue
        score = silhouette_score(
            vectors, labels, metric="cosine", sample_size=min(count, SILHOUETTE_SAMPLE), random_state=0
        )
        if best is None or score > best[0]:
            best = (float(score), labels)
    if best is not None:
        return best[1]
    return fallback if fallback is not None else np.ones(count, dtype=np.int64)


def _keywords(groups: list[list[str]]) -> list[list[str]]:
    """Class-based TF-IDF: a word weighs by its frequency in the group against its frequency across
    all groups, so words every group uses (in any of the languages) sink."""
    if not groups:
        return []
    from sklearn.feature_extraction.text import CountVectorizer

    documents = [" ".join(texts) for texts in groups]
    vectorizer = CountVectorizer(
        token_pattern=WORD.pattern, lowercase=True, stop_words=sorted(STOP_WORDS), min_df=1
    )
    try:
        counts = vectorizer.fit_transform(documents).toarray().astype(np.float64)
    except ValueError:  # no word at all (only numbers or stop words)
        return [[] for _ in groups]
    words = vectorizer.get_feature_names_out()
    frequency = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    average = counts.sum() / len(groups)
    weight = frequency * np.log(1.0 + average / np.maximum(counts.sum(axis=0), 1.0))
    result = []
    for row, group_counts in zip(weight, counts, strict=True):
        order = np.argsort(-row, kind="stable")
        result.append([str(words[i]) for i in order[:KEYWORDS] if group_counts[i] > 0 and row[i] > 0])
    return result


def _label(text: str) -> str:
    """The message, on one line, cut at a word near LABEL_CHARACTERS."""
    line = " ".join(text.split())
    if len(line) <= LABEL_CHARACTERS:
        return line
    cut = line[:LABEL_CHARACTERS].rsplit(" ", 1)[0]
    return cut + "…"
