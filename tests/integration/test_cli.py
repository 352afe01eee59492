"""The operator command line: one JSON object on stdout per command, and on bad input a non-zero
exit with one line on stderr, against the test database. The commands run through their entry point in
the test process (`hearken_here`); what only a process shows (the installed script and its help, the
console's session files in its working folder, a database never upgraded or out of reach) is run as an
operator runs it, a `hearken` process."""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from pathlib import Path

import anyio
import pytest
from litestar.stores.file import FileStore
from litestar.testing import AsyncTestClient

from tests.cluster import HEARKEN
from tests.integration.public.servers import hearken, hearken_here, server_env
from tests.server_processes import free_port


def run_ok(env: dict[str, str], *args: str) -> dict[str, object]:
    result = hearken_here(env, *args)
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.strip().splitlines()
    payload: dict[str, object] = json.loads(line)
    return payload


async def run_ok_in_thread(env: dict[str, str], *args: str) -> dict[str, object]:
    """`run_ok` in a thread: the command runs an event loop of its own."""
    return await anyio.to_thread.run_sync(lambda: run_ok(env, *args))


def run_refused(env: dict[str, str], *args: str, process: bool = False) -> str:
    result = (hearken if process else hearken_here)(env, *args)
    assert result.returncode != 0
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    return line


async def test_an_operator_sets_up_an_organization(database_url: str, client: AsyncTestClient) -> None:
    env = server_env(database_url)
    org = await run_ok_in_thread(env, "orgs", "create", "--name", "Acme",
                                 "--owner-email", "Ops@Example.com",
                                 "--owner-password", "correct horse battery")  # fmt: skip
    assert set(org) == {"id", "name"} and org["name"] == "Acme"

    token = await run_ok_in_thread(
        env, "tokens", "create", "--org", str(org["id"]), "--label", "ci", "--scope", "read"
    )
    assert set(token) == {"id", "token", "prefix", "label", "scope"}
    assert str(token["token"]).startswith("oat_") and len(str(token["token"])) == 47
    assert token["prefix"] == str(token["token"])[:12]
    assert (token["label"], token["scope"]) == ("ci", "read")

    project = await run_ok_in_thread(env, "projects", "create", "--org", str(org["id"]), "--name", "Docs",
                                     "--description", "Product docs",
                                     "--origin", "https://Docs.Example.com:443")  # fmt: skip
    assert project["allowed_origins"] == ["https://docs.example.com"]
    assert project["org_id"] == org["id"] and project["feedback_count"] == 0
    uuid.UUID(str(project["key"]))

    headers = {"X-API-Key": str(token["token"])}
    listed = (await client.get("/api/v1/projects", headers=headers)).json()["projects"]
    assert [p["id"] for p in listed] == [project["id"]]

    assert await run_ok_in_thread(env, "tokens", "revoke", "--id", str(token["id"])) == {
        "id": token["id"],
        "revoked": True,
    }
    assert (await client.get("/api/v1/projects", headers=headers)).status_code == 401


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("orgs", "create", "--name", "A", "--owner-email", "nobody", "--owner-password", "long enough pw"),
         "email"),
        (("orgs", "create", "--name", "A", "--owner-email", "a@example.com", "--owner-password", "short"),
         "password"),
        (("orgs", "create", "--name", " ", "--owner-email", "a@b.example", "--owner-password", "long pw 12"),
         "name"),
        (("tokens", "create", "--org", "not-a-uuid"), "--org must be a UUID"),
        (("tokens", "create", "--org", str(uuid.UUID(int=1))), "no organization"),
        (("tokens", "revoke", "--id", str(uuid.UUID(int=2))), "no token"),
        (("projects", "create", "--org", str(uuid.UUID(int=1)), "--name", "Docs"), "no organization"),
    ],
)  # fmt: skip
def test_bad_input_exits_non_zero_with_one_line(
    database_url: str, args: tuple[str, ...], message: str
) -> None:
    assert message in run_refused(server_env(database_url), *args)


def test_help_says_what_hearkens_own_commands_do(tmp_path: Path) -> None:
    env = {**server_env("sqlite+aiosqlite:///unused.db"), "COLUMNS": "200"}
    result = subprocess.run([HEARKEN, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    text = [line.strip(" │") for line in result.stdout.splitlines() if line.strip(" │╭╰─")]
    assert text[0] == "Usage: hearken [OPTIONS] COMMAND [ARGS]..."
    assert text[1].startswith("Hearken: feedback, ratings and contact messages")
    assert "Litestar CLI" not in result.stdout and "discover" not in result.stdout
    assert "--app" not in result.stdout
    listed = dict(re.findall(r"^│ (\w+)(?: +db)? {2,}(\S.*?) *│$", result.stdout, re.M))
    assert {"orgs", "tokens", "projects", "database", "run", "sessions", "insights"} <= set(listed)
    assert listed["run"].startswith("Serve Hearken over HTTP")
    assert listed["database"].startswith("Upgrade the database")
    assert listed["sessions"] == "Sign people out of the console."
    assert not [line for line in listed.values() if "Litestar app" in line or "SQLAlchemy" in line]


def test_sessions_clear_signs_everyone_out_of_the_console(tmp_path: Path) -> None:
    env = server_env("sqlite+aiosqlite:///unused.db")
    command = [HEARKEN, "sessions", "clear", "--yes"]
    fresh = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (fresh.returncode, fresh.stdout) == (0, '{"signed_out":"everyone"}\n'), fresh.stderr

    (tmp_path / "var" / "console" / "sessions").mkdir(parents=True)
    sessions = FileStore(tmp_path / "var" / "console" / "sessions")
    anyio.run(sessions.set, "someone", b"{}")
    cleared = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert cleared.returncode == 0, cleared.stderr
    assert not anyio.run(sessions.exists, "someone")


def test_a_database_never_upgraded_or_out_of_reach_is_named_in_one_line(tmp_path: Path) -> None:
    """A new deployment's first command, before `hearken database upgrade`, or with the database down:
    one line that says what to do, not a driver's traceback."""
    create = ("orgs", "create", "--name", "Acme", "--owner-email", "a@b.example",
              "--owner-password", "long pw 12")  # fmt: skip
    empty = server_env(f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")
    assert "run `hearken database upgrade`" in run_refused(empty, *create, process=True)
    down = server_env(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/hearken")
    assert run_refused(down, *create, process=True).startswith("hearken: cannot use the database: ")
