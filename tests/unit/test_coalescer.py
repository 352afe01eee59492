"""The Coalescer batches concurrent calls and, on close, answers every call it has taken."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from app.ingest.coalescer import Coalescer


async def test_concurrent_calls_share_a_batch_and_each_gets_its_own_result() -> None:
    batches: list[list[int]] = []

    async def double(items: Sequence[int]) -> list[int]:
        batches.append(list(items))
        await asyncio.sleep(0.01)
        return [item * 2 for item in items]

    coalescer: Coalescer[int, int] = Coalescer(double)
    results = await asyncio.gather(*(coalescer.submit(n) for n in range(10)))
    await coalescer.close()
    assert results == [n * 2 for n in range(10)]
    assert len(batches) < 10


async def test_close_lets_the_running_batch_finish() -> None:
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow(items: Sequence[str]) -> list[str]:
        started.set()
        await release.wait()
        return [item.upper() for item in items]

    coalescer: Coalescer[str, str] = Coalescer(slow)
    running = asyncio.ensure_future(coalescer.submit("a"))
    await started.wait()
    closing = asyncio.ensure_future(coalescer.close())
    await asyncio.sleep(0.01)
    assert not closing.done()  # it waits for the batch in flight instead of cancelling it
    release.set()
    await asyncio.wait_for(closing, timeout=5)
    assert await asyncio.wait_for(running, timeout=5) == "A"


async def test_close_runs_what_is_queued() -> None:
    coalescer: Coalescer[str, str] = Coalescer(_upper)
    await coalescer.submit("warm")
    queued = [asyncio.ensure_future(coalescer.submit(item)) for item in "bc"]
    await asyncio.sleep(0)  # both are queued now
    await asyncio.wait_for(coalescer.close(), timeout=5)
    assert [await asyncio.wait_for(future, timeout=5) for future in queued] == ["B", "C"]


async def _upper(items: Sequence[str]) -> list[str]:
    await asyncio.sleep(0)
    return [item.upper() for item in items]
