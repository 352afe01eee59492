"""The webhook endpoints API: what is stored and shown, what is refused, and who may see what."""

from __future__ import annotations

import base64
from dataclasses import replace

from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.main import create_app
from app.webhooks.urls import is_public
from tests.factories import Tenant
from tests.integration.webhooks.conftest import add_webhook
from tests.receivers import Receiver

HOOKS = "/api/v1/webhooks"


async def test_the_secret_is_shown_once_and_never_again(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url, description="CRM", events=["feedback.created"])
    secret = created["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    assert created | {"secret": None} == {
        "id": created["id"],
        "url": hook.url,
        "events": ["feedback.created"],
        "project_ids": [],
        "description": "CRM",
        "format": "standard",
        "enabled": True,
        "created_at": created["created_at"],
        "secret": None,
    }
    for path in (HOOKS, f"{HOOKS}/{created['id']}"):
        response = await client.get(path, headers=tenant.headers)
        assert response.status_code == 200
        assert secret not in response.text and "secret" not in response.text
    listed = (await client.get(HOOKS, headers=tenant.read_headers)).json()["webhooks"]
    assert [w["id"] for w in listed] == [created["id"]]


async def test_patch_changes_only_what_it_names_and_delete_removes(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url, events=["feedback.created"])
    url = f"{HOOKS}/{created['id']}"
    patched = await client.patch(
        url, json={"enabled": False, "project_ids": [tenant.project_id]}, headers=tenant.headers
    )
    assert patched.status_code == 200
    assert (patched.json()["enabled"], patched.json()["project_ids"], patched.json()["events"]) == (
        False,
        [tenant.project_id],
        ["feedback.created"],
    )
    assert (await client.delete(url, headers=tenant.headers)).status_code == 204
    assert (await client.get(url, headers=tenant.headers)).status_code == 404
    assert (await client.get(HOOKS, headers=tenant.headers)).json() == {"webhooks": []}


async def test_bad_input_is_400_naming_the_field_and_stores_nothing(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant, hook: Receiver
) -> None:
    cases = [
        ("url", {"url": "ftp://example.org/hook"}),
        ("url", {"url": "http://\U000c76f9@127.0.0.1/hook"}),  # a user name Basic authentication cannot carry
        ("events", {"url": hook.url, "events": ["rating.created"]}),
        ("project_ids", {"url": hook.url, "project_ids": [other_tenant.project_id]}),
        ("format", {"url": hook.url, "format": "teams"}),
        ("description", {"url": hook.url, "description": "x" * 501}),
    ]
    for field, body in cases:
        response = await client.post(HOOKS, json=body, headers=tenant.headers)
        assert response.status_code == 400, (field, response.text)
        assert response.json()["error"] == "invalid_request"
        assert field in response.json()["details"], (field, response.json())
    not_a_uuid = await client.post(
        HOOKS, json={"url": hook.url, "project_ids": ["nope"]}, headers=tenant.headers
    )
    assert (not_a_uuid.status_code, "project_ids" in not_a_uuid.json()["details"]) == (400, True)
    assert (await client.get(HOOKS, headers=tenant.headers)).json() == {"webhooks": []}

    created = await add_webhook(client, tenant, hook.url)
    bad_patch = await client.patch(
        f"{HOOKS}/{created['id']}", json={"url": "not a url", "enabled": False}, headers=tenant.headers
    )
    assert bad_patch.status_code == 400 and "url" in bad_patch.json()["details"]
    still = (await client.get(f"{HOOKS}/{created['id']}", headers=tenant.headers)).json()
    assert (still["url"], still["enabled"]) == (hook.url, True)


async def test_another_organizations_webhooks_are_not_found(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant, hook: Receiver
) -> None:
    theirs = await add_webhook(client, other_tenant, hook.url)
    url = f"{HOOKS}/{theirs['id']}"
    assert (await client.get(HOOKS, headers=tenant.headers)).json() == {"webhooks": []}
    for method, path in (
        ("GET", url),
        ("PATCH", url),
        ("DELETE", url),
        ("POST", f"{url}/test"),
        ("GET", f"{url}/deliveries"),
    ):
        body = {"json": {"enabled": False}} if method == "PATCH" else {}
        response = await client.request(method, path, headers=tenant.headers, **body)
        assert response.status_code == 404, (method, path, response.status_code)
    assert (await client.get(url, headers=other_tenant.headers)).json()["enabled"] is True


