"""The per-address budget of image bytes is read from the environment, with defaults a small share of the
project's quota, and a wrong value stops the start with the variable named."""

from __future__ import annotations

import pytest

from app.config import Settings


def test_defaults_and_values() -> None:
    default = Settings.from_env({"HEARKEN_SECRET_KEY": "k" * 40})
    assert (default.attachment_client_bytes, default.attachment_client_seconds) == (50 * 1024 * 1024, 86400)
    set_ = Settings.from_env(
        {
            "HEARKEN_SECRET_KEY": "k" * 40,
            "HEARKEN_ATTACHMENT_CLIENT_MB": "8",
            "HEARKEN_ATTACHMENT_CLIENT_WINDOW": "3600",
        }
    )
    assert (set_.attachment_client_bytes, set_.attachment_client_seconds) == (8 * 1024 * 1024, 3600)


@pytest.mark.parametrize(
    ("variable", "value"),
    [("HEARKEN_ATTACHMENT_CLIENT_MB", "lots"), ("HEARKEN_ATTACHMENT_CLIENT_WINDOW", "0")],
)
def test_a_wrong_value_is_named(variable: str, value: str) -> None:
    with pytest.raises(ValueError, match=variable):
        Settings.from_env({"HEARKEN_SECRET_KEY": "k" * 40, variable: value})
