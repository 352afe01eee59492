"""POST /api/v1/integrations/github/{integration_id}: GitHub's webhook deliveries.

No token, no Origin check and no per-address rate limit: GitHub calls from many addresses, and the
`X-Hub-Signature-256` signature is what authenticates a delivery (401 when it is missing or wrong,
before anything is read or changed). Every verified delivery is answered 200, acted on or not (a ping,
another event, a repeated delivery id, an issue Hearken did not file), so GitHub does not retry it. The
body is read raw (the signature covers its bytes), so the nesting rule is applied here, as on every other
route.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.secret_box import secret_box
from app.errors import error_responses
from app.integrations.github_integrations import RECEIVER_PATH, receive_github_event
from app.request_checks.nesting import refuse_deep_nesting
from app.schemas.integrations import TrackerReceipt


@post(
    RECEIVER_PATH.removeprefix("/api/v1").replace("}", ":str}"),
    status_code=200,
    summary="Receive a signed GitHub webhook delivery (a closed issue resolves its feedback item, a "
    "reopened one makes it Active again)",
    tags=["Integrations"],
    responses=error_responses(400, 401, 404, 413),
)
async def receive_github(
    request: Request[Any, Any, Any], integration_id: str, db_session: AsyncSession
) -> TrackerReceipt:
    """Verified by the X-Hub-Signature-256 header; answered 200 to every verified delivery."""
    body = await request.body()
    refuse_deep_nesting(body)
    changed = await receive_github_event(
        db_session,
        secret_box(request.app.state.settings.secret_key),
        integration_id,
        body,
        event=request.headers.get("x-github-event"),
        delivery=request.headers.get("x-github-delivery"),
        signature=request.headers.get("x-hub-signature-256"),
    )
    return TrackerReceipt(received=True, changed=changed)


github_receiver_router = Router(path="/api/v1", route_handlers=[receive_github], security=[])
