"""Headers on every console response, error pages and redirects included: a strict CSP (no inline script
or style, nothing from another origin), no framing, and no caching of pages that may show a secret once.

Normal answers get them after the handler; the console's exception handlers add them to the pages they
build, since an error raised in a middleware (CSRF, sign-in) never reaches the after-request hook."""

from __future__ import annotations

from typing import Any

from litestar import Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)

CONSOLE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def with_console_headers(response: Response[Any]) -> Response[Any]:
    for name, value in CONSOLE_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


async def add_security_headers(response: Response[Any]) -> Response[Any]:
    return with_console_headers(response)
