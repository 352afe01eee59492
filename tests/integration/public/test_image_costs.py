"""What one visitor's images may cost: stored about as compact as they were sent, and within a budget of
bytes per client address per project; and another organization's images are decoded meanwhile."""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import Iterator
from io import BytesIO
from typing import Any

import httpx
import pytest
import redis as sync_redis
from litestar import Litestar
from litestar.testing import AsyncTestClient
from PIL import Image, ImageDraw
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AttachmentUsage, FeedbackItem
from app.db.transactions import unit_of_work
from app.services.image_cleaning import CleanImage, clean_image, cleaned
from tests.factories import Tenant
from tests.images import png
from tests.integration.public.conftest import ALLOWED
from tests.integration.public.servers import running_server, server_env
from tests.services import REDIS_URL, require_redis

SUBMIT = "/api/v1/feedback/submit"


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        embeddings="off",
        periodic_jobs=False,
    )


def encoded(image: Image.Image) -> bytes:
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def screenshot(mode: str) -> Image.Image:
    shot = Image.new("RGB", (1600, 900), "white")
    draw = ImageDraw.Draw(shot)
    for y in range(0, 900, 18):
        draw.text((10, y), "The totals row overlaps the chart  " * 5, fill=(30, 30, 30))
    draw.rectangle((200, 300, 700, 600), fill=(20, 120, 200))
    return shot.quantize(64) if mode == "P" else shot.convert(mode)


async def submit(client: AsyncTestClient[Litestar], tenant: Tenant, upload: bytes) -> Any:
    return await client.post(
        SUBMIT,
        data={"project_key": tenant.project_key, "message": "Look at this", "type": "Bug"},
        files=[("attachments", ("shot.png", upload, "image/png"))],
        headers={"Origin": ALLOWED},
    )


async def stored_image(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> tuple[dict[str, Any], Image.Image]:
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    (item,) = listed.json()["feedback"]
    (attachment,) = item["attachments"]
    served = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/attachments/{attachment['id']}",
        headers=tenant.headers,
    )
    assert served.status_code == 200 and len(served.content) == attachment["bytes"]
    image = Image.open(BytesIO(served.content))
    image.load()
    return attachment, image


