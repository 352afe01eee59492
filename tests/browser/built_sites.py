"""Real sites built from their platforms' own packages, for the widget tests: tools installed and builds
cached by the hash of what they are built from, in the user's cache folder, so that every checkout of the
same sources (a CI clone too) installs and builds a site once; and a static server that serves a built site
as a web host would.

Installs and builds hold a file lock, so parallel test processes (pytest-xdist) wait for one another
instead of building the same thing twice. Each build's time is printed (pytest -s shows it) and kept in
`BUILD_TIMES` for the session's summary.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.browser.harness import REPO_ROOT

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hearken-test-sites"
SKIPPED = {"node_modules", "__pycache__", "cache", "dist", "site", "_build", "build", ".docusaurus"}
BUILD_TIMES: dict[str, float] = {}


@contextmanager
def locked(name: str) -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def digest(*paths: Path) -> str:
    """A hash of every file under `paths` (node_modules, build outputs and caches left out)."""
    sha = hashlib.sha256()
    for root in paths:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if SKIPPED & set(path.relative_to(root).parts if path != root else ()):
                continue
            sha.update(str(path.relative_to(REPO_ROOT)).encode())
            sha.update(path.read_bytes())
    return sha.hexdigest()[:16]


def run(command: list[str], cwd: Path, **env: str) -> None:
    """Run a tool; its output is shown only when it fails."""
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env={**os.environ, **env}, timeout=900
    )
    if result.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")


@contextmanager
def npm_workspace(source: Path, *, copies_of: tuple[Path, ...] = ()) -> Iterator[Path]:
    """A copy of `source` in the cache folder with its npm packages installed, held for the caller alone
    (a file lock) while in use. The packages are installed once per machine, not once per checkout (a CI
    clone finds them), and nothing lands in the checkout. Local packages (`file:` in package.json) are
    installed as copies, as from a tarball, and again whenever a file of `copies_of` changes."""
    work = NPM_WORKSPACES / source.relative_to(REPO_ROOT)
    with locked("npm-" + source.name):
        work.mkdir(parents=True, exist_ok=True)
        for entry in work.iterdir():  # the sources as they are now; the installed packages stay
            if entry.name != "node_modules":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(source, work, ignore=shutil.ignore_patterns(*SKIPPED), dirs_exist_ok=True)
        _link_local_packages(source)
        stamp = work / "node_modules" / ".hearken-installed"
        wanted = digest(source / "package.json", source / "package-lock.json", *copies_of)
        if not (stamp.exists() and stamp.read_text() == wanted):
            started = time.monotonic()
            run(["npm", "install", "--no-audit", "--no-fund", "--install-links"], work)
            stamp.write_text(wanted)
            _timed(f"npm install ({source.name})", started)
        yield work


NPM_WORKSPACES = CACHE / "npm"
"""Where `npm_workspace` copies a folder of the checkout, at the same path below it as in the checkout."""


def _link_local_packages(source: Path) -> None:
    """Make the `file:` paths of a copied package.json (relative, as in its lock) lead to the checkout's
    packages from the copy too: each is a link at the same place below the workspaces."""
    manifest = json.loads((source / "package.json").read_text())
    for section in ("dependencies", "devDependencies"):
        for spec in manifest.get(section, {}).values():
            if spec.startswith("file:"):
                target = (source / spec.removeprefix("file:")).resolve()
                link = NPM_WORKSPACES / target.relative_to(REPO_ROOT)
                link.parent.mkdir(parents=True, exist_ok=True)
                fresh = link.with_name(f"{link.name}.{os.getpid()}")
                fresh.unlink(missing_ok=True)
                fresh.symlink_to(target)
                fresh.replace(link)  # at once: another site's install may be reading the link


def cached_build(name: str, sources: list[Path], build: Callable[[Path], None]) -> Path:
    """The output folder of `build(out)`, rebuilt only when a file of `sources` changed."""
    out = CACHE / name / digest(*sources)
    with locked(name):
        if not (out / ".complete").exists():
            shutil.rmtree(CACHE / name, ignore_errors=True)  # older builds of this site
            out.mkdir(parents=True)
            started = time.monotonic()
            build(out)
            (out / ".complete").touch()
            _timed(f"{name} build", started)
    return out


def _timed(what: str, started: float) -> None:
    BUILD_TIMES[what] = time.monotonic() - started
    print(f"\n{what}: {BUILD_TIMES[what]:.1f} s")


class StaticSite:
    """Serves a built site from its own origin, as a web host would: `x/index.html` for /x/, `x.html`
    for /x, and `fallback` (a single-page app's index.html) for any other path. `files` adds scripts by
    path; `replace` rewrites text in the HTML, JavaScript and XML served (a placeholder the site was built
    with, such as the project key, becomes this run's)."""

    def __init__(self, folder: Path, *, fallback: str | None = None) -> None:
        self.files: dict[str, str] = {}
        self.replace: dict[str, str] = {}
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def send_head(self):  # type: ignore[no-untyped-def]
                path = self.path.split("?")[0].split("#")[0]
                if path in site.files:
                    return self._text(site.files[path], "text/javascript")
                local = Path(self.translate_path(path))
                if local.is_dir() and (local / "index.html").is_file() and path.endswith("/"):
                    local = local / "index.html"
                elif not local.exists() and local.with_suffix(".html").is_file():
                    local = local.with_suffix(".html")
                elif not local.exists() and fallback is not None:
                    local = folder / fallback.lstrip("/")
                if local.is_file() and local.suffix in {".html", ".js", ".mjs", ".xml"}:
                    text = local.read_text()
                    for old, new in site.replace.items():
                        text = text.replace(old, new)
                    kind = {".html": "text/html; charset=utf-8", ".xml": "application/xml"}.get(
                        local.suffix, "text/javascript"
                    )
                    return self._text(text, kind)
                return super().send_head()

            def _text(self, text: str, content_type: str) -> _Body:
                body = text.encode()
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                return _Body(body)

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(folder)))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Body:
    """A file-like body for SimpleHTTPRequestHandler.copyfile."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    def read(self, size: int = -1) -> bytes:
        body, self.body = self.body, b""
        return body

    def close(self) -> None:
        return
