"""The door to ingest: one Ingest per worker process, which the public endpoints use for everything.

A rating submission is judged by the gate and stored by group commit in batches (intake.py); a feedback
item or contact message is judged alone and stored by its service. The CORS middleware and the preflight
ask here whether an origin may read an answer.
"""

from __future__ import annotations

from uuid import UUID

from litestar.types import Scope
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.cache_generation import CacheGeneration, generation_key
from app.db.identity_secret import identity_box
from app.db.redis_connection import RedisOutage, connect_redis
from app.errors import RateLimited
from app.ingest.batches import rating_batches
from app.ingest.budgets import CounterStore, MemoryCounters, RateLimiter, RedisCounters
from app.ingest.gate import PublicGate, Visit, record_origin_decision, recorded_origin_decision
from app.ingest.gated_batches import Admitted, BatchWrite, GatedBatches, P, R, Row
from app.ingest.group_commit import RatingGroupCommit
from app.ingest.image_budgets import ImageBudget, MemoryByteWindows, RedisByteWindows
from app.ingest.intake import RatingIntake
from app.ingest.origins import request_origin
from app.ingest.project_directory import ProjectDirectory, ProjectEntry
from app.ingest.rating_input import RatingInput
from app.ingest.rating_rows import NewRating


class Ingest:
    def __init__(
        self,
        gate: PublicGate,
        intake: RatingIntake,
        directory: ProjectDirectory,
        generation: CacheGeneration,
        counters: CounterStore,
        images: ImageBudget,
    ) -> None:
        self._gate = gate
        self._intake = intake
        self._directory = directory
        self._generation = generation
        self._counters = counters
        self._images = images

    async def submit_rating(
        self,
        scope: Scope,
        endpoint: str,
        project_key: UUID,
        rating: RatingInput,
        user_signature: str | None = None,
    ) -> NewRating:
        """The stored rating once its batch is committed; raises the gate's refusal (or 403 for a user
        the project does not accept unverified), or Unavailable."""
        return await self._intake.submit(
            self._gate.visit(scope, endpoint, project_key), rating, user_signature
        )

    def visit(self, scope: Scope, endpoint: str, project_key: UUID) -> Visit:
        """The request as the gate judges it."""
        return self._gate.visit(scope, endpoint, project_key)

    def gated_batches(
        self, admitted: Admitted[P, Row], write: BatchWrite[Row, R], *, max_batch: int, name: str
    ) -> GatedBatches[P, Row, R]:
        """Submissions of another kind (survey responses) judged by this gate and stored in batches as
        the ratings are; the caller closes them."""
        return GatedBatches(self._gate, admitted, write, max_batch=max_batch, name=name)

    async def admit(self, scope: Scope, endpoint: str, project_key: UUID) -> ProjectEntry:
        """The project a submission to `endpoint` may be stored in, or the gate's refusal raised."""
        return await self._gate.admit(self._gate.visit(scope, endpoint, project_key))

    async def spend_image_bytes(self, scope: Scope, project_key: UUID, stored_bytes: int) -> None:
        """Count the bytes of images this request stores against its client's budget in the project, or
        raise 429 naming `attachments` (nothing counted) when they would go over it."""
        visit = self._gate.visit(scope, "attachments", project_key)
        retry_after = await self._images.spend(project_key, self._gate.client_digest(visit), stored_bytes)
        if retry_after is not None:
            budget = self._images
            raise RateLimited(
                retry_after,
                f"attachments: the images sent from this address to this project would go over its "
                f"budget of {budget.limit_bytes / (1024 * 1024):g} MB per {_window(budget.seconds)}",
            )

    @property
    def generation(self) -> int | None:
        """The cache generation the gate judged the last request at: what per-worker caches of a
        project's public data (its active surveys) sync to after `admit`."""
        return self._directory.generation

    async def origin_may_read(self, scope: Scope, header: str) -> bool:
        """Whether the origin of this request (its Origin header as sent) may read the answer: as the gate
        or the preflight decided, else (a body refused with 400 or 413, say) if any project allows it, so
        that the widget can show the error."""
        decision = recorded_origin_decision(scope)
        if decision is None:
            return await self._any_project_allows(header)
        return decision

    async def preflight(self, scope: Scope, header: str | None) -> bool:
        """A preflight has no body and so no project: it is allowed for an origin any project allows."""
        allowed = header is not None and await self._any_project_allows(header)
        record_origin_decision(scope, allowed)
        return allowed

    async def close(self) -> None:
        """Answer what is queued, then close the writer's and the budgets' connections."""
        await self._intake.close()
        if isinstance(self._counters, RedisCounters):
            await self._counters.close()
        await self._images.close()

    async def _any_project_allows(self, header: str) -> bool:
        origin = request_origin(header)
        if origin is None:
            return False
        return await self._directory.any_project_allows(origin, await self._generation.current())


def build_ingest(
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    generation: CacheGeneration,
    redis_outage: RedisOutage | None = None,
) -> Ingest:
    counters: CounterStore = (
        # A connection of its own: the budget checks run one batch at a time, so they never wait for
        # one, and skip the pool's bookkeeping on every public request.
        RedisCounters(
            connect_redis(settings.redis_url, single_connection_client=True),
            settings.redis_prefix,
            generation_key(settings),
            redis_outage,
        )
        if settings.redis_url
        else MemoryCounters(generation)
    )
    limiter = RateLimiter(
        counters, settings.secret_key, settings.rate_limit_client, settings.rate_limit_project
    )
    directory = ProjectDirectory(session_maker, identity_box(settings.secret_key))
    gate = PublicGate(settings, directory, limiter)
    intake = RatingIntake(gate, RatingGroupCommit(rating_batches(settings)))
    windows = (
        RedisByteWindows(
            connect_redis(settings.redis_url), settings.redis_prefix, redis_outage or RedisOutage()
        )
        if settings.redis_url
        else MemoryByteWindows()
    )
    images = ImageBudget(windows, settings.attachment_client_bytes, settings.attachment_client_seconds)
    return Ingest(gate, intake, directory, generation, counters, images)


def _window(seconds: int) -> str:
    if seconds % 3600:
        return f"{seconds} seconds"
    hours = seconds // 3600
    return "hour" if hours == 1 else f"{hours} hours"