async def test_production_needs_https_and_a_public_address(settings: Settings, tenant: Tenant) -> None:
    production = replace(settings, env="production")
    async with AsyncTestClient(app=create_app(production)) as client:
        for url, rule in (
            ("http://hooks.example.org/in", "https"),
            ("https://127.0.0.1/in", "public"),
            ("https://localhost:8443/in", "public"),
            ("https://10.1.2.3/in", "public"),
            ("https://169.254.169.254/latest", "public"),
            ("https://[::1]/in", "public"),
        ):
            response = await client.post(HOOKS, json={"url": url}, headers=tenant.headers)
            assert response.status_code == 400, url
            assert "url" in response.json()["details"] and rule in response.json()["details"], response.json()
    allowed = replace(production, webhook_allow_private=True)
    async with AsyncTestClient(app=create_app(allowed)) as client:
        response = await client.post(HOOKS, json={"url": "https://127.0.0.1/in"}, headers=tenant.headers)
        assert response.status_code == 201
        refused = await client.post(HOOKS, json={"url": "http://127.0.0.1/in"}, headers=tenant.headers)
        assert refused.status_code == 400


async def test_production_judges_an_ipv6_address_by_the_ipv4_address_it_carries(
    settings: Settings, tenant: Tenant
) -> None:
    """A NAT64 gateway, a 6to4 relay or a Teredo tunnel delivers to the IPv4 address inside the IPv6 one,
    so 64:ff9b::7f00:1 is 127.0.0.1; multicast is never a receiver."""
    production = replace(settings, env="production")
    refused = [
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
        "64:ff9b:1::a00:1",  # local-use NAT64
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
        "::ffff:7f00:1",  # IPv4-mapped 127.0.0.1
        "::ffff:0:a00:1",  # SIIT 10.0.0.1
        "::c0a8:101",  # IPv4-compatible 192.168.1.1
        "2001:db8::5efe:a00:1",  # ISATAP 10.0.0.1
        "ff0e::1",  # global multicast
        "ff02::1",
    ]
    async with AsyncTestClient(app=create_app(production)) as client:
        for host in refused:
            response = await client.post(HOOKS, json={"url": f"https://[{host}]/in"}, headers=tenant.headers)
            assert response.status_code == 400, host
            details = response.json()["details"]
            assert details.startswith("url") and "public" in details, (host, details)
        for host in ("224.0.0.1", "239.1.2.3"):
            response = await client.post(HOOKS, json={"url": f"https://{host}/in"}, headers=tenant.headers)
            assert response.status_code == 400, host
    for public in ("64:ff9b::808:808", "2002:808:808::1", "2606:4700:4700::1111", "8.8.8.8"):
        assert is_public(public), public
    for private in [*refused, "224.0.0.1", "::", "::1", "2001:0:a00:1::1"]:
        assert not is_public(private), private


SECRET_URL = "https://hook-user:hook-pass@hooks.example.org/in/a1B2c3D4e5F6g7H8i9?token=tok_s3cr3t&team=x"
SLACK_URL = "https://hooks.slack.com/services/T0AAA1111/B0BBB2222/abcdEFGHijklMNOP12345678"


async def test_credentials_in_urls_are_masked_for_read_tokens_and_in_the_audit_log(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    """A receiver that authenticates by its URL alone must not be handed to every reader: a read token
    sees the user, password, query values and secret-looking path segments as ***; a write token, which
    may change the endpoint, sees it whole; the audit log never holds them."""
    created = await add_webhook(client, tenant, SECRET_URL)
    slack = await add_webhook(client, tenant, SLACK_URL, format="slack")
    assert created["url"] == SECRET_URL
    changed = await client.patch(
        f"{HOOKS}/{slack['id']}", json={"url": SLACK_URL.replace("abcd", "wxyz")}, headers=tenant.headers
    )
    assert changed.json()["url"] == SLACK_URL.replace("abcd", "wxyz")
    masked = "https://***:***@hooks.example.org/in/***?token=***&team=***"
    masked_slack = "https://hooks.slack.com/services/***/***/***"
    listed = (await client.get(HOOKS, headers=tenant.read_headers)).json()["webhooks"]
    assert [hook["url"] for hook in listed] == [masked, masked_slack]
    one = await client.get(f"{HOOKS}/{created['id']}", headers=tenant.read_headers)
    assert one.json()["url"] == masked
    whole = (await client.get(HOOKS, headers=tenant.headers)).json()["webhooks"]
    assert [hook["url"] for hook in whole] == [SECRET_URL, SLACK_URL.replace("abcd", "wxyz")]
    log = (await client.get("/api/v1/audit-log", headers=tenant.headers)).json()["entries"]
    text = str(log)
    for secret in ("hook-user", "hook-pass", "tok_s3cr3t", "a1B2c3D4e5F6g7H8i9", "abcdEFGH", "wxyzEFGH"):
        assert secret not in text, secret
    update = next(e for e in log if e["action"] == "webhook.updated")
    assert update["details"]["url"] == {"from": masked_slack, "to": masked_slack}
    assert next(e for e in log if e["target_id"] == created["id"])["details"]["url"] == masked
