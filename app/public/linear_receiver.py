"""POST /api/v1/integrations/linear/{integration_id}: Linear's webhook deliveries.

No token, no Origin check and no per-address rate limit: the `Linear-Signature` signature and the body's
fresh `webhookTimestamp` authenticate a delivery (401 when either fails, before anything is changed).
Every verified delivery is answered 200, acted on or not (another resource, a repeated `Linear-Delivery`
id, an issue Hearken did not file), so Linear does not retry it. The body is read raw (the signature covers
its bytes), so the nesting rule is applied here, as on every other route.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.secret_box import secret_box
from app.errors import error_responses
from app.integrations.linear_integrations import RECEIVER_PATH, receive_linear_event
from app.request_checks.nesting import refuse_deep_nesting
from app.schemas.integrations import TrackerReceipt


@post(
    RECEIVER_PATH.removeprefix("/api/v1").replace("}", ":str}"),
    status_code=200,
    summary="Receive a signed Linear webhook delivery (an issue completed or canceled resolves its feedback "
    "item, one started again makes it Active)",
    tags=["Integrations"],
    responses=error_responses(400, 401, 404, 413),
)
async def receive_linear(
    request: Request[Any, Any, Any], integration_id: str, db_session: AsyncSession
) -> TrackerReceipt:
    """Verified by the Linear-Signature header and webhookTimestamp; answered 200 to every verified one."""
    body = await request.body()
    refuse_deep_nesting(body)
    changed = await receive_linear_event(
        db_session,
        secret_box(request.app.state.settings.secret_key),
        integration_id,
        body,
        delivery=request.headers.get("linear-delivery"),
        signature=request.headers.get("linear-signature"),
    )
    return TrackerReceipt(received=True, changed=changed)


linear_receiver_router = Router(path="/api/v1", route_handlers=[receive_linear], security=[])
