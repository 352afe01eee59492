"""Queueing a mail: an outbox job and its message, added to the caller's transaction (nothing is sent
before it commits, nothing is lost after). The message is composed now, in the recipient's language,
and kept encrypted until it is sent."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import msgspec
from sqlalchemy import CompoundSelect, Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import OutboundEmail, OutboxJob
from app.db.secret_box import SecretBox, secret_box
from app.mail.compose import ComposedMail, Mail, compose
from app.outbox import enqueue
from app.outbox.queue import new_job

MAIL_JOB = "email"
"""The outbox kind of mail."""
SEAL_PURPOSE = b"hearken outbound mail v1"


def mail_box(secret_key: str) -> SecretBox:
    return secret_box(secret_key, SEAL_PURPOSE)


def seal_mail(secret_key: str, mail: Mail) -> str:
    """The composed message, encrypted: the work of queueing a mail, before anything is stored."""
    return mail_box(secret_key).seal(msgspec.json.encode(compose(mail)).decode())


def open_mail(secret_key: str, sealed: str) -> ComposedMail | None:
    plain = mail_box(secret_key).open(sealed)
    return None if plain is None else msgspec.json.decode(plain, type=ComposedMail)


def queue_mail(session: AsyncSession, secret_key: str, mail: Mail) -> OutboundEmail:
    return queue_sealed(session, mail, seal_mail(secret_key, mail))


def queue_sealed(session: AsyncSession, mail: Mail, sealed: str) -> OutboundEmail:
    job = enqueue(session, MAIL_JOB)
    record = _record(job, mail, sealed)
    session.add(record)
    return record


def mail_rows(secret_key: str, mail: Mail) -> tuple[OutboxJob, OutboundEmail]:
    """The rows of a queued mail, for a caller that adds them itself (an outbox handler's records)."""
    job = new_job(MAIL_JOB)
    return job, _record(job, mail, seal_mail(secret_key, mail))


def _record(job: OutboxJob, mail: Mail, sealed: str) -> OutboundEmail:
    return OutboundEmail(
        id=job.id, recipient=mail.recipient, kind=mail.kind, sealed_message=sealed, about_id=mail.about,
        created_at=job.created_at, updated_at=job.created_at,
    )  # fmt: skip


def mail_about(about: Sequence[UUID] | CompoundSelect) -> Select[tuple[UUID]]:
    """The ids of every mail (and its job) about these feedback items, contact messages or alerts (ids,
    or a statement that selects them)."""
    return select(OutboundEmail.id).where(OutboundEmail.about_id.in_(about))
