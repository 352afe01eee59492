"""What every public submission passes before it is stored, in the order the client sees the answers:
project (404), origin (403), budget (429). Body validation (400) happened before, while decoding.

Every well-formed request counts against its client's budget, including those then refused with 404, 403
or 429: a client that keeps sending refused requests is the one a budget is for. The project's budget
counts only what would be stored: requests within their client's budget, for a project that exists, from
an allowed origin. Otherwise one host could spend a tenant's whole budget with the key from its page.
So the project is looked up (from the cache, as it stood at the last request) before the budgets are
counted, in one round trip that also reads the cache generation; when that generation has moved, the
request is judged again on the fresh entry (its project count may then be off by one, once).

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
from app.ingest.client_addresses import client_address
from app.ingest.origins import origin_allowed, request_origin
from app.ingest.project_directory import ProjectDirectory, ProjectEntry
from app.ingest.scope_headers import first_header

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

    def client_digest(self, visit: Visit) -> str:
        """The keyed hash the budgets know the visit's client by."""
        return self._limiter.client_digest(visit.address)

    async def admit(self, visit: Visit) -> ProjectEntry:
        """The visit's project, or the refusal raised."""
        known = self._directory.generation
        project = await self._directory.lookup(visit.project_key, known)
        refusal = self._refusal(visit, project)
        verdict = await self._limiter.hit(
            visit.endpoint, visit.project_key, visit.address, spends_project=refusal is None
        )
        if verdict.generation != known:
            project = await self._directory.lookup(visit.project_key, verdict.generation)
            refusal = self._refusal(visit, project)
        outcome = self._judge(refusal, verdict, project)
        del refusal
        if isinstance(outcome, ProjectEntry):
            return outcome
        try:
            raise outcome
        finally:
            del outcome  # else this frame, kept by the traceback, holds its own exception: a cycle

    async def admit_many(self, visits: Sequence[Visit]) -> list[ProjectEntry | BaseException]:
        """Each visit's project or refusal: the budgets of all of them are counted in one call."""
        known = self._directory.generation
        found: list[ProjectEntry | BaseException | None] = []
        for visit in visits:
            try:
                found.append(await self._directory.lookup(visit.project_key, known))
            except Exception as failure:  # the database is down, say: rare, so its traceback is kept
                found.append(failure)
        refusals = [
            None if isinstance(project, BaseException) else self._refusal(visit, project)
            for visit, project in zip(visits, found, strict=True)
        ]
        verdicts = await self._limiter.hit_many(
            [
                (
                    v.endpoint,
                    v.project_key,
                    v.address,
                    refusal is None and not isinstance(project, BaseException),
                )
                for v, project, refusal in zip(visits, found, refusals, strict=True)
            ]
        )
        outcomes: list[ProjectEntry | BaseException] = []
        for visit, project, refusal, verdict in zip(visits, found, refusals, verdicts, strict=True):
            if isinstance(verdict, BaseException):
                outcomes.append(verdict)
                continue
            if isinstance(project, BaseException) or verdict.generation != known:
                try:
                    project = await self._directory.lookup(visit.project_key, verdict.generation)
                except Exception as failure:
                    outcomes.append(failure)
                    continue
                refusal = self._refusal(visit, project)
            outcomes.append(self._judge(refusal, verdict, project))
        return outcomes

    @staticmethod
    def _refusal(visit: Visit, project: ProjectEntry | None) -> ApiError | None:
        """404 or 403, whatever the budgets say; the origin decision is recorded for the CORS answer."""
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
        return None

    @staticmethod
    def _judge(
        refusal: ApiError | None, verdict: Verdict, project: ProjectEntry | None
    ) -> ProjectEntry | ApiError:
        """The project, or the refusal, returned rather than raised: a refusal raised here and kept in a
        batch's results would hold this frame and its batch in a reference cycle, and a flood of refused
        requests (a client over its budget) would then cost twice the CPU of stored ones, in the GC."""
        if refusal is not None:
            return refusal
        if verdict.retry_after is not None:
            return RateLimited(verdict.retry_after)
        assert project is not None
        return project
