"""SCIM Users: create, find, page, replace, patch, turn off and delete, in the SCIM shapes."""

from __future__ import annotations

from tests.integration.scim.conftest import SCIM_JSON, Scim

ERROR = "urn:ietf:params:scim:api:messages:2.0:Error"


async def test_a_user_is_created_found_and_read(scim: Scim) -> None:
    created = await scim.request(
        "POST", "/Users", scim.user("ada", externalId="00u1", name={"givenName": "Ada"})
    )
    assert created.status_code == 201, created.text
    assert created.headers["content-type"].startswith(SCIM_JSON)
    user = created.json()
    assert user["userName"] == "ada@acme.example" and user["active"] is True and user["externalId"] == "00u1"
    assert created.headers["location"] == user["meta"]["location"]
    assert user["groups"][0]["value"] == "member"

    found = await scim.request(
        "GET", "/Users", filter='userName eq "ADA@acme.example"', startIndex=1, count=100
    )
    assert found.json()["totalResults"] == 1 and found.json()["Resources"][0]["id"] == user["id"]
    by_external = await scim.request("GET", "/Users", filter='externalId eq "00u1"')
    assert by_external.json()["Resources"][0]["id"] == user["id"]
    read = await scim.request("GET", f"/Users/{user['id']}")
    assert read.json()["name"] == {"givenName": "Ada"}

    again = await scim.request("POST", "/Users", scim.user("ada"))
    assert again.status_code == 409 and again.json()["scimType"] == "uniqueness"
    assert again.json()["schemas"] == [ERROR] and again.json()["status"] == "409"


async def test_lists_page_from_one(scim: Scim) -> None:
    for local in ("a", "b", "c"):
        assert (await scim.request("POST", "/Users", scim.user(local))).status_code == 201
    page = (await scim.request("GET", "/Users", startIndex=2, count=1)).json()
    assert page["totalResults"] == 3 and page["startIndex"] == 2 and page["itemsPerPage"] == 1
    assert page["Resources"][0]["userName"] == "b@acme.example"
    assert (await scim.request("GET", "/Users", startIndex=0, count=0)).json()["Resources"] == []
    none = (await scim.request("GET", "/Users", filter='userName eq "nobody@acme.example"')).json()
    assert none["totalResults"] == 0 and none["Resources"] == []


async def test_filters_beyond_eq_are_invalid_filters(scim: Scim) -> None:
    for unsupported in (
        'userName co "a"',
        'userName eq "a@acme.example" and active eq true',
        'title eq "x"',
        'emails[type eq "work"].value eq "a@acme.example"',
        "userName eq a@acme.example",
        "x" * 600,
    ):
        refused = await scim.request("GET", "/Users", filter=unsupported)
        assert refused.status_code == 400, unsupported
        assert refused.json()["scimType"] == "invalidFilter" and refused.json()["status"] == "400"
        assert refused.json()["detail"].startswith("filter:")
    groups = await scim.request("GET", "/Groups", filter='displayName sw "ad"')
    assert groups.json()["scimType"] == "invalidFilter"


async def test_users_are_made_only_at_the_organization_s_proven_domains(scim: Scim) -> None:
    for address in ("eve@elsewhere.example", "eve@gmail.com", "not an address"):
        refused = await scim.request("POST", "/Users", {"userName": address})
        assert refused.status_code == 400 and refused.json()["scimType"] == "invalidValue", address
    missing = await scim.request("POST", "/Users", {"schemas": [], "active": True})
    assert missing.json()["detail"] == "userName: is required"
    not_json = await scim.client.post(
        "/scim/v2/Users", content=b"{", headers={**scim.headers, "Content-Type": "application/scim+json"}
    )
    assert not_json.status_code == 400 and not_json.json()["schemas"][0].endswith(":Error")
    as_xml = await scim.client.post(
        "/scim/v2/Users", content=b"<User/>", headers={**scim.headers, "Content-Type": "application/xml"}
    )
    assert as_xml.status_code == 415 and as_xml.json()["status"] == "415"


