"""A person of the customer's app, identified with the project's identity secret in one of two ways:

- `user` and `sig`: the user id and the lower-case hex HMAC-SHA256 of it keyed by the secret, the same
  signature the widgets send as `user_signature`;
- `token`: a JSON Web Token signed HS256 with the secret, with the claims `sub` (the user id), `exp`
  (required: a token never lasts for ever), and optionally `email` and `name`.

Anything else, or no identity at all, is refused with 401 naming the parameter at fault."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import jwt

from app.db.identity_secret import signature_matches
from app.errors import Unauthorized

USER_ID = re.compile(r"^[\w-]{1,255}$", re.ASCII)
"""The rule of `submitted_by`, which a person's id must follow to match what they submitted."""
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}$")
LEEWAY_SECONDS = 30
"""Clock difference allowed between the customer's backend and this server when reading `exp`."""


@dataclass(frozen=True)
class IdentifiedPerson:
    id: str
    email: str | None = None
    name: str | None = None


def identify_person(
    secret: str | None, *, user: str | None, sig: str | None, token: str | None
) -> IdentifiedPerson:
    """The person the query (or the Bearer token passed as `token`) identifies, or Unauthorized raised."""
    if not token and not (user and sig):
        raise Unauthorized("token: identify the person with user and sig, or with token")
    if secret is None:
        raise Unauthorized("token: this project has no identity secret, so it identifies nobody")
    if token:
        return _from_token(secret, token)
    assert user is not None and sig is not None
    if not USER_ID.match(user) or not signature_matches(secret, user, sig.lower()):
        raise Unauthorized("sig: does not match user under the project's identity secret")
    return IdentifiedPerson(id=user)


def _from_token(secret: str, token: str) -> IdentifiedPerson:
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            options={"require": ["sub", "exp"]},
            leeway=LEEWAY_SECONDS,
        )
    except jwt.ExpiredSignatureError:
        raise Unauthorized("token: has expired") from None
    except jwt.InvalidTokenError:
        raise Unauthorized("token: not a JWT signed HS256 with the project's identity secret") from None
    subject = claims.get("sub")
    if not isinstance(subject, str) or not USER_ID.match(subject):
        raise Unauthorized("token: sub must be a user id of letters, digits, _ and -, at most 255")
    email = claims.get("email")
    name = claims.get("name")
    return IdentifiedPerson(
        id=subject,
        email=email if isinstance(email, str) and EMAIL.match(email) else None,
        name=name[:200] if isinstance(name, str) and name.strip() else None,
    )


def person_token(
    secret: str, user_id: str, *, email: str | None = None, name: str | None = None, lifetime: int = 3600
) -> str:
    """A token as the customer's backend would make it (for the tests and the demo)."""
    claims: dict[str, object] = {"sub": user_id, "exp": int(time.time()) + lifetime}
    if email is not None:
        claims["email"] = email
    if name is not None:
        claims["name"] = name
    return jwt.encode(claims, secret, algorithm="HS256")
