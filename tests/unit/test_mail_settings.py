"""HEARKEN_SMTP_URL and the mail language: what a configuration means, and that the SMTP password never
shows in what is printed or raised."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.mail.smtp import SmtpServer
from tenants.languages import preferred_language

BASE = {"HEARKEN_SECRET_KEY": "unit-test-key"}


def test_smtp_urls_name_the_server_the_login_and_the_kind_of_tls() -> None:
    plain = SmtpServer.parse("smtp://mailer:p%40ss%3Aword@mail.example.com:2525")
    assert (plain.host, plain.port, plain.implicit_tls) == ("mail.example.com", 2525, False)
    assert (plain.username, plain.password) == ("mailer", "p@ss:word")
    implicit = SmtpServer.parse("smtps://mail.example.com")
    assert (implicit.port, implicit.implicit_tls, implicit.username) == (465, True, None)
    assert SmtpServer.parse("smtp://mail.example.com").port == 587


def test_the_password_is_in_no_printed_form() -> None:
    url = "smtp://mailer:hunter2-secret@mail.example.com:25"
    settings = Settings.from_env({**BASE, "HEARKEN_SMTP_URL": url})
    assert settings.sends_mail
    assert "hunter2-secret" not in repr(settings)
    server = SmtpServer.parse(url)
    assert "hunter2-secret" not in f"{server!r} {server}"


@pytest.mark.parametrize(
    "url", ["http://mail.example.com", "smtp://", "mail.example.com:25", "smtp://u:hunter2-secret@h:port"]
)
def test_a_bad_smtp_url_stops_the_start_without_repeating_it(url: str) -> None:
    with pytest.raises(ValueError, match="HEARKEN_SMTP_URL") as raised:
        Settings.from_env({**BASE, "HEARKEN_SMTP_URL": url})
    assert "hunter2-secret" not in str(raised.value)


def test_without_smtp_mail_is_logged_and_comes_from_the_base_urls_host() -> None:
    settings = Settings.from_env({**BASE, "HEARKEN_BASE_URL": "https://feedback.example.com"})
    assert not settings.sends_mail
    assert settings.mail_sender == "Hearken <hearken@feedback.example.com>"
    chosen = Settings.from_env({**BASE, "HEARKEN_MAIL_FROM": "Acme <noreply@acme.example>"})
    assert chosen.mail_sender == "Acme <noreply@acme.example>"


@pytest.mark.parametrize(
    "header,language",
    [
        ("de-CH,de;q=0.9,en;q=0.8", "de"),
        ("fr-FR,fr;q=0.9,sv;q=0.5,en;q=0.4", "sv"),
        ("en;q=0.1,sv", "sv"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("de;q=abc,sv;q=0.3", "sv"),
    ],
)
def test_a_new_accounts_language_is_the_browsers_first_one_mail_is_written_in(
    header: str | None, language: str
) -> None:
    assert preferred_language(header) == language
