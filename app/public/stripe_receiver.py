"""POST /api/v1/integrations/stripe/{integration_id}: Stripe's webhook deliveries.

No token, no Origin check and no per-address rate limit: Stripe calls from many addresses, and the
signature is what authenticates a delivery. Answers 200 to every verified delivery, stored or not,
so Stripe does not retry events Hearken has no use for. The body is read raw (the signature covers its
bytes), so the request checks' nesting rule is applied here: a body nested too deep is 400, as on every
other route. NUL characters are stripped from what the import keeps (app.integrations.imported_fields).
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.secret_box import secret_box
from app.errors import error_responses
from app.integrations.stripe_integrations import RECEIVER_PATH, receive_stripe_event
from app.request_checks.nesting import refuse_deep_nesting
from app.schemas.integrations import StripeReceipt


@post(
    RECEIVER_PATH.removeprefix("/api/v1").replace("}", ":str}"),
    status_code=200,
    summary="Receive a signed Stripe event (cancellation feedback becomes a feedback item)",
    tags=["Integrations"],
    responses=error_responses(400, 404, 413),
)
async def receive_stripe(
    request: Request[Any, Any, Any], integration_id: str, db_session: AsyncSession
) -> StripeReceipt:
    """Verified by the Stripe-Signature header; answered 200 to every verified event."""
    body = await request.body()
    refuse_deep_nesting(body)
    stored = await receive_stripe_event(
        db_session,
        secret_box(request.app.state.settings.secret_key),
        integration_id,
        body,
        request.headers.get("stripe-signature"),
    )
    return StripeReceipt(received=True, stored=stored)


stripe_receiver_router = Router(path="/api/v1", route_handlers=[receive_stripe], security=[])
