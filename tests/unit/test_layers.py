"""The layer contracts in pyproject.toml hold and cover every module: each package sits in one layer and
imports only from the layers below it; `tenants` does not reach into the feedback domain; ingest is used
through its package entry only."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

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
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in settings["contracts"] if c["id"] == "layers"]
    placed = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    holders = {"app", "app.operations", "app.surveys"}
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
