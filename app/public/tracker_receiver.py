"""POST /api/v1/integrations/{tracker}/{integration_id}: the webhook deliveries of GitHub, Linear and
Jira Cloud.

No token, no Origin check and no per-address rate limit: trackers call from many addresses, and the
tracker's signature (`X-Hub-Signature-256`, `Linear-Signature` with a fresh `webhookTimestamp`,
`X-Hub-Signature`) is what authenticates a delivery (401 when it is missing or wrong, before anything is
read or changed). Every verified delivery is answered 200, acted on or not (a ping, another event, a
repeated delivery, an issue Hearken did not file), so the tracker does not retry it. The body is read raw
(the signature covers its bytes), so the nesting rule is applied here, as on every other route.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Router, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.secret_box import secret_box
from app.errors import error_responses
from app.integrations.tracker_integrations import RECEIVER_PATH, receive_tracker_event
from app.integrations.trackers import TRACKERS
from app.request_checks.nesting import refuse_deep_nesting
from app.schemas.integrations import TrackerName, TrackerReceipt


@post(
    RECEIVER_PATH.removeprefix("/api/v1").replace("}", ":str}"),
    status_code=200,
    summary="Receive a signed issue tracker webhook delivery (an issue closed or done resolves its "
    "feedback item, one reopened makes it Active again)",
    tags=["Integrations"],
    responses=error_responses(400, 401, 404, 413),
)
async def receive_tracker(
    request: Request[Any, Any, Any], tracker: TrackerName, integration_id: str, db_session: AsyncSession
) -> TrackerReceipt:
    """Verified by the tracker's signature; answered 200 to every verified delivery."""
    body = await request.body()
    refuse_deep_nesting(body)
    changed = await receive_tracker_event(
        db_session,
        secret_box(request.app.state.settings.secret_key),
        TRACKERS[tracker],
        integration_id,
        body,
        request.headers,
    )
    return TrackerReceipt(received=True, changed=changed)


tracker_receiver_router = Router(path="/api/v1", route_handlers=[receive_tracker], security=[])
