"""The unauthenticated collection endpoints under /api/v1: no token, a project key, CORS and budgets."""

from __future__ import annotations

from litestar import Router

from app.json_bodies import TEXT_PLAIN_JSON
from app.public.cors import public_cors
from app.public.preflight import preflight
from app.public.submit import PublicSubmitController

public_router = Router(
    path="/api/v1",
    # The preflight first: a path registered without an OPTIONS handler gets Litestar's default one,
    # which would then shadow ours.
    route_handlers=[preflight, PublicSubmitController],
    middleware=[public_cors],
    security=[],
    opt={TEXT_PLAIN_JSON: True},
)
