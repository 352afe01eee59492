"""Members of the organization as the API lists them."""

from __future__ import annotations

import msgspec


class MemberOut(msgspec.Struct):
    user_id: str
    email: str
    role: str
    joined_at: str


class MemberList(msgspec.Struct):
    members: list[MemberOut]
