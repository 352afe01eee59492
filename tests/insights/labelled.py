"""The labelled feedback set (labelled_feedback.jsonl): realistic messages in English, German and Swedish
under twelve themes, with near-duplicates inside and across languages (`dup` names the group) and some
noise (theme null), and the measures the tests and `make bench` take on it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SET = Path(__file__).with_name("labelled_feedback.jsonl")
HARD_SET = Path(__file__).with_name("hard_feedback.jsonl")
"""Harder: paraphrases by different writers, typos, slang, more noise (build_hard_set.py), in two halves."""


@dataclass(frozen=True, slots=True)
class Message:
    text: str
    language: str
    theme: str | None
    dup: str | None


def messages(path: Path = SET, split: str | None = None) -> list[Message]:
    """The set's messages; `split` ("tune" or "held") keeps one half of the hard set."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        Message(row["text"], row["lang"], row["theme"], row["dup"])
        for row in rows
        if split is None or row.get("split") == split
    ]


def duplicate_precision_at_1(similarity: np.ndarray, items: list[Message]) -> float:
    """For each message with a twin: is its nearest other message one of its twins?"""
    scores = similarity.copy()
    np.fill_diagonal(scores, -np.inf)
    hits = [items[int(np.argmax(scores[i]))].dup == m.dup for i, m in enumerate(items) if m.dup]
    return float(np.mean(hits))


def cross_language_recall_at_3(similarity: np.ndarray, items: list[Message]) -> float:
    """For each pair of twins in different languages: is the twin among the message's 3 nearest?"""
    scores = similarity.copy()
    np.fill_diagonal(scores, -np.inf)
    hits = []
    for i, m in enumerate(items):
        if not m.dup:
            continue
        top = set(np.argsort(-scores[i])[:3].tolist())
        for j, other in enumerate(items):
            if j != i and other.dup == m.dup and other.language != m.language:
                hits.append(j in top)
    return float(np.mean(hits))


def theme_agreement(assigned: list[int], items: list[Message]) -> tuple[float, float]:
    """ARI and NMI of the themes found against the labels, over the labelled (non-noise) messages; a
    message left out of every theme counts as a group of its own."""
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    labelled = [i for i, m in enumerate(items) if m.theme]
    truth = [items[i].theme for i in labelled]
    found = [assigned[i] if assigned[i] >= 0 else -1 - i for i in labelled]
    return float(adjusted_rand_score(truth, found)), float(normalized_mutual_info_score(truth, found))
