"""Themes from vectors: communities of a graph linking each message to those sharing most of its
nearest neighbours (Leiden, scikit-network), at the resolution with the best silhouette (scikit-learn)
among those giving a sensible number of groups; a few messages (a survey question's answers) by
average-link agglomerative clustering on cosine distance (scipy) cut the same way. Each group is
labelled with its own words: the message nearest its centre, and the words that set it apart from the
other groups (class-based TF-IDF). No text is generated.

Pure computation on arrays and strings, run in a thread by the themes loop.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

MIN_THEME_SIZE = 2
MIN_THEME_SIZE_LARGE = 3
"""From NEIGHBOURHOOD_FROM rows, a theme has at least this many; smaller groups stay "Unsorted"."""
NEIGHBOURHOOD_FROM = 30
"""Fewer rows (a survey question's handful of answers) are compared by their vectors alone."""
MIN_NEIGHBOURS, MAX_NEIGHBOURS = 5, 25
"""A row's neighbourhood: a sixth of the rows, within these bounds (chosen on the tuning half)."""
RESOLUTIONS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
"""Leiden resolutions tried: higher ones give more, smaller communities."""
NAME_WORDS = (2, 5)
UNSORTED_BELOW = 0.3
"""A member less similar than this (cosine) to its group's centre is left out of it: "Unsorted"."""
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
        "doesnt",
        "dont",
        "cant",
        "between",
        "thats",
        "ours",
        "say",
        "says",
        "many",
        "once",
        "cool",
        "over",
        "off",
        "add",
        "ago",
        "anything",
        "become",
        "chance",
        "come",
        "coming",
        "each",
        "getting",
        "great",
        "here",
        "last",
        "make",
        "though",
        "want",
        "need",
        "seems",
        "seriously",
        "thing",
        "things",
        "lot",
        "well",
        "actually",
        "something",
        "everything",
        "nothing",
        "someone",
        "anyone",
        "one",
        "two",
        "let",
        "use",
        "using",
        "used",
        "going",
        "take",
        "takes",
        "know",
        "think",
        "see",
        "look",
        "tho",
        "pls",
        "etc",
        "yes",
        "yet",
        "doing",
        "done",
        "find",
        "found",
        "able",
        "ever",
        "else",
        "euch",
        "eure",
        "euer",
        "seit",
        "wäre",
        "beim",
        "einfach",
        "echt",
        "total",
        "ganz",
        "gerade",
        "mal",
        "dann",
        "denn",
        "hier",
        "habe",
        "haben",
        "hast",
        "könnt",
        "können",
        "könnte",
        "sollte",
        "würde",
        "gibt's",
        "etwas",
        "nichts",
        "alles",
        "kommt",
        "kommen",
        "gehen",
        "weiter",
        "wieder",
        "seid",
        "aldrig",
        "alls",
        "ens",
        "fram",
        "går",
        "finns",
        "kommer",
        "helt",
        "lite",
        "sedan",
        "varför",
        "era",
        "vår",
        "våra",
        "vårt",
        "mina",
        "sina",
        "igen",
        "typ",
        "fast",
        "ska",
        "skulle",
        "kunna",
        "blir",
        "hade",
        "något",
        "några",
    ]
)


@dataclass(frozen=True, slots=True)
class Cluster:
    members: list[int]
    """Row positions, nearest to the centre first."""
    label: str
    keywords: list[str]
    name: str = ""
    """Two to five of the members' own words in the main language, the most telling first."""
    confidence: float = 0.0
    """0..1: how close the members sit to their centre (the mean cosine similarity)."""


