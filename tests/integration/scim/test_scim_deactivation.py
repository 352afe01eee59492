"""Turning a member off over SCIM ends their access in that organization at once: their console session
there, their connected apps, their membership; turning them on again does not bring the old session
back. The requests are the ones Okta and Microsoft Entra ID send, as their SCIM documentation records
them."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import AuditEntry, Membership, User
from tenants.token_directory import TokenDirectory
from tenants.token_format import token_digest
from tests.console_helpers import Console, add_user, use_memory_stores
from tests.factories import Tenant
from tests.integration.scim.conftest import Scim, provisioned
from tests.integration.scim.connected_apps import connect_app

PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"


async def signed_in(app: Litestar, email: str) -> Console:
    console = Console(AsyncTestClient(app=app))
    await console.client.__aenter__()
    await console.login(email)
    assert (await console.get("/projects", follow_redirects=False)).status_code == 200
    return console


async def test_okta_turns_a_member_off_and_their_session_and_apps_end_at_once(
    app: Litestar,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
) -> None:
    use_memory_stores(app)
    ada = await add_user(session_maker, tenant.org_id, "ada@acme.example", "admin")
    await add_user(session_maker, tenant.org_id, "owner@acme.example", "owner")
    app_digest = token_digest(await connect_app(session_maker, tenant.org_id, ada.id))
    console = await signed_in(app, "ada@acme.example")
    try:
        scim = await provisioned(session_maker, console.client, tenant.org_id, "acme.example")
        directory: TokenDirectory = app.state.token_directory
        assert await directory.lookup_app(app_digest) is not None

        # Okta: look the user up by userName (a member Okta did not create is found too), then PATCH.
        found = await scim.request(
            "GET", "/Users", filter='userName eq "ada@acme.example"', startIndex=1, count=100
        )
        [user] = found.json()["Resources"]
        assert user["id"] == str(ada.id) and user["active"] is True and user["groups"][0]["value"] == "admin"
        off = await scim.request(
            "PATCH",
            f"/Users/{ada.id}",
            {"schemas": [PATCH_OP], "Operations": [{"op": "replace", "value": {"active": False}}]},
        )
        assert off.status_code == 200, off.text
        assert off.json()["active"] is False and "groups" not in off.json()

        assert (await console.get("/projects", follow_redirects=False)).headers["location"] == "/login"
        assert await directory.lookup_app(app_digest) is None
        async with session_maker() as session:
            assert await session.scalar(select(Membership).where(Membership.user_id == ada.id)) is None
            assert await session.get(User, ada.id) is not None  # the account stays
            actors = set(
                await session.scalars(select(AuditEntry.actor).where(AuditEntry.org_id == tenant.org_id))
            )
        assert f"scim token {scim.token[:12]}" in actors

        # Turned on again: a member again (role member), but the old session stays signed out.
        on = await scim.request(
            "PATCH",
            f"/Users/{ada.id}",
            {"schemas": [PATCH_OP], "Operations": [{"op": "replace", "path": "active", "value": True}]},
        )
        assert on.json()["active"] is True and on.json()["groups"][0]["value"] == "member"
        assert (await console.get("/projects", follow_redirects=False)).headers["location"] == "/login"
        assert await directory.lookup_app(app_digest) is None
    finally:
        await console.client.__aexit__(None, None, None)


async def test_entra_provisions_with_its_own_spelling(scim: Scim) -> None:
    """Microsoft Entra ID: a lookup by externalId first, POST, then PATCH with "Replace" and booleans as
    the strings "True"/"False", emails by a value path, and group membership by Add and Remove."""
    lookup = await scim.request("GET", "/Users", filter='externalId eq "e3c5-entra"')
    assert lookup.status_code == 200 and lookup.json()["totalResults"] == 0
    created = await scim.request(
        "POST",
        "/Users",
        {
            "schemas": [
                "urn:ietf:params:scim:schemas:core:2.0:User",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
            ],
            "externalId": "e3c5-entra",
            "userName": "grace@acme.example",
            "active": True,
            "displayName": "Grace Hopper",
            "emails": [{"primary": True, "type": "work", "value": "grace@acme.example"}],
            "name": {"formatted": "Grace Hopper", "familyName": "Hopper", "givenName": "Grace"},
            "title": "Rear Admiral",
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "Navy"},
        },
    )
    assert created.status_code == 201, created.text
    user_id = created.json()["id"]
    renamed = await scim.request(
        "PATCH",
        f"/Users/{user_id}",
        {
            "schemas": [PATCH_OP],
            "Operations": [
                {"op": "Replace", "path": "displayName", "value": "Grace B. Hopper"},
                {"op": "Replace", "path": "name.givenName", "value": "Grace B."},
                {"op": "Replace", "path": 'emails[type eq "work"].value', "value": "grace@acme.example"},
                {"op": "Add", "path": "title", "value": "Commodore"},
                {
                    "op": "Add",
                    "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
                    "value": "Computing",
                },
            ],
        },
    )
    assert renamed.status_code == 200, renamed.text
    assert (
        renamed.json()["displayName"] == "Grace B. Hopper"
        and renamed.json()["name"]["givenName"] == "Grace B."
    )

    groups = await scim.request(
        "GET", "/Groups", filter='displayName eq "admin"', excludedAttributes="members"
    )
    [admin] = groups.json()["Resources"]
    assert admin["id"] == "admin" and "members" not in admin
    added = await scim.request(
        "PATCH",
        "/Groups/admin",
        {
            "schemas": [PATCH_OP],
            "Operations": [{"op": "Add", "path": "members", "value": [{"value": user_id}]}],
        },
    )
    assert [m["value"] for m in added.json()["members"]] == [user_id]
    removed = await scim.request(
        "PATCH",
        "/Groups/admin",
        {
            "schemas": [PATCH_OP],
            "Operations": [{"op": "Remove", "path": "members", "value": [{"value": user_id}]}],
        },
    )
    assert removed.json()["members"] == []
    assert (await scim.request("GET", f"/Users/{user_id}")).json()["groups"][0]["value"] == "member"

    off = await scim.request(
        "PATCH",
        f"/Users/{user_id}",
        {"schemas": [PATCH_OP], "Operations": [{"op": "Replace", "path": "active", "value": "False"}]},
    )
    assert off.status_code == 200 and off.json()["active"] is False
    still_listed = await scim.request("GET", "/Users", filter='externalId eq "e3c5-entra"')
    assert still_listed.json()["Resources"][0]["active"] is False
    gone = await scim.request("DELETE", f"/Users/{user_id}")
    assert gone.status_code == 204
    assert (await scim.request("GET", f"/Users/{user_id}")).status_code == 404