async def test_put_replaces_what_the_provider_says_and_moves_addresses_within_the_domains(scim: Scim) -> None:
    user = (await scim.request("POST", "/Users", scim.user("lin", displayName="Lin"))).json()
    replaced = await scim.request("PUT", f"/Users/{user['id']}", scim.user("lin", name={"familyName": "Lu"}))
    assert replaced.status_code == 200 and replaced.json()["name"] == {"familyName": "Lu"}
    assert "displayName" not in replaced.json()
    renamed = await scim.request("PUT", f"/Users/{user['id']}", scim.user("lin.lu"))
    assert renamed.json()["emails"][0]["value"] == "lin.lu@acme.example"
    away = await scim.request("PUT", f"/Users/{user['id']}", {"userName": "lin@elsewhere.example"})
    assert away.status_code == 400 and away.json()["scimType"] == "invalidValue"
    await scim.request("POST", "/Users", scim.user("taken"))
    onto = await scim.request("PUT", f"/Users/{user['id']}", scim.user("taken"))
    assert onto.status_code == 409 and onto.json()["scimType"] == "uniqueness"
    unknown = await scim.request(
        "PATCH",
        f"/Users/{user['id']}",
        {
            "Operations": [
                {"op": "replace", "path": "password", "value": "x"},
                {"op": "add", "path": "nope", "value": 1},
            ]
        },
    )
    assert unknown.status_code == 400 and unknown.json()["scimType"] == "invalidPath"
    assert (await scim.request("GET", "/Users/not-an-id")).status_code == 404


async def test_the_last_owner_cannot_be_turned_off_deleted_or_moved_out(scim: Scim) -> None:
    owner = (await scim.request("POST", "/Users", scim.user("own"))).json()["id"]
    members = {"Operations": [{"op": "replace", "path": "members", "value": [{"value": owner}]}]}
    assert (await scim.request("PATCH", "/Groups/owner", members)).status_code == 200
    empty = {"Operations": [{"op": "remove", "path": "members"}]}
    for refused in (
        await scim.request(
            "PATCH", f"/Users/{owner}", {"Operations": [{"op": "replace", "value": {"active": "false"}}]}
        ),
        await scim.request("DELETE", f"/Users/{owner}"),
        await scim.request("PATCH", "/Groups/owner", empty),
        await scim.request("PUT", "/Groups/owner", {"displayName": "owner", "members": []}),
    ):
        assert refused.status_code == 400, refused.text
        assert "owner" in refused.json()["detail"]
    assert (await scim.request("GET", f"/Users/{owner}")).json()["groups"][0]["value"] == "owner"
    heir = (await scim.request("POST", "/Users", scim.user("heir"))).json()["id"]
    handed = await scim.request(
        "PUT", "/Groups/owner", {"displayName": "owner", "members": [{"value": heir}]}
    )
    assert [m["value"] for m in handed.json()["members"]] == [heir]
    assert (await scim.request("DELETE", f"/Users/{owner}")).status_code == 204


async def test_groups_are_the_three_roles(scim: Scim) -> None:
    listed = (await scim.request("GET", "/Groups")).json()
    assert [group["displayName"] for group in listed["Resources"]] == ["owner", "admin", "member"]
    assert (await scim.request("POST", "/Groups", {"displayName": "admin"})).json()[
        "scimType"
    ] == "uniqueness"
    assert (await scim.request("POST", "/Groups", {"displayName": "sales"})).status_code == 400
    assert (await scim.request("DELETE", "/Groups/admin")).json()["scimType"] == "mutability"
    assert (await scim.request("GET", "/Groups/sales")).status_code == 404
    renamed = await scim.request(
        "PATCH", "/Groups/admin", {"Operations": [{"op": "replace", "path": "displayName", "value": "boss"}]}
    )
    assert renamed.json()["scimType"] == "mutability"


async def test_okta_pushes_a_group_and_takes_a_member_out_by_value_path(scim: Scim) -> None:
    """Okta's group push: members added with their display, one removed by `members[value eq "..."]`."""
    ids = [(await scim.request("POST", "/Users", scim.user(local))).json()["id"] for local in ("kim", "lee")]
    add = {
        "schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        "Operations": [
            {
                "op": "add",
                "path": "members",
                "value": [{"value": i, "display": "x@acme.example"} for i in ids],
            }
        ],
    }
    assert len((await scim.request("PATCH", "/Groups/admin", add)).json()["members"]) == 2
    remove = {"Operations": [{"op": "remove", "path": f'members[value eq "{ids[0]}"]'}]}
    left = await scim.request("PATCH", "/Groups/admin", remove)
    assert [m["value"] for m in left.json()["members"]] == [ids[1]]
    assert (await scim.request("GET", f"/Users/{ids[0]}")).json()["groups"][0]["value"] == "member"
    unknown = {
        "Operations": [
            {"op": "add", "path": "members", "value": [{"value": "00000000-0000-0000-0000-000000000000"}]}
        ]
    }
    assert (await scim.request("PATCH", "/Groups/admin", unknown)).status_code == 404