def cluster(
    vectors: np.ndarray,
    texts: Sequence[str],
    languages: Sequence[str | None],
    main_language: str | None = None,
) -> list[Cluster]:
    """Groups of rows of centred, normalised `vectors`, biggest first; rows in no group are "Unsorted".

    With NEIGHBOURHOOD_FROM rows or more, rows are compared by their neighbourhoods (which rows each is
    nearest to) rather than by their own vectors alone, grouped as communities of the graph of shared
    neighbours (`communities`), and groups need MIN_THEME_SIZE_LARGE rows: a pair
    of look-alike messages is not a theme of a large set. Each group is labelled by its most central
    message in its most common language, named by the words that set it apart in `main_language` (by
    default the most common language of all rows)."""
    count = len(vectors)
    if count < 2 * MIN_THEME_SIZE:
        return []
    from scipy.cluster.hierarchy import fcluster, linkage

    labels = communities(neighbourhoods(vectors)) if count >= NEIGHBOURHOOD_FROM else None
    if labels is None:  # few rows, or no resolution gives a sensible number of communities
        labels = _best_cut(linkage(cosine_distances(vectors), method="average"), vectors, fcluster)
    groups: dict[int, list[int]] = {}
    for position, label in enumerate(labels):
        groups.setdefault(int(label), []).append(position)
    smallest = MIN_THEME_SIZE_LARGE if count >= NEIGHBOURHOOD_FROM else MIN_THEME_SIZE
    close = [_close_members(vectors, rows) for rows in groups.values()]
    kept = sorted((rows for rows in close if len(rows) >= smallest), key=len, reverse=True)
    main = main_language or _most_common(languages)
    spoken_rows = [_in_language(rows, languages, main) for rows in kept]
    spoken_texts = [[texts[i] for i in rows] for rows in spoken_rows]
    closeness = [_closeness(vectors, rows, chosen) for rows, chosen in zip(kept, spoken_rows, strict=True)]
    keywords = _keywords(spoken_texts, closeness)
    names = _names(spoken_texts, closeness)
    result = []
    for rows, words, name in zip(kept, keywords, names, strict=True):
        centre = vectors[rows].mean(axis=0)
        closeness = vectors[rows] @ (centre / max(float(np.linalg.norm(centre)), 1e-12))
        order = [rows[i] for i in np.argsort(-closeness, kind="stable")]
        spoken = Counter(languages[i] for i in order if languages[i]).most_common(1)
        label_row = next((i for i in order if languages[i] == spoken[0][0]), order[0]) if spoken else order[0]
        confidence = round(float(np.clip(closeness.mean(), 0.0, 1.0)), 2)
        result.append(
            Cluster(
                members=order, label=_label(texts[label_row]), keywords=words,
                name=_capitalised(name or ", ".join(words[:3]) or " ".join(texts[label_row].split()[:5])),
                confidence=confidence,
            )
        )  # fmt: skip
    return result


def _close_members(vectors: np.ndarray, rows: list[int]) -> list[int]:
    """The rows at least UNSORTED_BELOW similar to their group's centre: a stray message whose neighbours
    all belong to one group is not of that group ("Unsorted")."""
    centre = vectors[rows].mean(axis=0)
    closeness = vectors[rows] @ (centre / max(float(np.linalg.norm(centre)), 1e-12))
    return [row for row, near in zip(rows, closeness, strict=True) if near >= UNSORTED_BELOW]


def neighbourhoods(vectors: np.ndarray) -> np.ndarray:
    """Each row as its similarities to its NEIGHBOURS nearest rows (itself counting 1, the rest 0),
    normalised: two messages compare by how much their neighbourhoods overlap. Paraphrases in other
    words or languages that sit a little apart share most neighbours, and a stray message shares few.
    A sparse matrix: NEIGHBOURS + 1 values a row."""
    from scipy.sparse import csr_matrix
    from sklearn.preprocessing import normalize

    count = len(vectors)
    near = min(max(MIN_NEIGHBOURS, count // 6), MAX_NEIGHBOURS, count - 1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    rows, columns, values = [], [], []
    for start in range(0, count, DISTANCE_BLOCK):
        block = unit[start : start + DISTANCE_BLOCK] @ unit.T
        own = np.arange(start, start + len(block))
        block[own - start, own] = 2.0  # itself first, whatever ties
        nearest = np.argpartition(-block, near, axis=1)[:, : near + 1]
        weights = np.maximum(np.take_along_axis(block, nearest, axis=1), 0.0)
        weights[nearest == own[:, None]] = 1.0
        rows.append(np.repeat(own, near + 1))
        columns.append(nearest.ravel())
        values.append(weights.ravel())
    matrix = csr_matrix(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))), shape=(count, count)
    )
    return normalize(matrix)


