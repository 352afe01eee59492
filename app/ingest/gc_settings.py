"""The garbage collector's settings while the application serves.

Group commit parks each public submission until its batch is committed, so a loaded worker always
holds dozens of live requests. With CPython's default threshold (a young collection every 700 net
container allocations) that alone sets off young collections many times a second, and the older
generations then walk the whole heap, mostly the objects of imported modules, without finding garbage.
Freezing what startup built (gc.freeze) takes those objects out of every collection, and a higher young
threshold lets a batch come and go between collections. Cyclic garbage is still collected, just less
often.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar

YOUNG_THRESHOLD = 10_000
"""Net container allocations between young collections (CPython's default is 700)."""


@functools.cache
def _freeze_startup() -> None:
    """Once per process. Remembered here rather than read back: gc.get_freeze_count() walks every frozen
    object (about 260,000 after startup, 37 ms), which each start of an application would pay."""
    gc.collect()  # nothing that is already garbage gets frozen
    gc.freeze()


@asynccontextmanager
async def serving_gc(_: Litestar) -> AsyncIterator[None]:
    """Raise the young threshold while the application serves, and freeze what the process's first
    start built. A worker process serves one application for its whole life; a process that starts
    many (the tests) freezes once, so that neither garbage is frozen again and again (it would keep
    what it holds, database connections say, for good) nor every start pays a full collection."""
    _freeze_startup()
    threshold = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
