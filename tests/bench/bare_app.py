"""The yardstick: a bare Litestar endpoint that decodes the rating JSON and answers 204, nothing else."""

from __future__ import annotations

from litestar import Litestar, post

from app.schemas.rating_requests import PublicHelpfulRatingBody


@post("/api/v1/rating/submit", status_code=204)
async def submit(data: PublicHelpfulRatingBody) -> None:
    return None


def create_app() -> Litestar:
    return Litestar(route_handlers=[submit])
