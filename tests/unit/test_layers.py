"""The layer contracts in pyproject.toml hold and cover every module: each package sits in one layer and
imports only from the layers below it; `tenants` does not reach into the feedback domain; ingest is used
through its package entry only."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_module_belongs_to_a_layer() -> None:
    """A new package or module is placed in a layer when it is added, so no import of it goes unchecked.
    Only the packages that merely hold others (their `__init__` imports nothing) stand outside."""
    settings = _import_linter()
    placed = {name for layer in _layers() for name in layer}
    holders = {"app", "app.surveys", "app.conversations"}
    outside = []
    for root in settings["root_packages"]:
        for path in sorted((ROOT / root).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            prefixes = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 2)}
            if not prefixes & placed and module not in holders:
                outside.append(module)
    assert outside == []
    for holder in holders:
        init = (ROOT / holder.replace(".", "/") / "__init__.py").read_text()
        assert "import" not in init, f"{holder} holds code of its own: place it in a layer"


def test_operations_is_a_leaf_package() -> None:
    """app/operations (metrics, JSON logs, the request deadline, request ids) sits whole among the leaves,
    so none of its modules imports from a layer above; the probes and the wrapper around every request,
    which use it, are ways in (app/probes.py, app/serving.py)."""
    assert "app.operations" in _layers()[-1]


def _import_linter() -> dict[str, Any]:
    settings: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return settings


def _layers() -> list[set[str]]:
    """The layers contract's layers, top first, each as the set of modules it names."""
    (layers,) = [c["layers"] for c in _import_linter()["contracts"] if c["id"] == "layers"]
    return [{name.strip() for name in layer.replace(":", "|").split("|")} for layer in layers]
