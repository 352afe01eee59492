"""`make test` runs the suite in parallel workers that keep each `xdist_group` on one worker: the fault
tests one after another (they stop and time shared services), each browser module with one Chromium. A
pytest and pytest-xdist that disagree on node ids lose every group without an error (pytest 9.2 with
pytest-xdist 3.8, pytest-dev/pytest-xdist#1386); this test is what fails then."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("grouping")
def test_parallel_workers_keep_each_group_together(request: pytest.FixtureRequest) -> None:
    if not request.config.getoption("loadgroup", default=False):
        pytest.skip("only parallel workers group tests (make test: --dist loadgroup)")
    assert request.node.nodeid.endswith("@grouping"), "the xdist_group marks are ignored"
