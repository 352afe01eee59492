"""docs/architecture.md cannot drift silently: its tables of periodic jobs and outbox handlers are the
registries in the code, and every file it names exists."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from app.background import outbox_handlers
from app.config import Settings
from app.periodic import periodic_jobs

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def table_under(heading: str) -> list[list[str]]:
    """The rows of the first table after `heading`, each cell without its backticks."""
    section = DOC.split(f"\n{heading}\n", 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip().strip("`") for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # after the header and its rule


def test_the_periodic_jobs_are_the_ones_the_doc_lists() -> None:
    everything = Settings(
        database_url="postgresql+psycopg://hearken@localhost/hearken",
        database_replica_urls=("postgresql+psycopg://hearken@replica/hearken",),
        periodic_jobs=True,
    )
    listed = [row[0] for row in table_under("### Periodic jobs")]
    assert listed == [job.name for job in periodic_jobs(everything)]


def test_the_outbox_handlers_are_the_ones_the_doc_lists() -> None:
    insights_on: Any = SimpleNamespace(enabled=True)
    handlers = outbox_handlers(None, Settings(), None, insights_on)  # type: ignore[arg-type]
    rows = table_under("### Outbox handlers")
    assert [(kind, handler, int(share)) for kind, handler, share, _ in rows] == [
        (h.kind, type(h).__name__, h.share) for h in handlers
    ]
    for _, handler, _, where in rows:
        assert f"class {handler}" in (ROOT / where.split("`")[0]).read_text()


def test_every_file_the_doc_names_exists() -> None:
    named = set(re.findall(r"`((?:app|tenants|admin_ui|tests|docs|packages|deploy|static)/[\w./-]*)`", DOC))
    assert len(named) > 100
    assert sorted(path for path in named if not (ROOT / path).exists()) == []
