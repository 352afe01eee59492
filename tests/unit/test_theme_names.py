"""Themes as a reader sees them, on vectors made here (no model): groups named by a few of their members'
words in the project's main language, stray messages left Unsorted, a confidence, and a survey question's
handful of answers still grouped."""

from __future__ import annotations

import numpy as np

from app.insights.clustering import cluster
from app.insights.embedders import normalised

TOPICS = {
    "dark": (
        ["Please add a dark mode for the night", "dark mode would be easier on the eyes", "need dark mode"],
        ["Bitte einen Dunkelmodus", "Dunkles Design wäre toll"],
    ),
    "export": (
        ["Export to CSV is broken", "the CSV export misses rows", "CSV export shows garbled letters"],
        ["Der Export als Tabelle fehlt", "Exportdatei ist leer"],
    ),
    "login": (
        ["Login with SSO fails", "SSO login loops back to the start", "cannot login since the SSO change"],
        ["Anmeldung klappt nicht", "Einloggen geht nicht mehr"],
    ),
}


Made = tuple[np.ndarray, list[str], list[str | None], list[str | None]]


def made(rows_per_topic: int, strays: int) -> Made:
    rng = np.random.default_rng(3)
    vectors, texts, languages, truth = [], [], [], []
    for topic, (english, german) in TOPICS.items():
        centre = rng.normal(size=64)
        for row in range(rows_per_topic):
            vectors.append(centre + rng.normal(scale=0.35, size=64) * np.linalg.norm(centre) / 8)
            in_german = row % 3 == 2
            pool = german if in_german else english
            texts.append(pool[row % len(pool)])
            languages.append("de" if in_german else "en")
            truth.append(topic)
    for number in range(strays):
        vectors.append(rng.normal(size=64))
        texts.append(f"asdf {number}")
        languages.append(None)
        truth.append(None)
    return normalised(np.array(vectors, dtype=np.float32)), texts, languages, truth


def test_groups_are_named_in_the_main_language_and_strays_stay_unsorted() -> None:
    vectors, texts, languages, truth = made(11, 4)
    found = cluster(vectors, texts, languages)
    assert all({truth[i] for i in group.members} == {truth[group.members[0]]} for group in found)
    assert sorted(truth[group.members[0]] for group in found) == ["dark", "export", "login"]
    sorted_rows = {row for group in found for row in group.members}
    assert not any(truth[row] is None for row in sorted_rows)  # "asdf" is Unsorted, in no theme
    for group in found:
        english = " ".join(TOPICS[truth[group.members[0]]][0]).lower()
        words = group.name.lower().replace(",", "").split()
        assert 2 <= len(words) <= 5 and all(word in english for word in words), group.name
        assert group.name[0].isupper()
        assert 0.5 < group.confidence <= 1.0
    export = next(group for group in found if truth[group.members[0]] == "export")
    assert "csv" in export.name.lower() and "export" in export.name.lower()


def test_a_handful_of_answers_is_still_grouped() -> None:
    vectors, texts, languages, truth = made(3, 0)
    found = cluster(vectors, texts, languages)
    assert sorted(sorted(truth[i] for i in group.members) for group in found) == [
        ["dark"] * 3,
        ["export"] * 3,
        ["login"] * 3,
    ]
    assert all(group.name for group in found)
