"""What a check found about one subject: enough to open, update or keep open its alert."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement

SETTLED_P = 0.05
"""Hysteresis: a subject whose test gives a p-value at or above this is back within its baseline (its
alert resolves after a day of that); below it but above the rule's threshold it keeps an alert open
without opening one."""
DESCRIPTIVE = frozenset({"name", "label"})
"""Subject fields that describe it for a reader and are not part of which subject it is."""


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    subject: dict[str, Any]
    title: str
    before: float
    after: float
    p_value: float
    firing: bool
    """Significant at the rule's threshold with enough answers or items: opens or updates the alert."""
    series: list[tuple[str, float, int]]
    """(label, value, how many) for the evidence chart."""
    unit: str
    examples_where: list[ColumnElement[bool]] = field(default_factory=list)
    """Which feedback items are examples of it (besides the project's shown items)."""
    example_ids: list[str] = field(default_factory=list)
    """Or exactly these items, newest first."""

    @property
    def subject_key(self) -> str:
        return subject_key(self.kind, self.subject)


def subject_key(kind: str, subject: dict[str, Any]) -> str:
    """The one-episode key: the same kind and subject is the same episode while it is unresolved. A
    theme's name and label only describe it (they may change when themes are recomputed)."""
    identity = {k: v for k, v in subject.items() if k not in DESCRIPTIVE}
    raw = json.dumps([kind, identity], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode()).hexdigest()


def percent(share: float) -> str:
    return f"{round(share * 100)} %"
