"""Images sent with feedback (the public submit's multipart form): decoded and stored again without
their metadata, refused whole when anything is wrong, served to the organization only, deleted with
their items and counted against the project's quota."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from io import BytesIO
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from PIL import Image
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AttachmentUsage, FeedbackAttachment, FeedbackItem, User
from app.db.transactions import unit_of_work
from app.services.retention import apply_retention
from app.timestamps import utc_now
from tests.console_helpers import Console, add_user, another_browser
from tests.counter_recount import assert_attachment_usage_matches_rows
from tests.factories import Tenant
from tests.images import jpeg_with_gps, png, webp
from tests.integration.public.conftest import ALLOWED
from tests.integration.public.test_spam import scraped, spam_counted

SUBMIT = "/api/v1/feedback/submit"
QUOTA_BYTES = 4000


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        embeddings="off",
        attachment_quota_bytes=QUOTA_BYTES,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


def fields(tenant: Tenant, message: str = "The chart is cut off", **extra: str) -> dict[str, str]:
    return {"project_key": tenant.project_key, "message": message, "type": "Bug", **extra}


def images(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("attachments", (name, data, "application/octet-stream")) for name, data in files]


async def submit(client: AsyncTestClient[Litestar], tenant: Tenant, files: list[Any], **extra: str) -> Any:
    return await client.post(SUBMIT, data=fields(tenant, **extra), files=files, headers={"Origin": ALLOWED})


async def stored(session_maker: async_sessionmaker[AsyncSession]) -> tuple[int, int, int]:
    async with unit_of_work(session_maker) as session:
        items = await session.scalar(select(func.count()).select_from(FeedbackItem))
        attachments = await session.scalar(select(func.count()).select_from(FeedbackAttachment))
        used = await session.scalar(select(func.coalesce(func.sum(AttachmentUsage.bytes), 0)))
        await assert_attachment_usage_matches_rows(session)
    return int(items or 0), int(attachments or 0), int(used or 0)


async def only_item(client: AsyncTestClient[Litestar], tenant: Tenant) -> dict[str, Any]:
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    (item,) = listed.json()["feedback"]
    return dict(item)


async def test_images_come_back_decoded_again_without_their_metadata(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    sent = images(("photo.jpg", jpeg_with_gps()), ("notes.png", png(text=True)), ("pic.webp", webp()))
    response = await submit(client, tenant, sent, submitted_by="user_7")
    assert response.status_code == 200, response.text
    item = await only_item(client, tenant)
    assert item["message"] == "The chart is cut off" and item["submitted_by"] == "user_7"
    kinds = [(a["content_type"], a["width"], a["height"]) for a in item["attachments"]]
    assert kinds == [("image/jpeg", 80, 60), ("image/png", 64, 48), ("image/webp", 40, 40)]
    for attachment in item["attachments"]:
        served = await client.get(
            f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/attachments/{attachment['id']}",
            headers=tenant.headers,
        )
        assert served.status_code == 200
        assert served.headers["content-type"] == attachment["content_type"]
        assert served.headers["x-content-type-options"] == "nosniff"
        assert served.headers["content-disposition"].startswith("inline")
        policy = served.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "sandbox" in policy
        assert len(served.content) == attachment["bytes"]
        image = Image.open(BytesIO(served.content))
        assert (image.width, image.height) == (attachment["width"], attachment["height"])
        assert not image.getexif() and not image.getexif().get_ifd(0x8825)
        assert "exif" not in image.info and "icc_profile" not in image.info and "xmp" not in image.info
        assert not getattr(image, "text", {})


async def test_a_large_image_is_scaled_down_to_4096_a_side(
    client: AsyncTestClient[Litestar], tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    response = await submit(client, tenant, images(("wide.png", png(5000, 100, mode="L"))))
    assert response.status_code == 200, response.text
    (attachment,) = (await only_item(client, tenant))["attachments"]
    assert (attachment["width"], attachment["height"]) == (4096, 82)


TRUNCATED = png(300, 200)[:-200]
REFUSED = {
    "not an image": (
        [("a.png", b"<svg xmlns='http://www.w3.org/2000/svg'></svg>")],
        400,
        "PNG, JPEG or WebP",
    ),
    "truncated": ([("cut.png", TRUNCATED)], 400, "damaged or cut short"),
    "too many pixels": ([("huge.png", png(7000, 6000, mode="L"))], 400, "pixels"),
    "over 5 MB": ([("big.png", os.urandom(5 * 1024 * 1024 + 1))], 413, "5 MB"),
    "four files": ([(f"{n}.png", png()) for n in range(4)], 400, "at most 3"),
    "over the body limit": ([(f"{n}.png", bytes(5 * 1024 * 1024)) for n in range(4)], 413, "at most 3"),
    "one good, one bad": ([("good.png", png()), ("bad.jpg", b"\xff\xd8\xff nope")], 400, "PNG, JPEG or WebP"),
}


async def test_a_bad_file_is_refused_naming_attachments_and_nothing_is_stored(
    client: AsyncTestClient[Litestar], tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    for case, (files, status, words) in REFUSED.items():
        response = await submit(client, tenant, images(*files))
        assert response.status_code == status, (case, response.text)
        body = response.json()
        assert body["details"].startswith("attachments: ") and words in body["details"], (case, body)
        assert await stored(session_maker) == (0, 0, 0), case


async def test_the_quota_refuses_what_would_exceed_it_and_a_purge_frees_it(
    client: AsyncTestClient[Litestar], tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    first = await submit(client, tenant, images(("one.png", png(20, 20))))
    assert first.status_code == 200
    used = (await stored(session_maker))[2]
    noisy = Image.frombytes("L", (100, 100), os.urandom(100 * 100))
    out = BytesIO()
    noisy.save(out, "PNG")
    assert used + len(out.getvalue()) > QUOTA_BYTES
    spam_before = spam_counted(scraped(), "feedback", "too_fast")
    refused = await submit(client, tenant, images(("noise.png", out.getvalue())), elapsed_ms="300")
    assert refused.status_code == 413, refused.text
    assert refused.json()["details"].startswith("attachments: ")
    assert await stored(session_maker) == (1, 1, used)
    assert spam_counted(scraped(), "feedback", "too_fast") == spam_before  # counted once stored, not before
    item = await only_item(client, tenant)
    purged = await client.delete(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}?purge=true", headers=tenant.headers
    )
    assert purged.status_code == 204
    assert await stored(session_maker) == (0, 0, 0)


async def test_another_organization_cannot_read_an_image(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant
) -> None:
    assert (await submit(client, tenant, images(("one.png", png())))).status_code == 200
    item = await only_item(client, tenant)
    path = f"/feedback/{item['id']}/attachments/{item['attachments'][0]['id']}"
    theirs = await client.get(f"/api/v1/projects/{tenant.project_id}{path}", headers=other_tenant.headers)
    assert theirs.status_code in (403, 404)
    own = await client.get(f"/api/v1/projects/{other_tenant.project_id}{path}", headers=other_tenant.headers)
    assert own.status_code == 404
    assert (await client.get(f"/api/v1/projects/{tenant.project_id}{path}")).status_code == 401


async def test_an_erasure_deletes_the_persons_images(
    client: AsyncTestClient[Litestar], tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    assert (await submit(client, tenant, images(("a.png", png())), submitted_by="user_9")).status_code == 200
    assert (await stored(session_maker))[1] == 1
    erased = await client.post(
        "/api/v1/privacy/erase", json={"submitted_by": "user_9"}, headers=tenant.headers
    )
    assert erased.status_code == 200, erased.text
    assert await stored(session_maker) == (0, 0, 0)


async def test_retention_deletes_old_items_with_their_images(
    client: AsyncTestClient[Litestar], tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    assert (await submit(client, tenant, images(("a.png", png()), ("b.png", png(9, 9))))).status_code == 200
    assert (await stored(session_maker))[1] == 2
    removed = await apply_retention(session_maker, tenant.project.id, 30, utc_now() + timedelta(days=31))
    assert removed.feedback == 1
    assert await stored(session_maker) == (0, 0, 0)


BOMB_SCRIPT = """
import asyncio, resource, sys, uuid
from tests.images import png_bomb
from app.services.image_cleaning import ImageRefused, clean_image
bomb = png_bomb()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    asyncio.run(clean_image(bomb, uuid.uuid4()))
except ImageRefused as refused:
    print("refused:", refused)
