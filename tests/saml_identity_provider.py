"""A real SAML 2.0 identity provider for the tests: pysaml2's IdP side (`saml2.server.Server`) with a key
and certificate made by `cryptography` at start, serving its metadata and a sign-in page over HTTP on
127.0.0.1. A browser brings it an authentication request (HTTP-Redirect binding); the page asks the
address and answers with a form that posts the signed response to the request's assertion consumer
service (HTTP-POST binding), as Okta or Entra do.

Faults are made by the provider itself: the response is built by pysaml2, one field changed, then signed
with the provider's own key, so each refusal comes from exactly that field. `tampered` changes the
address after signing; `unsigned` signs nothing; `foreign_key` signs with a key the metadata never named.
"""

from __future__ import annotations

import base64
import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from saml2 import BINDING_HTTP_REDIRECT, class_name, samlp
from saml2.config import IdPConfig
from saml2.metadata import entity_descriptor
from saml2.s_utils import rndstr
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.sigver import pre_signature_part
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

from app.integrations.saml_service_provider import xmlsec_binary

FAULTS = (
    "tampered",
    "unsigned",
    "foreign_key",
    "audience",
    "recipient",
    "destination",
    "expired",
    "in_response_to",
)


def key_and_certificate(folder: Path, name: str) -> tuple[Path, Path]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = folder / f"{name}.key", folder / f"{name}.crt"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return key_file, cert_file


def _server(base_url: str, key_file: Path, cert_file: Path, trusted: list[str]) -> Server:
    config = IdPConfig()
    config.load(
        {
            "metadata": {"inline": trusted},
            "entityid": f"{base_url}/metadata",
            "xmlsec_binary": xmlsec_binary(),
            "key_file": str(key_file),
            "cert_file": str(cert_file),
            "service": {
                "idp": {
                    "endpoints": {"single_sign_on_service": [(f"{base_url}/sso", BINDING_HTTP_REDIRECT)]},
                    "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                    "policy": {
                        "default": {"lifetime": {"minutes": 5}, "name_form": NAMEID_FORMAT_EMAILADDRESS}
                    },
                }
            },
        }
    )
    return Server(config=config)


@dataclass
class Posted:
    """What the provider's answer page posts to the service provider."""

    acs_url: str
    saml_response: str
    relay_state: str

    def form(self) -> dict[str, str]:
        return {"SAMLResponse": self.saml_response, "RelayState": self.relay_state}


@dataclass
class SamlIdentityProvider:
    base_url: str
    keys: tuple[Path, Path]
    foreign_keys: tuple[Path, Path]
    trusted: list[str] = field(default_factory=list)
    next_fault: str | None = None

    def __post_init__(self) -> None:
        self.trust()

    def trust(self, *sp_metadata: str) -> None:
        """Know these service providers (their metadata, as Hearken serves it) from now on."""
        self.trusted.extend(sp_metadata)
        self.server = _server(self.base_url, *self.keys, self.trusted)
        self.foreign = _server(self.base_url, *self.foreign_keys, self.trusted)

    @property
    def metadata_url(self) -> str:
        return f"{self.base_url}/metadata"

    def metadata(self) -> str:
        return str(entity_descriptor(self.server.config))

    def answer(self, request_url: str, email: str, fault: str | None = None) -> Posted:
        """The response the provider posts back for the authentication request in `request_url`."""
        query = parse_qs(urlsplit(request_url).query)
        request = self.server.parse_authn_request(query["SAMLRequest"][0], BINDING_HTTP_REDIRECT).message
        response = self._response(
            request.id, request.assertion_consumer_service_url, request.issuer.text, email, fault
        )
        relay = query.get("RelayState", [""])[0]
        return Posted(
            request.assertion_consumer_service_url, base64.b64encode(response.encode()).decode(), relay
        )

    def _response(
        self, request_id: str, acs_url: str, sp_entity_id: str, email: str, fault: str | None
    ) -> str:
        xml = self.server.create_authn_response(
            identity={"mail": [email]},
            in_response_to=request_id,
            destination=acs_url,
            sp_entity_id=sp_entity_id,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=email),
            authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"},
            sign_response=False,
            sign_assertion=False,
        )
        response = samlp.response_from_string(str(xml))
        assertion = response.assertion[0] if isinstance(response.assertion, list) else response.assertion
        confirmation = assertion.subject.subject_confirmation[0].subject_confirmation_data
        past = (datetime.now(UTC) - timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
        if fault == "audience":
            assertion.conditions.audience_restriction[0].audience[0].text = "https://another.example/metadata"
        elif fault == "recipient":
            confirmation.recipient = "https://another.example/acs"
        elif fault == "destination":
            response.destination = "https://another.example/acs"
        elif fault == "expired":
            assertion.conditions.not_on_or_after = past
            confirmation.not_on_or_after = past
        elif fault == "in_response_to":
            response.in_response_to = confirmation.in_response_to = "_" + rndstr(32)
        if fault == "unsigned":
            return str(response)
        signer = self.foreign if fault == "foreign_key" else self.server
        if fault == "assertion_signed":  # not a fault: the assertion signed, the response not
            assertion.signature = pre_signature_part(
                assertion.id, signer.sec.my_cert, 1, sign_alg=SIG_RSA_SHA256, digest_alg=DIGEST_SHA256
            )
            return str(signer.sec.sign_statement(str(response), class_name(assertion), node_id=assertion.id))
        response.signature = pre_signature_part(
            response.id, signer.sec.my_cert, 1, sign_alg=SIG_RSA_SHA256, digest_alg=DIGEST_SHA256
        )
        signed = signer.sec.sign_statement(str(response), class_name(response), node_id=response.id)
        if fault == "tampered":
            signed = signed.replace(email, "mallory@" + email.rpartition("@")[2])
        return str(signed)


def _handler(provider: SamlIdentityProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, body: str, content_type: str = "text/html; charset=utf-8") -> None:
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/metadata":
                self._send(provider.metadata(), "application/samlmetadata+xml")
                return
            request_url = html.escape(provider.base_url + self.path)
            self._send(
                "<!doctype html><html lang=en><title>Test identity provider</title>"
                "<h1>Test identity provider</h1>"
                f'<form method=post action="/sign-in"><input type=hidden name=request value="{request_url}">'
                "<label for=email>Email</label> <input id=email name=email type=email>"
                " <button type=submit>Sign in</button></form>"
            )

        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            form = parse_qs(self.rfile.read(length).decode())
            posted = provider.answer(form["request"][0], form["email"][0], provider.next_fault)
            fields = "".join(
                f'<input type=hidden name="{name}" value="{html.escape(value)}">'
                for name, value in posted.form().items()
            )
            self._send(
                "<!doctype html><html lang=en><title>Signing in</title>"
                '<body onload="document.forms[0].submit()">'
                f'<form method=post action="{html.escape(posted.acs_url)}">'
                f"{fields}<button type=submit>Continue</button></form>"
            )

    return Handler


@contextmanager
def running_saml_provider(folder: Path, host: str = "127.0.0.1") -> Iterator[SamlIdentityProvider]:
    """Listening on 127.0.0.1; `host` is the name its URLs use (`localhost` makes it another site than a
    server at 127.0.0.1, as a real provider is)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    base_url = f"http://{host}:{httpd.server_address[1]}"
    provider = SamlIdentityProvider(
        base_url, key_and_certificate(folder, "idp"), key_and_certificate(folder, "foreign")
    )
    httpd.RequestHandlerClass = _handler(provider)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        httpd.shutdown()
        httpd.server_close()
