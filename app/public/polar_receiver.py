"""POST /api/v1/integrations/polar/{integration_id}: Polar's webhook deliveries.

Like Stripe's receiver: no token, no Origin check and no per-address rate limit (Polar calls from many
addresses; the Standard Webhooks signature authenticates a delivery), 200 to every verified delivery,
stored or not, so Polar does not retry events Hearken has no use for, and the nesting rule applied to
the raw body (the signature covers its bytes).
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.secret_box import secret_box
from app.errors import error_responses
from app.integrations.polar_integrations import RECEIVER_PATH, receive_polar_event
from app.request_checks.nesting import refuse_deep_nesting
from app.schemas.integrations import StripeReceipt


@post(
    RECEIVER_PATH.removeprefix("/api/v1").replace("}", ":str}"),
    status_code=200,
    summary="Receive a signed Polar event (cancellation feedback becomes a feedback item)",
    tags=["Integrations"],
    responses=error_responses(400, 404, 413),
)
async def receive_polar(
    request: Request[Any, Any, Any], integration_id: str, db_session: AsyncSession
) -> StripeReceipt:
    """Verified by the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
    `webhook-signature`); answered 200 to every verified event."""
    body = await request.body()
    refuse_deep_nesting(body)
    stored = await receive_polar_event(
        db_session,
        secret_box(request.app.state.settings.secret_key),
        integration_id,
        body,
        request.headers,
    )
    return StripeReceipt(received=True, stored=stored)


polar_receiver_router = Router(path="/api/v1", route_handlers=[receive_polar], security=[])
