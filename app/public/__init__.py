"""The unauthenticated collection endpoints under /api/v1: HTTP only (bodies, routes, CORS, preflight).
What happens to a submission (gate, budgets, storage) is behind app.ingest."""

from __future__ import annotations

from litestar import Router

from app.compression import SKIP_COMPRESSION
from app.public.conversations import PublicConversationController
from app.public.cors import public_cors
from app.public.preflight import preflight
from app.public.submit import PublicSubmitController
from app.public.surveys import PublicSurveyController
from app.request_checks import TEXT_PLAIN_JSON

public_router = Router(
    path="/api/v1",
    # The preflight first: a path registered without an OPTIONS handler gets Litestar's default one,
    # which would then shadow ours.
    route_handlers=[preflight, PublicSubmitController, PublicSurveyController, PublicConversationController],
    middleware=[public_cors],
    security=[],
    # The answers are a few bytes: compression would skip them anyway, after its bookkeeping.
    opt={TEXT_PLAIN_JSON: True, SKIP_COMPRESSION: True},
)
