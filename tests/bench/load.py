"""Drive load with wrk (Debian's package) and read its figures."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


@dataclass
class LoadResult:
    requests: int
    non_2xx: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int

    @property
    def ok(self) -> int:
        return self.requests - self.non_2xx - self.errors


def wrk(url: str, *, script: str, connections: int, seconds: int, threads: int = 2) -> LoadResult:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
    try:
        out = subprocess.run(
            ["wrk", "--latency", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s",
             "-s", handle.name, url],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
    finally:
        Path(handle.name).unlink()
    return parse(out)


def parse(out: str) -> LoadResult:
    def number(pattern: str, default: str = "0") -> str:
        match = re.search(pattern, out)
        return match.group(1) if match else default

    def latency(percent: str) -> float:
        match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M)
        return float(match.group(1)) * UNITS[match.group(2)] if match else float("nan")

    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return LoadResult(
        requests=int(number(r"(\d+) requests in")),
        non_2xx=int(number(r"Non-2xx or 3xx responses: (\d+)")),
        rps=float(number(r"Requests/sec:\s+([\d.]+)")),
        p50_ms=latency("50"),
        p99_ms=latency("99"),
        errors=errors,
    )


def post_script(path_template: str, body_lua: str, headers: dict[str, str]) -> str:
    """A wrk script whose every request POSTs a body built by the Lua expression `body_lua` (uses n)."""
    header_lines = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in headers.items())
    return f"""
wrk.method = "POST"
{header_lines}
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, "{path_template}", nil, {body_lua})
end
"""


def get_script(path: str, headers: dict[str, str]) -> str:
    header_lines = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in headers.items())
    return f"""
{header_lines}
request = function() return wrk.format("GET", "{path}") end
"""
