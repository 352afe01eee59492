"""Request and response bodies of a project's integrations (Stripe, Mintlify). Credentials go in,
never out."""

from __future__ import annotations

from typing import Annotated

import msgspec

from app.db.models import MintlifyIntegration, StripeIntegration
from app.timestamps import iso_z

SigningSecret = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^whsec_[A-Za-z0-9+/=_-]+$",
        max_length=255,
        description="The endpoint's signing secret from Stripe's dashboard: whsec_ followed by its key.",
    ),
]
MintlifyProjectId = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Za-z0-9_-]+$",
        max_length=200,
        description="The Mintlify project id from the API keys page of Mintlify's dashboard.",
    ),
]
MintlifyApiKey = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[!-~]+$",
        max_length=500,
        description="A Mintlify admin API key (it begins with mint_): printable ASCII, sent as a header.",
    ),
]


class StripeIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    signing_secret: SigningSecret


class StripeIntegrationOut(msgspec.Struct):
    enabled: bool
    webhook_url: str
    created_at: str

    @classmethod
    def of(cls, integration: StripeIntegration, webhook_url: str) -> StripeIntegrationOut:
        return cls(enabled=True, webhook_url=webhook_url, created_at=iso_z(integration.created_at))


class MintlifyIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    project_id: MintlifyProjectId
    api_key: MintlifyApiKey


class MintlifyIntegrationOut(msgspec.Struct):
    """`last_synced_at` is the last successful import; `last_error` what went wrong since, in words."""

    enabled: bool
    project_id: str
    last_synced_at: str | None
    last_error: str | None
    imported: int

    @classmethod
    def of(cls, integration: MintlifyIntegration) -> MintlifyIntegrationOut:
        synced = integration.last_synced_at
        return cls(
            enabled=True,
            project_id=integration.mintlify_project_id,
            last_synced_at=None if synced is None else iso_z(synced),
            last_error=integration.last_error,
            imported=integration.imported,
        )


class MintlifySyncOut(msgspec.Struct):
    imported: int


class StripeReceipt(msgspec.Struct):
    """`stored`: whether this delivery created a feedback item (a repeat or another event does not)."""

    received: bool
    stored: bool
