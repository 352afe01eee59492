"""A real OpenID Connect provider for the single sign-on tests: tests/oidc_provider/provider.mjs (panva's
certified oidc-provider, installed by `make setup`) run by Node on 127.0.0.1, and a person's browser
going through it with httpx. The provider signs in the address it is given as login_hint at once."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import httpx

from tests.browser.harness import REPO_ROOT
from tests.local_http import local_http

FOLDER = REPO_ROOT / "tests" / "oidc_provider"
CLIENT_ID = "hearken-console"
CLIENT_SECRET = "a client secret for the tests only"


@dataclass
class IdentityProvider:
    issuer: str

    def rotate_keys(self) -> str:
        """A new signing key (new kid) replaces the old one; the new kid."""
        kid: str = local_http.post(f"{self.issuer}/test/rotate").json()["kid"]
        return kid

    def tamper_next_token(self, *, claims: dict[str, Any] | None = None, unknown_key: bool = False) -> None:
        """The next ID token is signed again with these claims changed (by the provider's own key, or by
        a key it never published)."""
        local_http.post(
            f"{self.issuer}/test/tamper", json={"claims": claims or {}, "unknown_key": unknown_key}
        )

    async def redirect_back(self, authorization_url: str, redirect_uri: str) -> str:
        """Follow the provider's pages as a browser would until it sends the browser back to
        `redirect_uri`: that URL, with the code and state."""
        url = authorization_url
        async with httpx.AsyncClient(timeout=10) as browser:
            for _ in range(10):
                if url.startswith(redirect_uri):
                    return url
                answer = await browser.get(url)
                assert answer.is_redirect, f"{answer.status_code} from the provider: {answer.text[:300]}"
                url = urljoin(url, answer.headers["location"])
        raise AssertionError("the provider never sent the browser back")


@contextmanager
def running_provider(*redirect_uris: str) -> Iterator[IdentityProvider]:
    if not (FOLDER / "node_modules" / "oidc-provider").is_dir():
        raise RuntimeError("the test provider is not installed: run make setup")
    env = {
        **os.environ,
        "CLIENT_ID": CLIENT_ID,
        "CLIENT_SECRET": CLIENT_SECRET,
        "REDIRECT_URIS": ",".join(redirect_uris),
        "NODE_NO_WARNINGS": "1",
    }
    process = subprocess.Popen(
        ["node", "provider.mjs"],
        cwd=FOLDER,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("listening "):
                yield IdentityProvider(f"http://127.0.0.1:{int(line.split()[1])}")
                return
        raise RuntimeError("the test provider did not start")
    finally:
        process.terminate()
        process.wait(timeout=10)
