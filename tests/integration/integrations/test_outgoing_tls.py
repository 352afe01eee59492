"""Outgoing HTTPS calls share one TLS context per process and still verify as httpx would on its own:
a certificate nobody trusts is refused, one the operator trusts through SSL_CERT_FILE is accepted."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.integrations.github_api import check_repository
from app.integrations.tracker import TrackerError
from app.outgoing_tls import tls_context
from tests.fake_github import FakeGithub, running
from tests.mail_server import Certificate, self_signed_certificate

REPOSITORY, TOKEN = "acme/docs", "ghp_outgoing_tls"


@pytest.fixture
def certificate(tmp_path: Path) -> Certificate:
    return self_signed_certificate(tmp_path)


@pytest.fixture
def github(certificate: Certificate) -> Iterator[FakeGithub]:
    with running(FakeGithub(repository=REPOSITORY, token=TOKEN), tls=certificate.server_context()) as fake:
        yield fake


@pytest.fixture
def fresh_context() -> Iterator[None]:
    """The context is built once per process; these tests build it again for the environment they set."""
    tls_context.cache_clear()
    yield
    tls_context.cache_clear()


def test_one_verifying_context_per_process() -> None:
    context = tls_context()
    assert context is tls_context()
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


@pytest.mark.usefixtures("fresh_context")
async def test_a_certificate_nobody_trusts_is_refused(
    github: FakeGithub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with pytest.raises(TrackerError, match="could not be reached"):
        await check_repository(github.url, REPOSITORY, TOKEN)
    assert github.requests == []


@pytest.mark.usefixtures("fresh_context")
async def test_a_certificate_the_operator_trusts_is_accepted(
    github: FakeGithub, certificate: Certificate, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate.cert_file))
    await check_repository(github.url, REPOSITORY, TOKEN)
    assert [r["path"] for r in github.requests] == [f"/repos/{REPOSITORY}"]
