"""The service provider's half of SAML 2.0, on pysaml2: this server's metadata, the authentication
request (HTTP-Redirect binding) and the response posted back to the assertion consumer service
(HTTP-POST binding).

pysaml2 parses with defusedxml (no DTDs, no entities, so neither entity-expansion bombs nor external
entities) and has the `xmlsec1` program check signatures against the certificates of the identity
provider's metadata only. A response is accepted when the response or its assertion is signed, its
audience is this server's entity id, its destination and its recipient are this organization's assertion
consumer service, it answers the request this browser started (`InResponseTo`) and it has not expired
(`NotOnOrAfter`, a minute of clock skew allowed). Using an assertion once is the caller's part (it needs
the database). pysaml2 is blocking (it runs xmlsec1 as a process), so every call runs on a thread.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import calendar
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT, SAMLError
from saml2.client import Saml2Client
from saml2.config import SPConfig
from saml2.metadata import entity_descriptor
from saml2.response import StatusError
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS
from saml2.time_util import str_to_time

MAX_METADATA_BYTES = 512 * 1024
MAX_RESPONSE_BYTES = 256 * 1024
"""The largest SAMLResponse accepted (base64): a real one with a certificate is a few kilobytes."""
CLOCK_SKEW_SECONDS = 60
MD_NS = "{urn:oasis:names:tc:SAML:2.0:metadata}"
EMAIL_ATTRIBUTES = ("email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3")
"""Where an address is looked for when the NameID is not one (the last is `mail`'s OID name)."""


class SamlFailure(Exception):
    """The metadata or the response cannot be used; the message is safe to show."""


@dataclass(frozen=True)
class ServiceProvider:
    """This server as one organization's service provider."""

    entity_id: str
    """The URL of its metadata, as identity providers know it."""
    acs_url: str


@dataclass(frozen=True)
class SignInRequest:
    request_id: str
    url: str
    """Where to send the browser: the identity provider's sign-in service, the request in the query."""


@dataclass(frozen=True)
class Assertion:
    """What a verified response vouches for."""

    assertion_id: str
    email: str
    expires_at: datetime


def xmlsec_binary() -> str:
    found = shutil.which("xmlsec1")
    if found is None:
        raise SamlFailure("the xmlsec1 program is not installed on this server (Debian: xmlsec1)")
    return found


def identity_provider_entity_id(metadata: str) -> str:
    """The entity id of the identity provider the metadata describes, after checking that it is one
    this server can use: well-formed XML without DTD or entities, one identity provider with a
    sign-in service for the HTTP-Redirect binding and a signing certificate."""
    if len(metadata.encode()) > MAX_METADATA_BYTES:
        raise SamlFailure(f"the metadata is larger than {MAX_METADATA_BYTES // 1024} KiB")
    try:
        root = fromstring(metadata.encode(), forbid_dtd=True)
    except DefusedXmlException:
        raise SamlFailure("the metadata holds a DTD or entity declarations, which are refused") from None
    except Exception:  # ParseError and the like: whatever the parser found, the XML is not usable
        raise SamlFailure("the metadata is not well-formed XML") from None
    descriptors = (
        [root] if root.tag == MD_NS + "EntityDescriptor" else root.findall(MD_NS + "EntityDescriptor")
    )
    idps = [d for d in descriptors if d.find(MD_NS + "IDPSSODescriptor") is not None]
    if len(idps) != 1:
        raise SamlFailure("the metadata must describe exactly one identity provider (IDPSSODescriptor)")
    entity_id = idps[0].get("entityID") or ""
    if not entity_id or len(entity_id) > 500:
        raise SamlFailure("the identity provider has no entityID (or one over 500 characters)")
    descriptor = idps[0].find(MD_NS + "IDPSSODescriptor")
    assert descriptor is not None
    services = descriptor.findall(MD_NS + "SingleSignOnService")
    if not any(s.get("Binding") == BINDING_HTTP_REDIRECT and s.get("Location") for s in services):
        raise SamlFailure(
            "the identity provider offers no SingleSignOnService with the HTTP-Redirect binding"
        )
    keys = descriptor.findall(MD_NS + "KeyDescriptor")
    if not any(k.get("use") in (None, "signing") for k in keys):
        raise SamlFailure("the metadata names no signing certificate of the identity provider")
    try:
        _client(ServiceProvider("https://check.invalid/metadata", "https://check.invalid/acs"), metadata)
    except (SAMLError, ValueError, TypeError) as exc:
        raise SamlFailure(f"pysaml2 cannot read the metadata ({exc.__class__.__name__})") from None
    return entity_id


def service_provider_metadata(sp: ServiceProvider) -> str:
    """This server's SP metadata: its entity id, its assertion consumer service and an email address
    as NameID. It cannot say "the response or the assertion signed"; the checks here require that."""
    config = SPConfig()
    config.load(_config(sp, None))
    return str(entity_descriptor(config))


async def sign_in_request(sp: ServiceProvider, metadata: str, request_id: str) -> SignInRequest:
    """An authentication request with this id (the response must answer it), by the HTTP-Redirect
    binding."""
    return await asyncio.to_thread(_sign_in_request, sp, metadata, request_id)


async def verified_assertion(
    sp: ServiceProvider, metadata: str, saml_response: str, started_here: Callable[[str], bool]
) -> tuple[str, Assertion]:
    """The request the response answers (`InResponseTo`, which `started_here` must accept) and the
    assertion, or SamlFailure."""
    return await asyncio.to_thread(_verified_assertion, sp, metadata, saml_response, started_here)


def _sign_in_request(sp: ServiceProvider, metadata: str, request_id: str) -> SignInRequest:
    client = _client(sp, metadata)
    [idp] = client.metadata.identity_providers()
    sent_id, info = client.prepare_for_authenticate(
        entityid=idp, binding=BINDING_HTTP_REDIRECT, message_id=request_id
    )
    location = dict(info["headers"])["Location"]
    return SignInRequest(request_id=str(sent_id), url=location)


def _verified_assertion(
    sp: ServiceProvider, metadata: str, saml_response: str, started_here: Callable[[str], bool]
) -> tuple[str, Assertion]:
    if len(saml_response) > MAX_RESPONSE_BYTES:
        raise SamlFailure("the response is too large")
    try:
        xml = base64.b64decode(saml_response, validate=True)
    except (binascii.Error, ValueError):
        raise SamlFailure("the response is not base64") from None
    try:
        root = fromstring(xml, forbid_dtd=True)
    except DefusedXmlException:
        raise SamlFailure("the response holds a DTD or entity declarations, which are refused") from None
    except Exception:  # ParseError and the like
        raise SamlFailure("the response is not well-formed XML") from None
    request_id = root.get("InResponseTo") or ""
    if not started_here(request_id):
        raise SamlFailure(_reason_of("UnsolicitedResponse"))
    client = _client(sp, metadata)
    try:
        parsed = client.parse_authn_request_response(
            saml_response, BINDING_HTTP_POST, outstanding={request_id: "/"}
        )
    except StatusError as exc:
        raise SamlFailure(f"the identity provider did not sign you in ({_short(exc)})") from None
    except Exception as exc:  # pysaml2 raises many kinds, and each one refuses the response
        raise SamlFailure(_reason(exc)) from None
    if parsed is None:
        raise SamlFailure("the response carries no assertion")
    if parsed.response.destination != sp.acs_url:
        raise SamlFailure("the response is addressed to another destination")
    assertion = parsed.assertion
    confirmations = assertion.subject.subject_confirmation if assertion.subject else []
    recipients = [
        c.subject_confirmation_data.recipient if c.subject_confirmation_data else None for c in confirmations
    ]
    if not recipients or any(recipient != sp.acs_url for recipient in recipients):
        raise SamlFailure("the assertion is meant for another recipient")
    return request_id, Assertion(
        assertion_id=str(assertion.id), email=_email(parsed), expires_at=_expires_at(assertion)
    )


REASONS = {
    "SignatureError": "the signature does not verify against the identity provider's certificate",
    "UnsolicitedResponse": "the response does not answer a sign-in started here (InResponseTo)",
    "ResponseLifetimeExceed": "the response has expired",
    "ToEarly": "the response is not valid yet",
}


def _reason_of(name: str) -> str:
    return REASONS[name]


def _reason(exc: Exception) -> str:
    """What failed, in words an admin can act on; pysaml2's own messages may quote the XML."""
    name = exc.__class__.__name__
    if name in REASONS:
        return REASONS[name]
    text = str(exc).lower()
    if "signed" in text or "signature" in text:
        return "the response and its assertion are not signed by the identity provider"
    if "audience" in text:
        return "the assertion is meant for another service provider (audience)"
    if "destination" in text or "return addresses" in text:
        return "the response is addressed to another destination"
    if "condition" in text or "time" in text or "not_on_or_after" in text or "expired" in text:
        return "the assertion has expired or is not valid yet"
    return f"the response is not acceptable ({name})"


def _short(exc: Exception) -> str:
    return str(exc)[:100]


def _email(parsed: Any) -> str:
    name_id = parsed.assertion.subject.name_id if parsed.assertion.subject else None
    if name_id is not None and name_id.format == NAMEID_FORMAT_EMAILADDRESS and name_id.text:
        return str(name_id.text).strip()
    attributes: dict[str, list[str]] = parsed.ava or {}
    for name in EMAIL_ATTRIBUTES:
        values = attributes.get(name)
        if values:
            return str(values[0]).strip()
    raise SamlFailure(
        "the assertion names no email address (NameID format emailAddress or an email attribute)"
    )


def _expires_at(assertion: Any) -> datetime:
    """The latest moment the assertion could still be accepted: its NotOnOrAfter (the conditions' or
    the subject confirmation's), plus the clock skew allowed."""
    moments = []
    if assertion.conditions is not None and assertion.conditions.not_on_or_after:
        moments.append(assertion.conditions.not_on_or_after)
    for confirmation in assertion.subject.subject_confirmation if assertion.subject else []:
        data = confirmation.subject_confirmation_data
        if data is not None and data.not_on_or_after:
            moments.append(data.not_on_or_after)
    if not moments:
        raise SamlFailure("the assertion has no NotOnOrAfter")
    latest = max(datetime.fromtimestamp(_epoch(moment), UTC) for moment in moments)
    return latest + timedelta(seconds=CLOCK_SKEW_SECONDS)


def _epoch(moment: str) -> float:
    return float(calendar.timegm(str_to_time(moment)))


def _config(sp: ServiceProvider, metadata: str | None) -> dict[str, Any]:
    config: dict[str, Any] = {
        "entityid": sp.entity_id,
        "xmlsec_binary": xmlsec_binary(),
        "accepted_time_diff": CLOCK_SKEW_SECONDS,
        "allow_unknown_attributes": True,
        "service": {
            "sp": {
                "endpoints": {"assertion_consumer_service": [(sp.acs_url, BINDING_HTTP_POST)]},
                "allow_unsolicited": False,
                "authn_requests_signed": False,
                "want_response_signed": False,
                "want_assertions_signed": False,
                "want_assertions_or_response_signed": True,
                "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                "name_id_format_allow_create": True,
            }
        },
    }
    if metadata is not None:
        config["metadata"] = {"inline": [metadata]}
    return config


def _client(sp: ServiceProvider, metadata: str) -> Saml2Client:
    config = SPConfig()
    config.load(_config(sp, metadata))
    return Saml2Client(config=config)
