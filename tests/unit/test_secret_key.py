"""Production refuses a secret key anyone could know: the example file's placeholder, or a short one."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "hearken.env.example"


def example_secret() -> str:
    for line in EXAMPLE.read_text().splitlines():
        if line.startswith("HEARKEN_SECRET_KEY="):
            return line.partition("=")[2]
    raise AssertionError("the example environment names no secret key")


@pytest.mark.parametrize("key", [example_secret(), "changeme", "x" * 31, "CHANGE-ME-" + "a" * 40])
def test_production_refuses_placeholder_and_short_keys(key: str) -> None:
    with pytest.raises(RuntimeError, match="HEARKEN_SECRET_KEY"):
        Settings.from_env({"HEARKEN_ENV": "production", "HEARKEN_SECRET_KEY": key})


def test_production_accepts_a_long_random_key() -> None:
    key = "Zq3v9Hk2mW8xR4tY7uP1sD6fG0jL5nB2cV8bN4mQ1wE"
    assert Settings.from_env({"HEARKEN_ENV": "production", "HEARKEN_SECRET_KEY": key}).secret_key == key


def test_development_keeps_accepting_a_short_key() -> None:
    assert Settings.from_env({"HEARKEN_SECRET_KEY": "dev"}).secret_key == "dev"
