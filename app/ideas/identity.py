"""Who a portal visitor is. Reading needs nobody; voting, suggesting and commenting need a person:

- identified by the customer's app with the project's identity secret: `?user=<id>&sig=<hex HMAC-SHA256
  of the id>` (the verified-user signature the widgets use; an optional `name` is shown, never trusted for
  mail), or a JWT signed HS256 with the same secret (`?token=`, or `Authorization: Bearer`), with claims
  `sub` (the user id), `exp` (required), and optional `email` and `name`; the two ways name the same
  person for the same user id;
- or, when the project's portal votes by email, someone who followed the confirmation link mailed to an
  address.

The portal remembers the person for the visit: a visit token (signed with a key derived from
HEARKEN_SECRET_KEY, for this project only, valid VISIT_HOURS) kept in a session cookie and repeated in
every form, where it also serves as the form's CSRF token: a form post counts only with it.
"""

from __future__ import annotations

import base64
import time
from typing import Any

import msgspec
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey

from app.config import Settings
from app.db.identity_secret import signature_matches
from app.db.models import Project
from app.ideas.people import Person
from app.notifications.signed_links import is_signed, signature

VISIT_PURPOSE = b"portal-visit"
CONFIRM_PURPOSE = b"portal-confirm"
VISIT_HOURS = 12
CONFIRM_DAYS = 7
COOKIE = "hearken_portal"
MAX_ID = 200


class Visit(msgspec.Struct, array_like=True):
    project: str
    key: str
    name: str
    email: str | None
    language: str
    expires: int


def user_from_signature(
    secret: str | None, user: str | None, sig: str | None, name: str = ""
) -> Person | None:
    """The person of a signed user id, or None when there is none or it does not match."""
    if not secret or not user or not sig or len(user) > MAX_ID:
        return None
    if not signature_matches(secret, user, sig.lower()):
        return None
    return Person.of_user(user, name=name)


def user_from_token(secret: str | None, token: str | None) -> Person | None:
    """The person of a JWT signed HS256 with the identity secret, or None: a wrong signature, another
    algorithm, no `sub`, no `exp` or an expired one are all refused."""
    if not secret or not token or len(token) > 4096:
        return None
    try:
        decoded = jwt.decode(token, OctKey.import_key(secret), algorithms=["HS256"])
        jwt.JWTClaimsRegistry(exp={"essential": True}, sub={"essential": True}).validate(decoded.claims)
    except (JoseError, ValueError, TypeError):
        return None
    claims: dict[str, Any] = decoded.claims
    sub, name, email = claims.get("sub"), claims.get("name"), claims.get("email")
    if not isinstance(sub, str) or not sub or len(sub) > MAX_ID:
        return None
    return Person.of_user(
        sub,
        name=name if isinstance(name, str) else "",
        email=email if isinstance(email, str) else None,
    )


def visit_token(settings: Settings, project: Project, person: Person) -> str:
    visit = Visit(
        str(project.id),
        person.key,
        person.name,
        person.email,
        person.language,
        int(time.time()) + VISIT_HOURS * 3600,
    )
    payload = base64.urlsafe_b64encode(msgspec.json.encode(visit)).rstrip(b"=").decode()
    return f"{payload}.{signature(settings, VISIT_PURPOSE, payload)}"


def person_of_visit(settings: Settings, project: Project, token: str | None) -> Person | None:
    """The person a visit token names for this project, while it lasts."""
    if not token or len(token) > 2048 or "." not in token:
        return None
    payload, _, given = token.rpartition(".")
    if not is_signed(settings, VISIT_PURPOSE, payload, given):
        return None
    try:
        visit = msgspec.json.decode(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)), type=Visit)
    except (ValueError, msgspec.DecodeError):
        return None
    if visit.project != str(project.id) or visit.expires < time.time():
        return None
    return Person(visit.key, visit.name, visit.email, visit.language)


def confirmation_token(settings: Settings, project: Project, address: str, language: str) -> str:
    expires = int(time.time()) + CONFIRM_DAYS * 86400
    encoded = base64.urlsafe_b64encode(address.lower().encode()).rstrip(b"=").decode()
    payload = f"{project.id.hex}.{encoded}.{language}.{expires}"
    return f"{payload}.{signature(settings, CONFIRM_PURPOSE, payload)}"


def person_of_confirmation(settings: Settings, project: Project, token: str) -> Person | None:
    """The person whose address a confirmation link proves, while it lasts (7 days)."""
    try:
        project_part, encoded, language, expires, given = token.split(".")
        address = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
        expired = int(expires) < time.time()
    except ValueError:
        return None
    payload = f"{project_part}.{encoded}.{language}.{expires}"
    if expired or project_part != project.id.hex or not is_signed(settings, CONFIRM_PURPOSE, payload, given):
        return None
    return Person.of_address(address, language)
