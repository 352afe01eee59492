"""A person on a portal: who votes, suggests and comments, identified by the customer's app (a signed
user id or a token) or by an address they confirmed."""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models.idea import PERSON_KEY_LENGTH


@dataclass(frozen=True, slots=True)
class Person:
    key: str
    """"u:" and the customer's user id, or "e:" and a confirmed address in lower case."""
    name: str = ""
    email: str | None = None
    language: str = "en"

    @staticmethod
    def of_user(user_id: str, name: str = "", email: str | None = None, language: str = "en") -> Person:
        return Person(f"u:{user_id}"[:PERSON_KEY_LENGTH], name[:200], _address(email), language)

    @staticmethod
    def of_address(address: str, language: str = "en") -> Person:
        email = address.strip().lower()
        return Person(f"e:{email}"[:PERSON_KEY_LENGTH], email.split("@")[0][:200], email, language)

    @property
    def shown_name(self) -> str:
        return self.name or "Anonymous"


def _address(email: str | None) -> str | None:
    if not email or "@" not in email or len(email) > 320:
        return None
    return email.strip()
