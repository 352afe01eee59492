"""What an image costs a feedback submit: the same submit as JSON and as multipart with a 1 MB photo,
against one server (one worker), side by side; and the decode and re-encode alone, in this process.

The photo is a JPEG of about 1 MB (1600 x 1200, noisy enough that it does not compress away), as a
phone's picture scaled for the web would be. Latency is measured one request at a time; throughput with
a few clients at once, as many as the server has cores to decode with.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from io import BytesIO
from typing import Any

import httpx
from PIL import Image

from app.config import Settings
from app.db.config import build_db_config
from app.services.image_cleaning import cleaned
from tests import databases
from tests.bench import seed
from tests.bench.servers import start

REQUESTS = int(os.environ.get("BENCH_IMAGE_REQUESTS", "40"))
CLIENTS = 2


def photo(target_bytes: int = 1_000_000) -> bytes:
    """A JPEG of about `target_bytes`: grain over a gradient, like a photo, at the quality that fits."""
    width, height = 1600, 1200
    grain = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))
    image = Image.blend(Image.linear_gradient("L").convert("RGB").resize((width, height)), grain, 0.35)
    for quality in range(95, 20, -5):
        out = BytesIO()
        image.save(out, "JPEG", quality=quality)
        if out.tell() <= target_bytes:
            return out.getvalue()
    return out.getvalue()


def _submit(client: httpx.Client, url: str, key: str, image: bytes | None) -> float:
    fields = {"project_key": key, "message": "The chart is cut off", "type": "Bug"}
    headers = {"Origin": seed.ORIGIN}
    started = time.perf_counter()
    if image is None:
        response = client.post(url, json=fields, headers=headers)
    else:
        response = client.post(
            url, data=fields, files={"attachments": ("photo.jpg", image, "image/jpeg")}, headers=headers
        )
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise SystemExit(f"feedback submit failed: {response.status_code} {response.text}")
    return elapsed


def _latencies(url: str, key: str, image: bytes | None, count: int) -> list[float]:
    with httpx.Client(timeout=30) as client:
        _submit(client, url, key, image)  # warm-up
        return [_submit(client, url, key, image) for _ in range(count)]


async def _throughput(url: str, key: str, image: bytes | None, count: int) -> float:
    started = time.perf_counter()
    await asyncio.gather(
        *(asyncio.to_thread(_latencies, url, key, image, count // CLIENTS) for _ in range(CLIENTS))
    )
    return (count // CLIENTS * CLIENTS) / (time.perf_counter() - started)


def images_part(
    record: Callable[..., None], app_env: Callable[[str, bool], dict[str, str]]
) -> dict[str, Any]:
    image = photo()
    decode = [0.0] * 5
    for i in range(len(decode)):
        started = time.process_time()
        stored = cleaned(image)
        decode[i] = time.process_time() - started
    print(f"Feedback submit with a {len(image) / 1e6:.2f} MB image (PostgreSQL, 1 worker)", flush=True)
    url = databases.postgres_create()
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    try:
        _, (project, *_) = asyncio.run(seed.tenant(config.create_session_maker()))
        server = start("app.main:create_app", workers=1, env=app_env(url, True))
        try:
            target = server.url + "/api/v1/feedback/submit"
            key = str(project.key)
            plain = _latencies(target, key, None, REQUESTS)
            with_image = _latencies(target, key, image, REQUESTS)
            plain_rps = asyncio.run(_throughput(target, key, None, REQUESTS))
            image_rps = asyncio.run(_throughput(target, key, image, REQUESTS))
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)
    figures = {
        "image_bytes": len(image),
        "stored_bytes": len(stored.data),
        "decode_encode_cpu_ms": round(statistics.median(decode) * 1000, 1),
        "json_p50_ms": round(statistics.median(plain) * 1000, 1),
        "image_p50_ms": round(statistics.median(with_image) * 1000, 1),
        "image_p95_ms": round(statistics.quantiles(with_image, n=20)[-1] * 1000, 1),
        "json_rps": round(plain_rps, 1),
        "image_rps": round(image_rps, 1),
    }
    record(
        f"feedback submit, JSON / with a {len(image) / 1e6:.1f} MB JPEG (p50, one at a time)",
        f"{figures['json_p50_ms']} / {figures['image_p50_ms']} ms (image p95 {figures['image_p95_ms']} ms)",
    )
    record(
        f"feedback submits per second, JSON / with the image ({CLIENTS} clients)",
        f"{figures['json_rps']:,} / {figures['image_rps']:,}",
    )
    record(
        "decode and re-encode of that image alone (CPU, median of 5)",
        f"{figures['decode_encode_cpu_ms']} ms, stored as {figures['stored_bytes'] / 1e6:.2f} MB",
    )
    return figures
