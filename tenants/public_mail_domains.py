"""Mail domains where anyone can get an address: no organization may claim one for single sign-on, since
its provider would then vouch for strangers. A short list of the large ones; a domain missing here still
has to be proven by a DNS record its owner alone can publish."""

from __future__ import annotations

PUBLIC_MAIL_DOMAINS = frozenset(
    {
        "163.com",
        "126.com",
        "aol.com",
        "fastmail.com",
        "gmail.com",
        "gmx.at",
        "gmx.ch",
        "gmx.com",
        "gmx.de",
        "gmx.net",
        "googlemail.com",
        "hey.com",
        "hotmail.com",
        "hotmail.co.uk",
        "icloud.com",
        "live.com",
        "mac.com",
        "mail.com",
        "mail.ru",
        "me.com",
        "msn.com",
        "naver.com",
        "outlook.com",
        "pm.me",
        "proton.me",
        "protonmail.com",
        "qq.com",
        "t-online.de",
        "tutanota.com",
        "web.de",
        "yahoo.co.jp",
        "yahoo.co.uk",
        "yahoo.com",
        "yahoo.de",
        "yandex.com",
        "yandex.ru",
        "zoho.com",
    }
)


def is_public_mail_domain(domain: str) -> bool:
    """`domain` lower case and IDNA-encoded, as single sign-on keeps it."""
    return domain in PUBLIC_MAIL_DOMAINS
