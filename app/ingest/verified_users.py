"""Whether a submission's `submitted_by` is the user the site's backend signed it for.

A project with an identity secret marks a submission verified when its `user_signature` matches; one
set to accept only verified users refuses (403) a named user without a matching signature. Anonymous
submissions are judged by nothing here: they stay welcome. The feedback and contact submits also take
the person as a JWT (`user_token`, the widget's setUserToken), read as the conversation API reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.identity_secret import signature_matches
from app.errors import Forbidden, InvalidRequest, Unauthorized
from app.identity.person_tokens import IdentifiedPerson, identify_person
from app.ingest.project_directory import ProjectEntry


def user_verdict(project: ProjectEntry, submitted_by: str | None, signature: str | None) -> bool | Forbidden:
    """True for a verified user, False for an unverified one the project accepts, or the refusal,
    returned rather than raised (see PublicGate._judge: refusals kept in a batch)."""
    if submitted_by is None:
        return False
    secret = project.identity_secret
    verified = (
        secret is not None and signature is not None and signature_matches(secret, submitted_by, signature)
    )
    if verified or not project.require_verified_users:
        return verified
    if signature is None:
        return Forbidden("user_signature: this project accepts only verified users; sign submitted_by")
    return Forbidden("user_signature: does not match submitted_by under the project's identity secret")


def verified_user(project: ProjectEntry, submitted_by: str | None, signature: str | None) -> bool:
    """Whether the user is verified, or the refusal raised."""
    verdict = user_verdict(project, submitted_by, signature)
    if isinstance(verdict, Forbidden):
        raise verdict
    return verdict


@dataclass(frozen=True, slots=True)
class Submitter:
    """Who sent a feedback item or contact message, as stored with it."""

    submitted_by: str | None
    verified: bool
    person: IdentifiedPerson | None = None
    """The person a valid `user_token` named (with the address and name its claims carry)."""


def submitter(
    project: ProjectEntry, submitted_by: str | None, signature: str | None, token: str | None
) -> Submitter:
    """The submitter, or the refusal raised. A `user_token` that verifies under the project's identity
    secret makes its `sub` the verified submitter (a different `submitted_by` beside it is refused); one
    that does not verify identifies nobody, like a wrong signature, and a project that accepts only
    verified users refuses it."""
    if token is None:
        return Submitter(submitted_by, verified_user(project, submitted_by, signature))
    try:
        person = identify_person(project.identity_secret, user=None, sig=None, token=token)
    except Unauthorized as refused:
        if project.require_verified_users:
            raise Forbidden(f"user_{refused.details}") from None
        return Submitter(submitted_by, verified_user(project, submitted_by, signature))
    if submitted_by is not None and submitted_by != person.id:
        raise InvalidRequest("submitted_by", "differs from the sub of user_token")
    return Submitter(person.id, True, person)
