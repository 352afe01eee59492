"""The file generation strictly increases with every bump, even within one clock tick."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from app.config import Settings
from app.db.cache_generation import FileGeneration, generation_file
from app.db.directory_cache import DirectoryCache


async def test_file_generation_moves_on_every_bump(tmp_path: Path) -> None:
    generation = FileGeneration(tmp_path / "var" / "cache_generation")
    seen = [await generation.current()]
    for _ in range(50):
        await generation.bump()
        seen.append(await generation.current())
    assert seen[0] == 0
    assert all(later > earlier for earlier, later in pairwise(seen))


def test_directory_cache_drops_everything_when_the_generation_moves() -> None:
    cache: DirectoryCache[str, int] = DirectoryCache(max_found=2, max_missing=1)
    cache.sync(1)
    cache.put("a", 1, 1)
    cache.put("nobody", None, 1)
    assert cache.get("a") == (True, 1)
    assert cache.get("nobody") == (True, None)
    assert cache.get("b") == (False, None)
    cache.sync(2)
    assert cache.get("a") == (False, None)
    cache.put("a", 1, 1)  # a lookup that started before the change is not kept
    assert cache.get("a") == (False, None)


def test_directory_cache_is_bounded_and_unknown_keys_do_not_evict_known_ones() -> None:
    cache: DirectoryCache[str, int] = DirectoryCache(max_found=2, max_missing=2)
    cache.sync(1)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        cache.put(key, value, 1)
    for index in range(100):
        cache.put(f"unknown-{index}", None, 1)
    assert cache.get("a") == (False, None)
    assert (cache.get("b"), cache.get("c")) == ((True, 2), (True, 3))
    assert cache.get("unknown-99") == (True, None)
    assert cache.get("unknown-0") == (False, None)


def test_servers_on_two_postgresql_databases_keep_generations_of_their_own() -> None:
    first, second = (
        generation_file(Settings(database_url=f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"))
        for name in ("shop", "docs")
    )
    assert first != second
    assert first == generation_file(
        Settings(database_url="postgresql+psycopg://postgres@127.0.0.1:5432/shop")
    )
