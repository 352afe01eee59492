"""Driving the console in HTTP tests: a client that keeps its cookies, reads the CSRF token from the
pages it gets, and signs in like a person would; users arranged through the tenants services."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx
from httpx import Response
from litestar import Litestar
from litestar.stores.memory import MemoryStore
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.sessions import LOGIN_ATTEMPT_STORE, SESSION_STORE
from app.db.models import User
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tenants.members import Members
from tenants.passwords import hash_password
from tenants.scope import operator_scope

PASSWORD = "correct horse battery"
CSRF_FIELD = re.compile(r'name="_csrf_token" value="([^"]+)"')


def use_memory_stores(app: Litestar) -> None:
    """Sessions and login counters in memory, so tests leave nothing under var/."""
    app.stores.register(SESSION_STORE, MemoryStore(), allow_override=True)
    app.stores.register(LOGIN_ATTEMPT_STORE, MemoryStore(), allow_override=True)


async def add_user(
    session_maker: async_sessionmaker[AsyncSession], org_id: UUID, email: str, role: str
) -> User:
    async with unit_of_work(session_maker) as session:
        user = User(email=email, password_hash=await hash_password(PASSWORD), email_verified_at=utc_now())
        session.add(user)
        await session.commit()
        await Members(session, operator_scope(org_id)).add(user.id, role)
        return user


@dataclass
class Console:
    client: httpx.AsyncClient
    csrf: str = ""

    async def get(self, url: str, **kwargs: Any) -> Response:
        response = await self.client.get(url, **kwargs)
        if match := CSRF_FIELD.search(response.text):
            self.csrf = match.group(1)
        return response

    async def post(self, url: str, data: dict[str, Any] | None = None, **kwargs: Any) -> Response:
        if not self.csrf:
            await self.get("/login")
        response = await self.client.post(url, data={"_csrf_token": self.csrf, **(data or {})}, **kwargs)
        if match := CSRF_FIELD.search(response.text):
            self.csrf = match.group(1)
        return response

    async def htmx_post(self, url: str, data: dict[str, Any] | None = None) -> Response:
        """As htmx sends it: the token in the header named on <body hx-headers>."""
        if not self.csrf:
            await self.get("/login")
        return await self.client.post(
            url, data=data or {}, headers={"HX-Request": "true", "X-CSRFToken": self.csrf}
        )

    async def login(self, email: str, password: str = PASSWORD) -> Response:
        """Sign in and, like a browser, open the page the sign-in leads to (the CSRF token is bound to the
        session, so the one from the login page is no longer good)."""
        await self.get("/login")
        response = await self.post("/login", {"email": email, "password": password}, follow_redirects=False)
        if response.status_code == 303:
            await self.get(response.headers["location"])
        return response


@asynccontextmanager
async def another_browser(run: AsyncTestClient[Litestar]) -> AsyncIterator[AsyncTestClient[Litestar]]:
    """Another browser on the run of the application that `run` started: cookies of its own, its requests
    served by that run on its event loop (the run's portal). A second `async with AsyncTestClient(app)`
    would start the application again, which it refuses while it serves."""
    browser: AsyncTestClient[Litestar] = AsyncTestClient(app=run.app, base_url=str(run.base_url))
    browser.blocking_portal = run.blocking_portal
    try:
        yield browser
    finally:
        del browser.blocking_portal  # used after the block, it would start a run of its own per request


def errors_in(html: str) -> list[str]:
    """The messages shown beside fields or at the top of a form."""
    return re.findall(r'class="error[^"]*"[^>]*>([^<]+)<', html)


@asynccontextmanager
async def concurrent_clients(
    app: Litestar, count: int = 1, peer: str = "127.0.0.1"
) -> AsyncIterator[list[httpx.AsyncClient]]:
    """Clients (each with its own cookies) whose requests really run at the same time (the test client
    finishes one request before it starts the next), from the socket peer `peer`, with the application
    started in this event loop."""
    async with app.lifespan(), AsyncExitStack() as stack:
        clients = []
        for _ in range(count):
            transport = httpx.ASGITransport(app=app, client=(peer, 40000))
            client = httpx.AsyncClient(transport=transport, base_url="http://testserver.local")
            clients.append(await stack.enter_async_context(client))
        yield clients
