"""What every public submission passes before it is stored, in the order the client sees the answers:
project (404), origin (403), budget (429). Body validation (400) happened before, while decoding.

Every well-formed request counts against the budgets of the key it names, including those then refused
with 404, 403 or 429: the count is taken in the same round trip that reads the cache generation, and a
client that keeps sending refused requests is the one a budget is for.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request

from app.config import Settings
from app.errors import NotFound, OriginNotAllowed, RateLimited
from app.public.client_address import client_address
from app.public.cors import record_decision
from app.public.project_directory import ProjectDirectory, ProjectEntry
from app.public.rate_limit import RateLimiter
from app.services.origins import origin_allowed, request_origin


class PublicGate:
    def __init__(self, settings: Settings, directory: ProjectDirectory, limiter: RateLimiter) -> None:
        self._trusted_proxies = settings.trusted_proxies
        self._directory = directory
        self._limiter = limiter

    async def admit(self, request: Request[Any, Any, Any], endpoint: str, project_key: UUID) -> ProjectEntry:
        address = client_address(request.scope, self._trusted_proxies)
        verdict = await self._limiter.hit(endpoint, project_key, address)
        project = await self._directory.lookup(project_key, verdict.generation)
        if project is None:
            raise NotFound("project_key: no project has this key")
        header = request.headers.get("origin")
        if header is not None:
            origin = request_origin(header)
            allowed = origin is not None and origin_allowed(origin, project.allowed_origins)
            record_decision(request.scope, allowed)
            if not allowed:
                raise OriginNotAllowed(f"Origin: {header:.100} is not in this project's allowed_origins")
        if verdict.retry_after is not None:
            raise RateLimited(verdict.retry_after)
        return project
