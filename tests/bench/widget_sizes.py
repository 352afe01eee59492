"""The widget files as a visitor's browser downloads them: each one's size gzipped at the level the server
serves with (app/compression.py), beside its budget in tests/browser/test_widget_files.py. The survey
loader is on every page of a site; its renderer is fetched only when a survey shows."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

from app.static_assets import WIDGETS_DIR
from tests.browser.test_widget_files import BUDGETS


def widget_sizes_part(record: Callable[[str, str, str], None]) -> dict[str, Any]:
    sizes = {}
    for path in sorted(WIDGETS_DIR.glob("*.js")):
        name = path.stem
        sizes[name] = len(gzip.compress(path.read_bytes(), 9))
        budget = BUDGETS.get(name)
        record(f"widget {path.name}, gzip", f"{sizes[name]:,} B", f"(budget {budget:,} B)" if budget else "")
    return {"gzip_bytes": sizes, "budgets": BUDGETS}
