"""A periodic job looks at start, again every interval, and survives its own failures."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from litestar import Litestar

from app.periodic import periodic


async def test_a_failure_does_not_end_the_loop_and_the_loop_ends_with_the_app() -> None:
    calls = 0

    async def job(_: Litestar) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the database is away")

    async with periodic("test-job", lambda _: 0.05, job)(Litestar()):
        await asyncio.sleep(0)
        assert calls == 1  # at start
        while calls < 3:
            await asyncio.sleep(0.01)
    seen = calls
    await asyncio.sleep(0.2)
    assert calls == seen


async def test_a_job_stopped_midway_whose_cleanup_fails_still_lets_the_app_stop() -> None:
    """A job cancelled at shutdown inside a database call can fail in its cleanup with another error
    (SQLAlchemy's PendingRollbackError): the loop must end, not wait an interval (an hour) to try again."""
    started = asyncio.Event()

    async def job(_: Litestar) -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise RuntimeError("cannot unlock: the connection's transaction is invalid") from None

    hook = periodic("test-job", lambda _: 3600, job)(Litestar())
    await hook.__aenter__()
    await started.wait()
    await asyncio.wait_for(hook.__aexit__(None, None, None), timeout=5)


async def test_a_wake_up_runs_the_job_at_once() -> None:
    """The insights loop looks again as soon as a refresh request sets its event, not an interval later."""
    calls = 0
    handed: list[asyncio.Event | None] = []

    async def job(_: Litestar) -> None:
        nonlocal calls
        calls += 1

    async with periodic("test-job", lambda _: 3600, job, wake=handed.append)(Litestar()):
        while calls < 1:
            await asyncio.sleep(0.01)
        [wake] = handed
        assert wake is not None
        wake.set()
        await asyncio.wait_for(_until(lambda: calls == 2), timeout=5)
    assert handed[-1] is None


async def test_before_serving_the_first_run_is_done_before_the_app_serves() -> None:
    """The replicas' lag is known before the first request picks where to read."""
    calls = 0

    async def job(_: Litestar) -> None:
        nonlocal calls
        await asyncio.sleep(0.05)
        calls += 1

    async with periodic("test-job", lambda _: 3600, job, before_serving=True)(Litestar()):
        assert calls == 1
        await asyncio.sleep(0.1)
        assert calls == 1  # not run again at once


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)
