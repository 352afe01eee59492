"""The relying party's half of OpenID Connect: discovery, the authorization code flow with PKCE (S256),
state and nonce, and the ID token's checks (signature against the provider's JWKS, issuer, audience,
authorized party, nonce, expiry). joserfc verifies signatures and claims; httpx talks to the provider.

Each worker keeps the discovery documents and key sets it fetched: a discovery document for an hour, a
key set until a token names a kid it does not hold, when it is fetched once again (the provider rotated
its keys). Every call to a provider has a timeout and its answer a size cap.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import httpx
from joserfc import jwt
from joserfc.errors import ExpiredTokenError, InvalidKeyIdError, JoseError
from joserfc.jwk import KeySet

from app.outgoing_tls import tls_context

TIMEOUT = httpx.Timeout(5.0)
MAX_BODY = 512 * 1024
DISCOVERY_SECONDS = 3600
LEEWAY_SECONDS = 60
"""Clock skew allowed on exp, iat and nbf."""
SCOPES = "openid email profile"
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
"""Asymmetric signatures only: never "none", never a MAC keyed with the client secret."""
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


class SsoFailure(Exception):
    """Sign-in through the provider failed; the message is safe to show (no token, no secret)."""


@dataclass(frozen=True)
class ProviderMetadata:
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    token_auth_methods: tuple[str, ...]


@dataclass(frozen=True)
class Authorization:
    """Where to send the browser, and what the callback must find again in the session."""

    url: str
    state: str
    nonce: str
    code_verifier: str


@dataclass
class OpenIdClient:
    """One per worker: the caches of what providers published."""

    transport: httpx.AsyncBaseTransport | None = None
    _metadata: dict[str, tuple[float, ProviderMetadata]] = field(default_factory=dict)
    _keys: dict[str, KeySet] = field(default_factory=dict)

    async def metadata(self, issuer: str) -> ProviderMetadata:
        """The provider's discovery document, checked to name this very issuer."""
        cached = self._metadata.get(issuer)
        if cached and cached[0] > time.monotonic():
            return cached[1]
        document = await self._get_json(issuer.rstrip("/") + "/.well-known/openid-configuration")
        if document.get("issuer") != issuer:
            raise SsoFailure("the provider's discovery document names another issuer")
        try:
            found = ProviderMetadata(
                issuer=issuer,
                authorization_endpoint=_endpoint(document, "authorization_endpoint"),
                token_endpoint=_endpoint(document, "token_endpoint"),
                jwks_uri=_endpoint(document, "jwks_uri"),
                token_auth_methods=tuple(
                    document.get("token_endpoint_auth_methods_supported") or ("client_secret_basic",)
                ),
            )
        except (TypeError, ValueError):
            raise SsoFailure("the provider's discovery document is incomplete") from None
        self._metadata[issuer] = (time.monotonic() + DISCOVERY_SECONDS, found)
        return found

    async def authorization(
        self, issuer: str, client_id: str, redirect_uri: str, login_hint: str
    ) -> Authorization:
        provider = await self.metadata(issuer)
        state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(64)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": SCOPES,
            "state": state,
            "nonce": nonce,
            "code_challenge": challenge.decode(),
            "code_challenge_method": "S256",
            "login_hint": login_hint,
        }
        separator = "&" if urlsplit(provider.authorization_endpoint).query else "?"
        url = provider.authorization_endpoint + separator + urlencode(query)
        return Authorization(url=url, state=state, nonce=nonce, code_verifier=verifier)

    async def verified_claims(
        self,
        *,
        issuer: str,
        client_id: str,
        client_secret: str,
        redirect_uri: str,
        code: str,
        code_verifier: str,
        nonce: str,
    ) -> dict[str, Any]:
        """Trade the code for tokens and return the ID token's claims once every check passed."""
        provider = await self.metadata(issuer)
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": code_verifier,
        }
        headers = {"accept": "application/json"}
        if "client_secret_basic" in provider.token_auth_methods:
            # RFC 6749 2.3.1: each part form-encoded before the Basic encoding
            pair = f"{quote(client_id, safe='')}:{quote(client_secret, safe='')}".encode()
            headers["authorization"] = "Basic " + base64.b64encode(pair).decode()
        else:
            form |= {"client_id": client_id, "client_secret": client_secret}
        answer = await self._send("POST", provider.token_endpoint, data=form, headers=headers)
        id_token = answer.get("id_token")
        if not isinstance(id_token, str):
            raise SsoFailure("the provider answered without an ID token")
        return await self._checked(provider, id_token, client_id, nonce)

    async def _checked(
        self, provider: ProviderMetadata, id_token: str, client_id: str, nonce: str
    ) -> dict[str, Any]:
        keys = self._keys.get(provider.jwks_uri) or await self._fetch_keys(provider)
        try:
            try:
                token = jwt.decode(id_token, keys, algorithms=ALGORITHMS)
            except InvalidKeyIdError:
                token = jwt.decode(id_token, await self._fetch_keys(provider), algorithms=ALGORITHMS)
        except InvalidKeyIdError:
            raise SsoFailure("the ID token is signed with a key the provider does not publish") from None
        except JoseError:
            raise SsoFailure("the ID token's signature does not verify") from None
        claims = token.claims
        registry = jwt.JWTClaimsRegistry(
            leeway=LEEWAY_SECONDS,
            iss={"essential": True, "value": provider.issuer},
            aud={"essential": True, "value": client_id},
            exp={"essential": True},
            iat={"essential": True},
            sub={"essential": True},
        )
        try:
            registry.validate(claims)
        except ExpiredTokenError:
            raise SsoFailure("the ID token has expired") from None
        except JoseError as exc:
            raise SsoFailure(f"the ID token's {_claim_of(exc)} is wrong") from None
        audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
        if len(audiences) > 1 and claims.get("azp") != client_id:
            raise SsoFailure("the ID token's authorized party is wrong")
        if not isinstance(claims.get("nonce"), str) or not secrets.compare_digest(claims["nonce"], nonce):
            raise SsoFailure("the ID token's nonce is wrong")
        return dict(claims)

    async def _fetch_keys(self, provider: ProviderMetadata) -> KeySet:
        document = await self._get_json(provider.jwks_uri)
        try:
            keys = KeySet.import_key_set(document)  # type: ignore[arg-type]
        except (JoseError, ValueError, KeyError, TypeError):
            raise SsoFailure("the provider's key set cannot be read") from None
        self._keys[provider.jwks_uri] = keys
        return keys

    async def _get_json(self, url: str) -> dict[str, Any]:
        return await self._send("GET", url, headers={"accept": "application/json"})

    async def _send(self, method: str, url: str, **options: Any) -> dict[str, Any]:
        try:
            async with httpx.AsyncClient(
                timeout=TIMEOUT,
                transport=self.transport,
                follow_redirects=False,
                trust_env=False,
                verify=tls_context(),
            ) as client:
                response = await client.request(method, url, **options)
        except httpx.TimeoutException:
            raise SsoFailure("the provider did not answer in time") from None
        except httpx.HTTPError:
            raise SsoFailure("the provider cannot be reached") from None
        if response.status_code != 200:
            raise SsoFailure(f"the provider answered {response.status_code}")
        if len(response.content) > MAX_BODY:
            raise SsoFailure("the provider's answer is too large")
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise SsoFailure("the provider's answer is not a JSON object")
        return body


def _endpoint(document: dict[str, Any], name: str) -> str:
    """An https URL (plain http only on this machine, for a provider under test)."""
    url = document[name]
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is None or not parts.hostname:
        raise ValueError(name)
    if parts.scheme != "https" and not (parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS):
        raise ValueError(name)
    return str(url)


def _claim_of(exc: JoseError) -> str:
    claim = getattr(exc, "claim", None)
    names = {"iss": "issuer", "aud": "audience", "iat": "issue time", "sub": "subject", "nbf": "start time"}
    return names.get(str(claim), "claims")
