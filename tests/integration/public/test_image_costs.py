"""What one visitor's images may cost: stored about as compact as they were sent, and within a budget of
bytes per client address per project; and the other organizations' images are decoded meanwhile."""

from __future__ import annotations

import os
from io import BytesIO
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from PIL import Image, ImageDraw

from app.config import Settings
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED

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
