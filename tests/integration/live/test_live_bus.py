"""The live bus on each backend: two buses stand for two processes; a publish on one reaches the
subscribers of both, each once; a slow subscriber is dropped without stopping the others."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.config import POSTGRES_CONNECT_ARGS
from app.live import LiveBus
from app.live.bus import InProcessBus
from app.live.fanout import QUEUE_SIZE
from app.live.postgres_bus import PostgresBus
from app.live.redis_bus import RedisBus
from tests.services import POSTGRES_ADMIN_URL, REDIS_URL, require_postgres, require_redis


async def wait_connected(*buses: LiveBus) -> None:
    async with asyncio.timeout(10):
        while not all(bus.connected for bus in buses):
            await asyncio.sleep(0.02)


@pytest.fixture(params=["in-process", pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("postgres", marks=pytest.mark.postgres)])  # fmt: skip
async def buses(request: pytest.FixtureRequest) -> AsyncIterator[tuple[LiveBus, LiveBus]]:
    """Two buses on one backend (in-process: one bus twice, as in one process)."""
    engine = None
    if request.param == "in-process":
        one = InProcessBus()
        pair: tuple[LiveBus, LiveBus] = (one, one)
    elif request.param == "redis":
        require_redis()
        prefix = f"hearken-test-{uuid.uuid4().hex[:8]}:"
        pair = (RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix))
    else:
        require_postgres()
        engine = create_async_engine(POSTGRES_ADMIN_URL, connect_args=POSTGRES_CONNECT_ARGS)
        pair = (PostgresBus(engine), PostgresBus(engine))
    for bus in set(pair):
        await bus.start()
    await wait_connected(*pair)
    yield pair
    for bus in set(pair):
        await bus.close()
    if engine is not None:
        await engine.dispose()


async def test_a_publish_reaches_every_process_once(buses: tuple[LiveBus, LiveBus]) -> None:
    sender, other = buses
    async with (
        sender.subscribe("conversation:a") as here,
        other.subscribe("conversation:a") as there,
        other.subscribe("conversation:b") as elsewhere,
    ):
        await sender.publish("conversation:a", "17")
        await sender.publish("conversation:a", "18")
        assert [await here.get(5), await here.get(5)] == ["17", "18"]
        assert [await there.get(5), await there.get(5)] == ["17", "18"]
        await sender.publish("conversation:b", "19")
        assert await elsewhere.get(5) == "19"
        assert await here.get(0.3) is None  # nothing twice, nothing of another channel
        assert await there.get(0.01) is None
    assert sender.fanout.subscribers == other.fanout.subscribers == 0


async def test_a_slow_subscriber_is_dropped_and_the_others_go_on(buses: tuple[LiveBus, LiveBus]) -> None:
    bus = buses[0]
    async with bus.subscribe("conversation:c") as slow, bus.subscribe("conversation:c") as reader:
        for number in range(QUEUE_SIZE + 1):
            await bus.publish("conversation:c", str(number))
            assert await reader.get(5) == str(number)
        assert slow.dropped
        assert [item async for item in slow] == []  # its stream ends
        assert bus.fanout.subscribers == 1
