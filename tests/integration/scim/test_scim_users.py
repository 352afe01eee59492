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
