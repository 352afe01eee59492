"""Coalesces concurrent calls into batches: each caller awaits its own result while one task runs the
batch function on everything queued so far.

Under light load a batch holds one call and adds no delay; under heavy load one round trip (a commit,
a Redis script) serves hundreds of requests. Used by the ratings' intake and the Redis budgets.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BatchFunction = Callable[[Sequence[T]], Awaitable[Sequence[R | BaseException]]]
"""Runs one batch; returns one result per item, in order, or an exception for an item that failed."""


class Coalescer(Generic[T, R]):
    def __init__(
        self, run_batch: BatchFunction[T, R], *, max_batch: int = 1000, name: str = "coalescer"
    ) -> None:
        self._run_batch = run_batch
        self._max_batch = max_batch
        self._name = name
        self._queue: list[tuple[T, asyncio.Future[R]]] = []
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._closing = False

    async def submit(self, item: T) -> R:
        if self._runner is None or self._runner.done():
            self._wake = asyncio.Event()
            # In a context of its own: the runner serves everyone's calls, and must not carry the
            # request id (or any other context) of the call that happened to start it into its logs.
            self._runner = asyncio.create_task(
                self._run_forever(), name=self._name, context=contextvars.Context()
            )
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        self._wake.set()
        try:
            return await future
        finally:
            # A failed call's exception, kept by its future, has this frame in its traceback: without
            # this, exception, traceback, frame and future form a cycle that only the GC can free.
            del future

    async def close(self) -> None:
        """Let the runner finish the batch it is running and what is queued, then stop. (Cancelling it
        mid-batch would leave that batch's callers waiting forever.)"""
        if self._runner is None:
            return
        self._closing = True
        self._wake.set()
        try:
            await self._runner
        finally:
            self._runner, self._closing = None, False

    async def _run_forever(self) -> None:
        while True:
            while not self._queue:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
            await self._run(self._take())

    def _take(self) -> list[tuple[T, asyncio.Future[R]]]:
        batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
        return batch

    async def _run(self, batch: list[tuple[T, asyncio.Future[R]]]) -> None:
        try:
            results: Sequence[R | BaseException] = await self._run_batch([item for item, _ in batch])
        except Exception as exc:  # the batch function failed as a whole: so did every call in it
            results = [exc] * len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():  # its caller went away
                continue
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)