print("grew_kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_a_decompression_bomb_is_refused_within_100_mb() -> None:
    """A 30,000 x 30,000 PNG (900 million pixels, under a megabyte) is refused from its header; the
    process's peak memory hardly moves."""
    result = subprocess.run(
        [sys.executable, "-c", BOMB_SCRIPT], capture_output=True, text=True, check=True, timeout=60
    )
    assert "refused: " in result.stdout and "pixels" in result.stdout, result.stdout + result.stderr
    grew_kib = int(result.stdout.rsplit("grew_kib", 1)[1])
    assert grew_kib < 100 * 1024


async def test_exports_name_each_image_by_its_address(
    client: AsyncTestClient[Litestar], tenant: Tenant, settings: Settings
) -> None:
    assert (await submit(client, tenant, images(("a.png", png()), ("b.webp", webp())))).status_code == 200
    item = await only_item(client, tenant)
    export = f"/api/v1/projects/{tenant.project_id}/feedback/export"
    line = (await client.get(f"{export}?format=ndjson", headers=tenant.headers)).json()
    expected = [
        f"{settings.base_url}/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/attachments/{a['id']}"
        for a in item["attachments"]
    ]
    assert line["attachment_urls"] == expected and line["attachments"] == item["attachments"]
    csv_text = (await client.get(f"{export}?format=csv", headers=tenant.headers)).text
    assert expected[0] in csv_text and expected[1] in csv_text
    served = await client.get(expected[0].removeprefix(settings.base_url), headers=tenant.headers)
    assert served.status_code == 200 and served.headers["content-type"] == "image/png"


async def test_the_console_shows_thumbnails_and_the_full_image_to_members_only(
    client: AsyncTestClient[Litestar],
    console: Console,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    assert (await submit(client, tenant, images(("a.png", png())))).status_code == 200
    item = await only_item(client, tenant)
    await console.login(owner.email)
    page = await console.get(f"/projects/{tenant.project_id}/feedback/{item['id']}")
    assert page.status_code == 200
    image_url = (
        f"/projects/{tenant.project_id}/feedback/{item['id']}/attachments/{item['attachments'][0]['id']}"
    )
    assert f'<a href="{image_url}"' in page.text and f'<img src="{image_url}"' in page.text
    served = await console.get(image_url)
    assert served.status_code == 200 and served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in served.headers["content-security-policy"]
    await add_user(session_maker, other_tenant.org_id, "stranger@org-b.example", "owner")
    async with another_browser(app_run) as other_client:
        stranger = Console(other_client)
        await stranger.login("stranger@org-b.example")
        assert (await stranger.get(image_url)).status_code == 404
