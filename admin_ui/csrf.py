"""CSRF protection for the console: a token bound to the session and masked anew in every response.

The cookie holds a random value and an HMAC over that value and the session id, so a cookie planted by
someone else (say from a sibling subdomain) or kept from before a sign-in is worth nothing in this
session; a GET then issues a fresh one. Pages carry the value XOR-ed with a new random mask each time,
so a compressed page that also reflects input never repeats the token's bytes (no BREACH), and the token
in a page never equals the cookie. Forms send it as `_csrf_token`, htmx as the `x-csrftoken` header.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from litestar.datastructures import Cookie, MutableScopeHeaders
from litestar.enums import RequestEncodingType, ScopeType
from litestar.exceptions import PermissionDeniedException
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from litestar.utils.scope.state import ScopeState

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORM_FIELD = "_csrf_token"
_VALUE_BYTES = 32


@dataclass(frozen=True)
class SessionCSRFConfig:
    secret: str
    cookie_name: str
    header_name: str
    session_cookie: str
    secure: bool


class SessionCSRFMiddleware:
    def __init__(self, app: ASGIApp, config: SessionCSRFConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        request = scope["litestar_app"].request_class(scope=scope, receive=receive)
        # bound to a session only when one is signed in: a stale or planted session cookie counts as none
        session_id = request.cookies.get(self.config.session_cookie, "") if scope.get("session") else ""
        value = self._cookie_value(request.cookies.get(self.config.cookie_name), session_id)
        state = ScopeState.from_scope(scope)
        if request.method in SAFE_METHODS:
            fresh = value is None
            value = value or secrets.token_hex(_VALUE_BYTES)
            state.csrf_token = mask(value)
            await self.app(scope, receive, self._issuing(send, value, session_id) if fresh else send)
            return
        sent = request.headers.get(self.config.header_name)
        if sent is None and request.content_type[0] in (
            RequestEncodingType.URL_ENCODED,
            RequestEncodingType.MULTI_PART,
        ):
            sent = (await request.form()).get(FORM_FIELD)
        if value is None or not isinstance(sent, str) or not hmac.compare_digest(unmask(sent), value):
            raise PermissionDeniedException("CSRF token verification failed")
        state.csrf_token = mask(value)
        await self.app(scope, receive, send)

    def _signature(self, value: str, session_id: str) -> str:
        message = f"{value}|{session_id}".encode()
        return hmac.new(self.config.secret.encode(), message, hashlib.sha256).hexdigest()

    def _cookie_value(self, cookie: str | None, session_id: str) -> str | None:
        """The cookie's random value when its signature matches this session, else None."""
        value, _, signature = (cookie or "").partition(".")
        if len(value) != 2 * _VALUE_BYTES or not hmac.compare_digest(
            signature, self._signature(value, session_id)
        ):
            return None
        return value

    def _issuing(self, send: Send, value: str, session_id: str) -> Send:
        cookie = Cookie(
            key=self.config.cookie_name,
            value=f"{value}.{self._signature(value, session_id)}",
            path="/",
            secure=self.config.secure,
            httponly=True,
            samesite="lax",
        )

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableScopeHeaders.from_message(message).add("set-cookie", cookie.to_header(header=""))
            await send(message)

        return send_with_cookie


def mask(value: str) -> str:
    """A fresh random mask followed by the value XOR-ed with it, both hex."""
    raw = bytes.fromhex(value)
    pad = secrets.token_bytes(len(raw))
    return pad.hex() + bytes(a ^ b for a, b in zip(pad, raw, strict=True)).hex()


def unmask(token: str) -> str:
    try:
        raw = bytes.fromhex(token)
    except ValueError:
        return ""
    half = len(raw) // 2
    if half != _VALUE_BYTES or len(raw) != 2 * half:
        return ""
    return bytes(a ^ b for a, b in zip(raw[:half], raw[half:], strict=True)).hex()
