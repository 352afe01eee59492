"""How a console session was signed in, kept in the session beside the user and organization it names:
which organizations it counts for is decided from it (tenants/sign_in_reach.py), for the console's own
pages and for the organizations an assistant may be connected to."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request

from tenants.sign_in_reach import SignIn

SIGN_IN = "sign_in"


def session_entry(how: SignIn) -> dict[str, Any]:
    return {
        "only_org_id": None if how.only_org_id is None else str(how.only_org_id),
        "second_factor": how.second_factor,
    }


def recorded_sign_in(data: dict[str, Any], org_id: UUID) -> SignIn:
    """A session signed in before sign-ins were recorded counts for its own organization only."""
    entry = data.get(SIGN_IN)
    if not isinstance(entry, dict):
        return SignIn(only_org_id=org_id)
    try:
        only = UUID(entry["only_org_id"]) if entry.get("only_org_id") else None
    except (TypeError, ValueError):
        return SignIn(only_org_id=org_id)
    return SignIn(only_org_id=only, second_factor=entry.get("second_factor") is True)


def note_second_factor(request: Request[Any, Any, Any]) -> None:
    """A factor set up in this session was just proven (a code from the new authenticator, a new passkey
    verifying its user): the session now holds a second factor."""
    entry = request.session.get(SIGN_IN)
    if isinstance(entry, dict):
        request.session[SIGN_IN] = {**entry, "second_factor": True}
