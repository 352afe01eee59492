"""The TLS context of every outgoing HTTPS call (GitHub, Linear, Mintlify, an OpenID provider, a remote
embedder): one per process.

httpx builds a fresh context for each client it makes and loads the whole CA bundle into it, about 25 ms
of CPU; these calls make a client each, so that cost came with every call. A context holds no connection
and belongs to no event loop, so clients on any loop may share it. It is built as httpx builds its own
(certifi's bundle, or SSL_CERT_FILE / SSL_CERT_DIR when set), once: a changed bundle needs a restart.
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def tls_context() -> ssl.SSLContext:
    """Verifying, as httpx's default; pass it as `verify=` to every outgoing client."""
    return httpx.create_ssl_context()
