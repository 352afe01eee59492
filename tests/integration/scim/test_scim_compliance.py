"""The python-scim project's compliance tester (`scim2-tester`) against a live `hearken run` server:
discovery, then creating, reading, querying, replacing, patching and deleting Users as the server's own
Schemas describe them.

The tester fills attributes with random values; Hearken creates users only at the organization's proven
domains, so the tester's User model gives it addresses there (each one new). Its Group checks create and
delete groups of random names, which Hearken refuses by design (the groups are the three roles):
Groups are checked by discovery here and by `test_scim_users.py`."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any
from uuid import uuid4

import httpx2
from pydantic import Field
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_models import (
    URN,
    ComplexAttribute,
    Group,
    GroupMembership,
    Mutability,
    Required,
    Resource,
    ScimProvider,
    Uniqueness,
)
from scim2_tester import check_server
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.scim.user_resources import USER_SCHEMA
from tests.factories import Tenant
from tests.integration.public.servers import server_env
from tests.integration.scim.conftest import scim_token
from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[3]


class NewAddresses(list[str]):
    """The tester picks a field's example with random.choice: each pick is a new address at the domain."""

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: object) -> str:  # type: ignore[override]
        return f"{uuid4().hex}@acme.example"


ADDRESSES = NewAddresses()
BY_DESIGN = {
    # A user is always active or not: removing `active` leaves it as it was (turning off is active false).
    "check_remove_attribute: PATCH modify() did not remove attribute 'active'",
    # The account's address is its sign-in: it can be moved (within the proven domains), never removed.
    "check_remove_attribute: Failed to remove attribute 'emails': "
    "emails: the account's address cannot be removed",
}
"""The tester's checks that Hearken answers otherwise on purpose, each with its reason."""


class AcmeName(ComplexAttribute):
    given_name: str | None = None
    family_name: str | None = None


class AcmeEmail(ComplexAttribute):
    """Hearken keeps one address, the account's: it answers it as the primary work address."""

    value: str | None = Field(None, examples=ADDRESSES)
    type: str | None = Field(None, examples=["work"])
    primary: bool | None = Field(None, examples=[True])


class AcmeUser(Resource[Any]):
    """The User attributes Hearken keeps (its Schemas say so), with addresses at the proven domain."""

    __schema__ = URN(USER_SCHEMA)

    user_name: Annotated[str | None, Uniqueness.server, Required.true] = Field(None, examples=ADDRESSES)
    name: AcmeName | None = None
    display_name: str | None = None
    active: bool | None = None
    emails: list[AcmeEmail] | None = None
    groups: Annotated[list[GroupMembership] | None, Mutability.read_only] = None


async def test_the_published_compliance_tester_passes(
    database_url: str, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    token = await scim_token(session_maker, tenant.org_id, "acme.example")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = server_env(database_url, HEARKEN_BASE_URL=base_url)
    command = [
        str(Path(sys.executable).parent / "hearken"),
        "run",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_until_up(process, lambda: local_http.get(f"{base_url}/healthz", timeout=1).status_code == 200)
        with httpx2.Client(
            base_url=f"{base_url}/scim/v2", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ) as http:
            client = SyncSCIMClient(http, provider=ScimProvider(models=[AcmeUser, Group]))
            results = await asyncio.to_thread(check_server, client, resource_types=["User"])
    finally:
        stop(process)
    failed = {f"{r.title}: {r.reason}" for r in results if r.status.name not in ("SUCCESS", "SKIPPED")}
    assert failed == BY_DESIGN, "\n".join(sorted(failed - BY_DESIGN))
    assert sum(r.status.name == "SUCCESS" for r in results) > 40
