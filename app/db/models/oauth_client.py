"""An OAuth client an AI assistant registered for itself (dynamic client registration). No secret is
stored: a confidential client's secret is derived from the server's key and the client id."""

from __future__ import annotations

from typing import Any

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

CLIENT_NAME_MAX_LENGTH = 100


class OAuthClient(UUIDv7AuditBase):
    __tablename__ = "oauth_clients"

    name: Mapped[str] = mapped_column(String(CLIENT_NAME_MAX_LENGTH))
    registration: Mapped[dict[str, Any]] = mapped_column(JsonB)
    """The client's metadata as registered (redirect URIs, grant types, authentication method)."""