def shared_neighbours(compared: Any) -> Any:
    """The graph of rows (a sparse symmetric matrix): each row linked to the rows whose neighbourhoods
    overlap its own most (as many as it has neighbours), weighted by the overlap. Keeping only the
    strongest links matters: the full overlap joins every theme to its neighbours through a few strays."""
    from scipy.sparse import csr_matrix

    overlap = (compared @ compared.T).tocsr()
    overlap.setdiag(0)
    overlap.eliminate_zeros()
    strongest = max(int(np.diff(compared.indptr).max()) - 1, 1)
    rows, columns, values = [], [], []
    for row in range(overlap.shape[0]):
        start, end = overlap.indptr[row], overlap.indptr[row + 1]
        linked, weights = overlap.indices[start:end], overlap.data[start:end]
        if len(weights) > strongest:
            top = np.argpartition(-weights, strongest)[:strongest]
            linked, weights = linked[top], weights[top]
        rows.append(np.full(len(linked), row))
        columns.append(linked)
        values.append(weights)
    graph = csr_matrix(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))), shape=overlap.shape
    )
    return graph.maximum(graph.T).tocsr()


def communities(compared: Any) -> np.ndarray | None:
    """Communities of the shared-neighbour graph of `compared` (`neighbourhoods` rows) by Leiden, at
    the resolution whose communities have the best silhouette among those giving a sensible number;
    None when no resolution does. Leiden keeps a theme whose members are linked through each other
    though not all alike, where cutting an average-link tree split it or merged it with a neighbour."""
    from sklearn.metrics import silhouette_score
    from sknetwork.clustering import Leiden

    graph = shared_neighbours(compared)
    count = compared.shape[0]
    most = _group_bounds(count)[1]  # strays join communities, so a few themes make a few of them
    best: tuple[float, np.ndarray] | None = None
    for resolution in RESOLUTIONS:
        labels = np.asarray(Leiden(resolution=resolution, random_state=0).fit_predict(graph))
        groups = len(set(labels.tolist()))
        if not 2 <= groups <= most:
            continue
        score = silhouette_score(
            compared, labels, metric="cosine", sample_size=min(count, SILHOUETTE_SAMPLE), random_state=0
        )
        if best is None or score > best[0]:
            best = (float(score), labels)
    return None if best is None else best[1]