async def test_a_1_bit_6000_px_png_is_stored_smaller_than_it_was_sent(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    """Review finding 5: a 1-bit 6000 x 6000 PNG of 4.5 MB was stored as a 42.7 MB RGB PNG (24 such
    requests filled a project's 1 GB). It stays 1-bit, scaled to 4096 a side, and smaller than sent."""
    noise = Image.frombytes("1", (6000, 6000), os.urandom(6000 * 6000 // 8))
    upload = encoded(noise)
    assert len(upload) > 4_400_000
    response = await submit(client, tenant, upload)
    assert response.status_code == 200, response.text
    attachment, image = await stored_image(client, tenant)
    assert attachment["bytes"] < len(upload)
    assert (attachment["content_type"], attachment["width"], attachment["height"]) == (
        "image/png",
        4096,
        4096,
    )
    assert (image.format, image.mode, image.size) == ("PNG", "1", (4096, 4096))


@pytest.mark.parametrize(("sent", "kept"), [("P", "P"), ("RGBA", "RGB"), ("L", "L")])
async def test_a_screenshot_keeps_its_compact_mode(
    client: AsyncTestClient[Litestar], tenant: Tenant, sent: str, kept: str
) -> None:
    """Review finding 5: a palette screenshot was stored as RGB (2.6 times its bytes) and an opaque RGBA
    one kept an alpha channel no pixel used. The palette stays a palette, unused alpha is dropped, and
    the image comes back at its size with the same pixels."""
    image = screenshot(sent)
    upload = encoded(image)
    response = await submit(client, tenant, upload)
    assert response.status_code == 200, response.text
    attachment, stored = await stored_image(client, tenant)
    assert stored.mode == kept and stored.size == image.size
    assert attachment["bytes"] <= len(upload) * 1.1
    assert list(stored.convert("RGB").getdata()) == list(image.convert("RGB").getdata())


class HeldDecoder:
    """The real decoder, but each image waits for its release before it is decoded; the order decodes
    start in is reported to the event loop."""

    def __init__(self, images: dict[bytes, str]) -> None:
        self._names = images
        self._loop = asyncio.get_running_loop()
        self.releases = {name: threading.Event() for name in images.values()}
        self._started: asyncio.Queue[str] = asyncio.Queue()

    def __call__(self, raw: bytes) -> CleanImage:
        name = self._names[raw]
        self._loop.call_soon_threadsafe(self._started.put_nowait, name)
        self.releases[name].wait(timeout=60)
        return cleaned(raw)

    async def next_started(self) -> str:
        return await asyncio.wait_for(self._started.get(), timeout=30)

    def release_all(self) -> None:
        for release in self.releases.values():
            release.set()


async def test_one_organizations_images_never_queue_anothers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Review finding 5: two decodes at once per process were shared by every tenant, so another
    organization's small screenshot waited behind one organization's queue of big images (7.3 s).
    An organization decodes one image at a time, and a freed slot goes to the organization waiting that
    was served least recently: B's screenshot is decoded before A's queued images."""
    org_a, org_b, org_c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    sent = {f"a{n}": png(100 + n) for n in range(1, 5)} | {"c1": png(200), "c2": png(201), "b": png(9)}
    decoder = HeldDecoder({raw: name for name, raw in sent.items()})
    monkeypatch.setattr("app.services.image_cleaning.cleaned", decoder)
    owner = {name: {"a": org_a, "b": org_b, "c": org_c}[name[0]] for name in sent}

    def decode(name: str) -> asyncio.Task[CleanImage]:
        return asyncio.create_task(clean_image(sent[name], owner[name]))

    tasks = {name: decode(name) for name in ("a1", "a2", "a3", "a4", "c1", "c2")}
    try:
        # A's other images queue behind A's first; C's first is decoded beside it
        assert {await decoder.next_started(), await decoder.next_started()} == {"a1", "c1"}
        tasks["b"] = decode("b")
        decoder.releases["a1"].set()
        assert await decoder.next_started() == "b"  # not a2: B waits in no queue of A's
        decoder.releases["c1"].set()
        assert await decoder.next_started() == "a2"  # A was served before C, so A comes first
        decoder.releases["b"].set()
        assert (await tasks["b"]).width == 9
        assert await decoder.next_started() == "c2"
        assert not any(tasks[name].done() for name in ("a2", "a3", "a4", "c2"))
    finally:
        decoder.release_all()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
    assert all(task.result().height == 48 for name, task in tasks.items() if name != "b")


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def budget_env(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    if request.param == "memory":
        yield {}
        return
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    yield {"HEARKEN_REDIS_URL": REDIS_URL, "HEARKEN_REDIS_PREFIX": prefix}
    with sync_redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


async def test_one_address_spends_only_its_own_budget_of_image_bytes(
    database_url: str,
    tenant: Tenant,
    budget_env: dict[str, str],
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 5: one visitor could fill a project's whole image quota, after which every image
    sent to the project was refused. Each address may store 1 MB here (HEARKEN_ATTACHMENT_CLIENT_MB):
    its third image of 0.4 MB is refused with 429 naming `attachments`, and another address still gets
    its image stored."""
    env = server_env(
        database_url, HEARKEN_TRUSTED_PROXIES="127.0.0.1", HEARKEN_ATTACHMENT_CLIENT_MB="1", **budget_env
    )
    upload = encoded(Image.frombytes("L", (640, 640), os.urandom(640 * 640)))
    form = {"project_key": tenant.project_key, "message": "Look at this", "type": "Bug"}

    async def send(client: httpx.AsyncClient, visitor: str) -> httpx.Response:
        return await client.post(
            SUBMIT,
            data=form,
            files=[("attachments", ("noise.png", upload, "image/png"))],
            headers={"X-Forwarded-For": visitor, "Origin": ALLOWED},
        )

    with running_server(env) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            first = [(await send(client, "203.0.113.7")).status_code for _ in range(2)]
            refused = await send(client, "203.0.113.7")
            other = await send(client, "198.51.100.9")
    assert first == [200, 200]
    assert refused.status_code == 429, refused.text
    answer = refused.json()
    assert answer["error"] == "rate_limited" and answer["details"].startswith("attachments: ")
    assert "1 MB per 24 hours" in answer["details"]
    assert refused.headers["retry-after"] == str(answer["retry_after"]) and answer["retry_after"] > 3600
    assert other.status_code == 200, other.text
    async with unit_of_work(session_maker) as session:
        items = await session.scalar(select(func.count()).select_from(FeedbackItem))
        used = await session.scalar(select(func.sum(AttachmentUsage.bytes)))
    assert items == 3 and used is not None and used < 3 * 500_000
