"""What an MCP tool call costs against the REST request that answers the same: list_feedback (20 items of
a project with 1,000) as a `tools/call` POST to /mcp and as GET /api/v1/projects/{id}/feedback, on one
server process, alternated over rounds with wrk: throughput at c=8 and latency of one client (c=1).

The tool runs the same service; the difference is the protocol: the JSON-RPC envelope, the `mcp`
package's dispatch (pydantic models, a task per request in its stateless transport) and the short text
beside the structured answer.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.config import Settings
from app.db.config import build_db_config
from tests import databases
from tests.bench import seed
from tests.bench.load import LoadResult, get_script, post_script, wrk
from tests.bench.servers import start

CONNECTIONS = 8
ITEMS = 1000


def _tool_script(project_id: str, token: str) -> str:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "list_feedback", "arguments": {"project_id": project_id, "limit": 20}},
        }
    )
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    return post_script("/mcp", "'" + body.replace('"', '\\"') + "'", headers)


def _checked(result: LoadResult, what: str) -> LoadResult:
    """Every answer a 2xx (socket errors, timeouts of a loaded machine, are counted by wrk apart)."""
    if result.non_2xx:
        raise SystemExit(f"{what} answered {result.non_2xx} non-2xx responses")
    return result


def mcp_part(
    record: Callable[..., None], app_env: Callable[[str, bool], dict[str, str]], rounds: int, seconds: int
) -> dict[str, Any]:
    print("MCP tool call against the REST request (SQLite, 1 worker)", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        databases.migrate(url)
        config = build_db_config(Settings(database_url=url, secret_key="bench"))
        session_maker = config.create_session_maker()
        token, (_, _, inbox) = asyncio.run(seed.tenant(session_maker))
        asyncio.run(seed.feedback(session_maker, inbox.id, ITEMS))
        asyncio.run(config.get_engine().dispose())
        env = {**app_env(url, False), "HEARKEN_RATE_LIMIT_MCP": "1000000000/60"}
        server = start("app.main:create_app", workers=1, env=env)
        try:
            rest_path = f"/api/v1/projects/{inbox.id}/feedback?limit=20"
            rest = (server.url + rest_path, get_script(rest_path, {"X-API-Key": token}))
            tool = (server.url + "/mcp", _tool_script(str(inbox.id), token))
            for target, script in (rest, tool):
                wrk(target, script=script, connections=CONNECTIONS, seconds=2)  # warm-up
            runs: dict[str, list[LoadResult]] = {"rest": [], "mcp": []}
            for round_ in range(rounds):
                order = (
                    (("rest", rest), ("mcp", tool)) if round_ % 2 == 0 else (("mcp", tool), ("rest", rest))
                )
                for name, (target, script) in order:
                    runs[name].append(
                        _checked(wrk(target, script=script, connections=CONNECTIONS, seconds=seconds), name)
                    )
            single = {
                name: _checked(wrk(target, script=script, connections=1, seconds=seconds), name)
                for name, (target, script) in (("rest", rest), ("mcp", tool))
            }
        finally:
            server.stop()
    rest_rps = statistics.median(r.rps for r in runs["rest"])
    mcp_rps = statistics.median(r.rps for r in runs["mcp"])
    record(
        f"list_feedback: MCP tool call / REST GET (c={CONNECTIONS}, median of {rounds} rounds)",
        f"{mcp_rps:,.0f} / {rest_rps:,.0f} req/s = {mcp_rps / rest_rps:.0%}",
    )
    record(
        "list_feedback latency, one client: MCP / REST",
        f"p50 {single['mcp'].p50_ms:.2f} / {single['rest'].p50_ms:.2f} ms",
    )
    return {
        "mcp_rps": mcp_rps,
        "rest_rps": rest_rps,
        "ratio": mcp_rps / rest_rps,
        "mcp_p50_ms": single["mcp"].p50_ms,
        "rest_p50_ms": single["rest"].p50_ms,
    }