def _group_bounds(count: int) -> tuple[int, int]:
    """The fewest and most groups a sensible cut gives: 5 to 40, more for large projects."""
    return min(5, max(2, count // 4)), min(max(40, count // 150), count - 1)


def cosine_distances(vectors: Any) -> np.ndarray:
    """The condensed matrix of cosine distances (as scipy's `pdist` gives it) computed by matrix
    products, a block of rows at a time: `pdist` compares pairs one by one and took most of a 10,000-item
    recompute. `vectors` may be a sparse matrix (`neighbourhoods`)."""
    from scipy.sparse import issparse
    from sklearn.preprocessing import normalize

    unit = normalize(vectors)
    count = unit.shape[0]
    condensed = np.empty(count * (count - 1) // 2, dtype=np.float64)
    position = 0
    for start in range(0, count, DISTANCE_BLOCK):
        product = unit[start : start + DISTANCE_BLOCK] @ unit.T
        block = 1.0 - (product.toarray() if issparse(product) else product)
        for offset, row in enumerate(block):
            following = row[start + offset + 1 :]
            condensed[position : position + len(following)] = following
            position += len(following)
    return np.clip(condensed, 0.0, 2.0)


def _best_cut(tree: np.ndarray, vectors: Any, fcluster: object) -> np.ndarray:
    """The cut with the best silhouette among those giving a sensible number of groups; when none does,
    the first cut giving two groups or more (or one group)."""
    from sklearn.metrics import silhouette_score

    count = vectors.shape[0]
    fewest, most = _group_bounds(count)
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


def _term_weights(
    groups: list[list[str]], pairs: bool, weights: list[list[float]] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class-based TF-IDF over the groups' messages: a term weighs by the share of the group's messages
    that use it against how many messages of all groups do, so a word several members chose stands out
    and words every group uses sink. With `pairs`, two words that follow each other count too (when
    two messages of the group use them). Returns (terms, weights per group and term, whether each term
    is a pair)."""
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(
        token_pattern=WORD.pattern, lowercase=True, stop_words=sorted(STOP_WORDS), binary=True,
        ngram_range=(1, 2) if pairs else (1, 1),
    )  # fmt: skip
    flat = [text for texts in groups for text in texts]
    try:
        said = vectorizer.fit_transform(flat)
    except ValueError:  # no word at all (only numbers or stop words)
        return np.array([]), np.zeros((len(groups), 0)), np.array([], dtype=bool)
    terms = vectorizer.get_feature_names_out()
    owner = np.repeat(np.arange(len(groups)), [len(texts) for texts in groups])
    counts = np.zeros((len(groups), len(terms)))
    for group in range(len(groups)):
        counts[group] = np.asarray(said[owner == group].sum(axis=0)).ravel()
    is_pair = np.array([" " in term for term in terms], dtype=bool)
    counts[:, is_pair] = np.where(counts[:, is_pair] >= 2, counts[:, is_pair], 0.0)
    share = counts / np.maximum(np.array([[len(texts)] for texts in groups], dtype=np.float64), 1.0)
    if weights is not None:  # a word of a message near the centre says more about the group
        each = np.concatenate([np.asarray(w, dtype=np.float64) for w in weights])
        for group in range(len(groups)):
            chosen = owner == group
            total = max(float(each[chosen].sum()), 1e-9)
            close = np.asarray(said[chosen].T @ each[chosen]).ravel() / total
            share[group] = np.where(counts[group] > 0, 0.5 * share[group] + 0.5 * close, 0.0)
    average = counts.sum() / len(groups)
    weight = share * np.log(1.0 + average / np.maximum(counts.sum(axis=0), 1.0))
    return terms, weight, is_pair


def _keywords(groups: list[list[str]], closeness: list[list[float]] | None = None) -> list[list[str]]:
    """Up to KEYWORDS single words per group, the most telling first (`_term_weights`)."""
    if not groups:
        return []
    terms, weight, _ = _term_weights(groups, pairs=False, weights=closeness)
    result = []
    for row in weight:
        order = np.argsort(-row, kind="stable")
        result.append([str(terms[i]) for i in order[:KEYWORDS] if row[i] > 0])
    return result


def _most_common(languages: Sequence[str | None]) -> str | None:
    counted = Counter(language for language in languages if language).most_common(1)
    return counted[0][0] if counted else None


def _in_language(rows: list[int], languages: Sequence[str | None], main: str | None) -> list[int]:
    """The group's messages in the main language; a group with none: those of its own most common
    language (its name is then in that language, not a mix)."""
    wanted = main if any(languages[i] == main for i in rows) else _most_common([languages[i] for i in rows])
    chosen = [i for i in rows if wanted is None or languages[i] == wanted]
    return chosen or list(rows)


def _closeness(vectors: np.ndarray, rows: list[int], chosen: list[int]) -> list[float]:
    """Cosine similarity of each chosen row to the centre of `rows`, at least 0."""
    centre = vectors[rows].mean(axis=0)
    centre = centre / max(float(np.linalg.norm(centre)), 1e-12)
    return [max(0.0, float(vectors[i] @ centre)) for i in chosen]


def _names(groups: list[list[str]], closeness: list[list[float]]) -> list[str]:
    """Two to five words per group: its most telling terms (`_term_weights`, pairs of words weighing
    half again as much as "dark mode" says more than "dark" and "mode" apart), each adding the words it
    does not repeat: "dark mode, theme"."""
    if not groups:
        return []
    terms, weight, is_pair = _term_weights(groups, pairs=True, weights=closeness)
    weight[:, is_pair] *= 1.5
    fewest, most = NAME_WORDS
    names = []
    for row in weight:
        words: list[str] = []
        phrases: list[str] = []
        for index in np.argsort(-row, kind="stable")[:12]:
            if row[index] <= 0 or (len(words) >= fewest and row[index] < row.max() / 3):
                break
            new = [word for word in str(terms[index]).split() if not any(_alike(word, w) for w in words)]
            if not new or len(words) + len(new) > most:
                continue
            words.extend(new)
            phrases.append(" ".join(new))
            if len(phrases) == 3:
                break
        names.append(", ".join(phrases))
    return names


def _alike(word: str, other: str) -> bool:
    """The same word in another form ("price", "pricing"; "email", "emails"): a shared beginning of 4
    letters, 5 for longer words."""
    shared = next(
        (i for i, (a, b) in enumerate(zip(word, other, strict=False)) if a != b), min(len(word), len(other))
    )
    return word == other or shared >= (4 if min(len(word), len(other)) <= 5 else 5)


def _capitalised(name: str) -> str:
    return name[:1].upper() + name[1:]


def _label(text: str) -> str:
    """The message, on one line, cut at a word near LABEL_CHARACTERS."""
    line = " ".join(text.split())
    if len(line) <= LABEL_CHARACTERS:
        return line
    cut = line[:LABEL_CHARACTERS].rsplit(" ", 1)[0]
    return cut + "…"
