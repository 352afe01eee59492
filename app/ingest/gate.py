"""What every public submission passes before it is stored, in the order the client sees the answers:
project (404), origin (403), budget (429). Body validation (400) happened before, while decoding.

Every well-formed request counts against the budgets of the key it names, including those then refused
with 404, 403 or 429: the count is taken in the same round trip that reads the cache generation, and a
client that keeps sending refused requests is the one a budget is for.

The origin decision is recorded in the request's scope, where the CORS middleware reads it: the answer
is readable by the origin exactly when the project allows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import msgspec
from litestar.types import Scope

from app.config import Settings
from app.errors import ApiError, NotFound, OriginNotAllowed, RateLimited
from app.ingest.budgets import RateLimiter, Verdict
from app.ingest.client_address import client_address
from app.ingest.project_directory import ProjectDirectory, ProjectEntry
from app.ingest.scope_headers import first_header
from app.services.origins import origin_allowed, request_origin

_ORIGIN_DECISION = "hearken.cors_allowed"


def record_origin_decision(scope: Scope, allowed: bool) -> None:
    scope[_ORIGIN_DECISION] = allowed  # type: ignore[literal-required]


def recorded_origin_decision(scope: Scope) -> bool | None:
    """Whether the request's origin may read the answer, if the gate or the preflight decided it."""
    return scope.get(_ORIGIN_DECISION)  # type: ignore[return-value]


class Visit(msgspec.Struct, frozen=True):
    """One public request, as the gate judges it (a Struct: built per request, see RatingInput)."""

    scope: Scope
    endpoint: str
    project_key: UUID
    address: str
    origin: str | None
    """The Origin header as sent, if any."""


class PublicGate:
    def __init__(self, settings: Settings, directory: ProjectDirectory, limiter: RateLimiter) -> None:
        self._trusted_proxies = settings.trusted_proxies
        self._directory = directory
        self._limiter = limiter

    def visit(self, scope: Scope, endpoint: str, project_key: UUID) -> Visit:
        address = client_address(scope, self._trusted_proxies)
        origin = first_header(scope, b"origin")
        return Visit(scope, endpoint, project_key, address, origin)

    async def admit(self, visit: Visit) -> ProjectEntry:
        """The visit's project, or the refusal raised."""
        verdict = await self._limiter.hit(visit.endpoint, visit.project_key, visit.address)
        project = await self._directory.lookup(visit.project_key, verdict.generation)
        outcome = self._judge(visit, verdict, project)
        if isinstance(outcome, ProjectEntry):
            return outcome
        try:
            raise outcome
        finally:
            del outcome  # else this frame, kept by the traceback, holds its own exception: a cycle

    async def admit_many(self, visits: Sequence[Visit]) -> list[ProjectEntry | BaseException]:
        """Each visit's project or refusal: the budgets of all of them are counted in one call."""
        verdicts = await self._limiter.hit_many([(v.endpoint, v.project_key, v.address) for v in visits])
        outcomes: list[ProjectEntry | BaseException] = []
        for visit, verdict in zip(visits, verdicts, strict=True):
            if isinstance(verdict, BaseException):
                outcomes.append(verdict)
                continue
            try:
                project = await self._directory.lookup(visit.project_key, verdict.generation)
            except Exception as failure:  # the database is down, say: rare, so its traceback is kept
                outcomes.append(failure)
                continue
            outcomes.append(self._judge(visit, verdict, project))
        return outcomes

    @staticmethod
    def _judge(visit: Visit, verdict: Verdict, project: ProjectEntry | None) -> ProjectEntry | ApiError:
        """The project, or the refusal, returned rather than raised: a refusal raised here and kept in a
        batch's results would hold this frame and its batch in a reference cycle, and a flood of refused
        requests (a client over its budget) would then cost twice the CPU of stored ones, in the GC."""
        if project is None:
            return NotFound("project_key: no project has this key")
        if visit.origin is not None:
            origin = request_origin(visit.origin)
            allowed = origin is not None and origin_allowed(origin, project.allowed_origins)
            record_origin_decision(visit.scope, allowed)
            if not allowed:
                return OriginNotAllowed(
                    f"Origin: {visit.origin:.100} is not in this project's allowed_origins"
                )
        if verdict.retry_after is not None:
            return RateLimited(verdict.retry_after)
        return project
