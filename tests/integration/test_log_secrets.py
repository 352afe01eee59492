"""Everything a server process writes while it serves a realistic session holds no password, token,
webhook secret or message body, and is one JSON object per line.

The flow: sign up and log in on the console, make an API token there, call the API with it (a wrong key
too), make a webhook endpoint (its signing secret is shown once), and send public submissions with
bodies, a contact message among them."""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from pathlib import Path

import httpx

from tests.integration.public.servers import ROOT, server_env
from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up
from tests.services import require_postgres

CSRF_FIELD = re.compile(r'name="_csrf_token" value="([^"]+)"')
TOKEN = re.compile(r"oat_[A-Za-z0-9_-]{43}")


def test_a_whole_session_leaves_no_secret_in_the_logs(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("sqlite"):
        require_postgres()
    log = tmp_path / "server.log"
    port = free_port()
    secrets: dict[str, str] = {
        "password": f"pw-{uuid.uuid4().hex}",
        "feedback message": f"the search box ignores accents {uuid.uuid4().hex}",
        "contact message": f"where are last year's invoices {uuid.uuid4().hex}",
        "contact email": f"ada-{uuid.uuid4().hex[:8]}@example.com",
        "API feedback message": f"typed by hand {uuid.uuid4().hex}",
        "wrong key": "oat_" + uuid.uuid4().hex + uuid.uuid4().hex[:11],
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(Path(ROOT) / ".venv/bin/hearken"), "run", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=server_env(database_url),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, lambda: local_http.get(base + "/healthz", timeout=1).status_code == 200)
        secrets.update(_session(base, secrets))
    finally:
        stop(process)

    text = log.read_text()
    assert "request" in text  # the access lines were written
    for name, value in secrets.items():
        assert value not in text, f"the {name} was logged"
    for line in text.splitlines():
        entry = json.loads(line)  # every line is one JSON object
        assert {"timestamp", "level", "event"} <= set(entry)


def _session(base: str, secrets: dict[str, str]) -> dict[str, str]:
    """Drive the flow; return the secrets the service handed out on the way."""
    console = httpx.Client(base_url=base)
    email = f"owner-{uuid.uuid4().hex[:8]}@example.com"
    signup = {"org_name": "Leaks", "email": email, "password": secrets["password"]}
    assert (
        console.post("/signup", data={**signup, "_csrf_token": _csrf(console, "/signup")}).status_code < 400
    )
    console.cookies.clear()
    login = {"email": email, "password": secrets["password"], "_csrf_token": _csrf(console, "/login")}
    assert console.post("/login", data=login).status_code < 400
    wrong = {**login, "password": secrets["password"] + "x", "_csrf_token": _csrf(console, "/login")}
    console.post("/login", data=wrong)
    console.post("/login", data=login)
    made = console.post(
        "/settings/tokens",
        data={"label": "ci", "scope": "write", "_csrf_token": _csrf(console, "/settings/tokens")},
    )
    token = TOKEN.search(made.text)
    assert token is not None, made.text[:500]
    made_project = console.post(
        "/projects", data={"name": "Docs", "_csrf_token": _csrf(console, "/projects/new")}
    )
    assert made_project.status_code < 400

    api = httpx.Client(base_url=base, headers={"X-API-Key": token.group(0)})
    projects = api.get("/api/v1/projects").json()["projects"]
    project = projects[0]
    assert api.get("/api/v1/projects", headers={"X-API-Key": secrets["wrong key"]}).status_code == 401
    created = api.post(
        f"/api/v1/projects/{project['id']}/feedback", json={"message": secrets["API feedback message"]}
    )
    assert created.status_code == 201, created.text
    hook = api.post("/api/v1/webhooks", json={"url": "https://hooks.example/in"})
    assert hook.status_code == 201, hook.text

    public = httpx.Client(base_url=base)
    key = project["key"]
    rating = {"project_key": key, "value": True, "path": "/docs"}
    assert public.post("/api/v1/rating/submit", json=rating).status_code == 204
    feedback = {"project_key": key, "message": secrets["feedback message"], "path": "/docs"}
    assert public.post("/api/v1/feedback/submit", json=feedback).status_code == 200
    contact = {
        "project_key": key,
        "name": "Ada",
        "email": secrets["contact email"],
        "subject": "Invoices",
        "message": secrets["contact message"],
        "path": "/docs",
    }
    assert public.post("/api/v1/contact/submit", json=contact).status_code == 200
    assert public.post("/api/v1/contact/submit", json={**contact, "email": "nope"}).status_code == 400
    return {"API token": token.group(0), "webhook secret": hook.json()["secret"]}


def _csrf(client: httpx.Client, page: str) -> str:
    found = CSRF_FIELD.search(client.get(page).text)
    assert found is not None, page
    return found.group(1)
