"""Whether a submission's `submitted_by` is the user the site's backend signed it for.

A project with an identity secret marks a submission verified when its `user_signature` matches; one
set to accept only verified users refuses (403) a named user without a matching signature. Anonymous
submissions are judged by nothing here: they stay welcome.
"""

from __future__ import annotations

from app.db.identity_secret import signature_matches
from app.errors import Forbidden
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
