"""CPU time per outgoing HTTPS call: GitHub's repository check (what "Save" on the GitHub integration
and every filed issue make) against the local GitHub fake over TLS. The fake's certificate is trusted
through SSL_CERT_FILE, a copy of certifi's bundle (what production loads) with it added. Each call opens
its own client, as the integrations do. Run from the root of the checkout, alternating two checkouts for
a before/after: `.venv/bin/python -m tests.bench.outgoing_calls [calls]`."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import certifi

from app.integrations.github_api import check_repository
from tests.fake_github import FakeGithub, running
from tests.mail_server import self_signed_certificate

REPOSITORY, TOKEN, RUNS = "acme/docs", "ghp_bench", 5


async def cpu_per_call(url: str, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        await check_repository(url, REPOSITORY, TOKEN)
    return (time.process_time() - start) / calls


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as folder:
        certificate = self_signed_certificate(Path(folder))
        bundle = Path(folder) / "bundle.pem"
        bundle.write_text(Path(certifi.where()).read_text() + certificate.cert_file.read_text())
        os.environ["SSL_CERT_FILE"] = str(bundle)
        fake = FakeGithub(repository=REPOSITORY, token=TOKEN)
        with running(fake, tls=certificate.server_context()):
            asyncio.run(cpu_per_call(fake.url, 5))  # imports, first handshake
            runs = [asyncio.run(cpu_per_call(fake.url, calls)) for _ in range(RUNS)]
    figures = ", ".join(f"{run * 1000:.2f}" for run in runs)
    median = statistics.median(runs) * 1000
    print(f"CPU per GitHub call over HTTPS, {calls} calls x {RUNS} runs: median {median:.2f} ms ({figures})")
    print("(the process's CPU: the fake's side of each request and handshake is in it too)")


if __name__ == "__main__":
    main()
