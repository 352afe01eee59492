"""A sign-in halfway: the password was right, and the account has a second factor still to give. The
session then names the user only as pending (no page of the console opens for it) for ten minutes, under
a fresh session id; the second step (`admin_ui/controllers/second_step.py`) finishes the sign-in."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Request

from admin_ui.sessions import ROTATE

SECOND_STEP = "/login/second-step"
PENDING = "second_step"
LIFETIME_SECONDS = 10 * 60


@dataclass(frozen=True)
class PendingSignIn:
    user_id: UUID
    org_id: UUID
    next: str


def begin_second_step(request: Request[Any, Any, Any], user_id: UUID, org_id: UUID, next_path: str) -> None:
    until = time.time() + LIFETIME_SECONDS
    pending = {"user_id": str(user_id), "org_id": str(org_id), "next": next_path, "until": until}
    request.set_session({PENDING: pending, ROTATE: True})


def pending_sign_in(request: Request[Any, Any, Any]) -> PendingSignIn | None:
    """The sign-in waiting for its second step, unless there is none or it is too old."""
    session = request.scope.get("session")
    pending = session.get(PENDING) if isinstance(session, dict) else None
    try:
        if pending["until"] < time.time():  # type: ignore[index]
            return None
        return PendingSignIn(UUID(pending["user_id"]), UUID(pending["org_id"]), str(pending["next"]))  # type: ignore[index]
    except (KeyError, TypeError, ValueError):
        return None
