"""The language of a message (py3langid, its model inside the package), used only to subtract each
language's mean vector: raw multilingual vectors group by language before meaning."""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

MIN_CONFIDENCE = 0.6
"""Below this the message is too short or mixed to tell ("ok", "test"): it gets no language."""
_lock = threading.Lock()


@cache
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def language_of(text: str) -> str | None:
    with _lock:  # the identifier keeps state between calls
        language, confidence = _identifier().classify(text[:1000])
    return str(language) if confidence >= MIN_CONFIDENCE else None
