"""A bounded in-process cache of rows looked up by key, dropped whole when the cache generation moves.

Unknown keys are remembered too (in their own, smaller space) so that repeating one costs no query,
while a stream of distinct unknown keys cannot evict the known ones.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class DirectoryCache(Generic[K, V]):
    def __init__(self, *, max_found: int = 50_000, max_missing: int = 10_000) -> None:
        self.generation: int | None = None
        self._found: OrderedDict[K, V] = OrderedDict()
        self._missing: OrderedDict[K, None] = OrderedDict()
        self._max_found = max_found
        self._max_missing = max_missing

    def sync(self, generation: int) -> None:
        """Forget everything when the shared generation differs from the one the cache was filled at."""
        if generation != self.generation:
            self._found.clear()
            self._missing.clear()
            self.generation = generation

    def get(self, key: K) -> tuple[bool, V | None]:
        """(cached, value): value None with cached True means the key is known not to exist."""
        if key in self._found:
            self._found.move_to_end(key)
            return True, self._found[key]
        return key in self._missing, None

    def put(self, key: K, value: V | None, generation: int) -> None:
        """Store what a lookup started at `generation` found, unless the cache moved on meanwhile."""
        if generation != self.generation:
            return
        if value is None:
            self._store(self._missing, key, None, self._max_missing)
        else:
            self._store(self._found, key, value, self._max_found)

    @staticmethod
    def _store(space: OrderedDict[K, V] | OrderedDict[K, None], key: K, value: V | None, limit: int) -> None:
        space[key] = value  # type: ignore[assignment]
        space.move_to_end(key)
        if len(space) > limit:
            space.popitem(last=False)
