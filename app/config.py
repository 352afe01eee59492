"""Settings read from the environment once, at start; the README lists every variable."""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./var/hearken.db"
DEFAULT_REPLICA_MAX_LAG = 5.0
MIN_SECRET_KEY_BYTES = 32
PLACEHOLDER_MARKERS = ("change-me", "changeme", "replace-me", "placeholder", "your-secret")
"""Words of example keys (deploy/hearken.env.example's among them) that production refuses outright."""
DEFAULT_METRICS_ALLOW = "127.0.0.1,::1"
DEFAULT_WEBHOOK_RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0)
DEFAULT_ATTACHMENT_QUOTA_BYTES = 1024 * 1024 * 1024
DEFAULT_ATTACHMENT_CLIENT_BYTES = 50 * 1024 * 1024
DEFAULT_ATTACHMENT_CLIENT_SECONDS = 86400
DEFAULT_MAIL_RETRY_SCHEDULE = (10.0, 60.0, 300.0, 1800.0, 3600.0, 7200.0, 21600.0, 43200.0)
LOG_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


@dataclass(frozen=True)
class RateLimit:
    """A budget of `requests` per `seconds`."""

    requests: int
    seconds: int

    @classmethod
    def parse(cls, text: str, variable: str) -> RateLimit:
        try:
            requests, seconds = (int(part) for part in text.split("/"))
        except ValueError:
            raise ValueError(f"{variable} must look like 30/60 (requests/seconds), got {text!r}") from None
        if requests < 1 or seconds < 1:
            raise ValueError(f"{variable} must have positive requests and seconds, got {text!r}")
        return cls(requests, seconds)


@dataclass(frozen=True)
class Settings:
    env: str = "development"
    database_url: str = DEFAULT_DATABASE_URL
    database_replica_urls: tuple[str, ...] = field(default=(), repr=False)
    """PostgreSQL streaming replicas that serve the lists, statistics and exports of the API and the
    console (HEARKEN_DATABASE_REPLICA_URLS, separated by commas). Never printed: they may hold passwords."""
    database_replica_max_lag: float = DEFAULT_REPLICA_MAX_LAG
    """Seconds a replica may lag behind the primary before its reads go to the primary again."""
    secret_key: str = ""
    redis_url: str | None = None
    redis_prefix: str = "hearken:"
    live_streams_per_person: int = 10
    """Live streams (Server-Sent Events) one person or member may hold open in one process."""
    live_streams_per_project: int = 2000
    """Live streams of one project's people and members in one process."""
    live_streams_per_process: int = 10000
    """Live streams one process holds in all (each costs a socket and a few kilobytes)."""
    host: str = "127.0.0.1"
    port: int = 8000
    base_url: str = "http://127.0.0.1:8000"
    rate_limit_client: RateLimit = RateLimit(30, 60)
    rate_limit_project: RateLimit = RateLimit(6000, 60)
    rate_limit_mcp: RateLimit = RateLimit(120, 60)
    """MCP tool calls per token."""
    rate_limit_scim: RateLimit = RateLimit(600, 60)
    """SCIM requests per SCIM token (an identity provider's first sync sends many at once)."""
    rate_limit_oauth_registration: RateLimit = RateLimit(60, 3600)
    """OAuth client registrations (anyone may register) per client address."""
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(default_factory=tuple)
    metrics_allow: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(
        default_factory=lambda: _networks(DEFAULT_METRICS_ALLOW)
    )
    """Clients that may read /metrics (HEARKEN_METRICS_ALLOW, a list of networks)."""
    openapi: bool | None = None
    """Serve the OpenAPI document at /schema; None: everywhere but in production."""
    webhook_retry_schedule: tuple[float, ...] = DEFAULT_WEBHOOK_RETRY_SCHEDULE
    """Seconds to wait before each retry of a failed delivery; after the last one it is failed."""
    webhook_allow_private: bool = False
    """In production, let webhook URLs reach loopback, private and link-local addresses."""
    outbox_poll_seconds: float = 1.0
    """How often an idle dispatcher looks for due work (work queued by its own process starts at once)."""
    mintlify_api_url: str = "https://api.mintlify.com"
    mintlify_sync_seconds: int = 3600
    github_api_url: str = "https://api.github.com"
    linear_api_url: str = "https://api.linear.app"
    stripe_api_url: str = "https://api.stripe.com"
    """Where thank-you discounts are applied to Stripe subscriptions."""
    polar_api_url: str = "https://api.polar.sh"
    """Where thank-you discounts are applied to Polar subscriptions."""
    periodic_jobs: bool = True
    """Run retention, digests and imports beside the requests (HEARKEN_PERIODIC_JOBS=off: this process
    only serves; the outbox dispatcher runs regardless)."""
    smtp_url: str | None = field(default=None, repr=False)
    """smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (implicit TLS); None: mail goes to
    the log. Never printed: it holds the SMTP password."""
    mail_from: str = ""
    """The From address of every mail; empty: hearken@ the base URL's host."""
    mail_retry_schedule: tuple[float, ...] = DEFAULT_MAIL_RETRY_SCHEDULE
    """Seconds to wait before each retry of a mail the SMTP server did not take; after the last it fails."""

    log_level: int = logging.INFO
    """The lowest level written to the log (HEARKEN_LOG_LEVEL); `debug` adds the access lines of public
    submissions, widget files, preflights and probes."""

    embeddings: str = "local"
    """Where feedback vectors come from: `local` (the model shipped with Hearken, in-process), `off`, or
    the base URL of an OpenAI-compatible embeddings service."""
    embeddings_model: str | None = None
    """The service's model name; with `local`, another model file of the local engine's format."""
    attachment_quota_bytes: int = DEFAULT_ATTACHMENT_QUOTA_BYTES
    """The bytes of images each project may store (HEARKEN_ATTACHMENT_QUOTA_MB, in megabytes)."""
    dns_resolver: tuple[str, int] | None = None
    """The DNS server (address, port) that looks up the TXT records proving single sign-on domains
    (HEARKEN_DNS_RESOLVER, `host:port`); None: the system's resolvers."""
    attachment_client_bytes: int = DEFAULT_ATTACHMENT_CLIENT_BYTES
    """The bytes of images one client address may store in one project per window
    (HEARKEN_ATTACHMENT_CLIENT_MB): a small share of the quota, so one visitor cannot fill it."""
    attachment_client_seconds: int = DEFAULT_ATTACHMENT_CLIENT_SECONDS
    """That window, in seconds (HEARKEN_ATTACHMENT_CLIENT_WINDOW)."""

    @property
    def is_production(self) -> bool:
        return self.env == "production"

    @property
    def serves_openapi(self) -> bool:
        return self.openapi if self.openapi is not None else not self.is_production

    @property
    def webhooks_reach_private_addresses(self) -> bool:
        """Outside production anything goes (tests and local receivers); in production only when allowed."""
        return not self.is_production or self.webhook_allow_private

    @property
    def sends_mail(self) -> bool:
        """Mail goes out through SMTP; without it, it is written to the log (a self-hosted single install)."""
        return self.smtp_url is not None

    @property
    def mail_sender(self) -> str:
        return self.mail_from or f"Hearken <hearken@{urlsplit(self.base_url).hostname or 'localhost'}>"

    def metrics_allowed(self, client: str) -> bool:
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return False
        return any(address in network for network in self.metrics_allow)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)
        mode = env.get("HEARKEN_ENV", "development")
        host = env.get("HEARKEN_HOST", "127.0.0.1")
        port = int(env.get("HEARKEN_PORT", "8000"))
        database_url = env.get("HEARKEN_DATABASE_URL", DEFAULT_DATABASE_URL)
        return cls(
            env=mode,
            openapi=_switch(env.get("HEARKEN_OPENAPI"), "HEARKEN_OPENAPI"),
            database_url=database_url,
            database_replica_urls=_replica_urls(env.get("HEARKEN_DATABASE_REPLICA_URLS"), database_url),
            database_replica_max_lag=_seconds(
                env.get("HEARKEN_DATABASE_REPLICA_MAX_LAG"), "HEARKEN_DATABASE_REPLICA_MAX_LAG"
            ),
            secret_key=_secret_key(env.get("HEARKEN_SECRET_KEY"), production=mode == "production"),
            redis_url=env.get("HEARKEN_REDIS_URL") or None,
            redis_prefix=env.get("HEARKEN_REDIS_PREFIX", "hearken:"),
            live_streams_per_person=_count(
                env.get("HEARKEN_LIVE_STREAMS_PER_PERSON", "10"), "HEARKEN_LIVE_STREAMS_PER_PERSON"
            ),
            live_streams_per_project=_count(
                env.get("HEARKEN_LIVE_STREAMS_PER_PROJECT", "2000"), "HEARKEN_LIVE_STREAMS_PER_PROJECT"
            ),
            live_streams_per_process=_count(
                env.get("HEARKEN_LIVE_STREAMS_PER_PROCESS", "10000"), "HEARKEN_LIVE_STREAMS_PER_PROCESS"
            ),
            host=host,
            port=port,
            base_url=(env.get("HEARKEN_BASE_URL") or f"http://{host}:{port}").rstrip("/"),
            rate_limit_client=RateLimit.parse(
                env.get("HEARKEN_RATE_LIMIT_CLIENT", "30/60"), "HEARKEN_RATE_LIMIT_CLIENT"
            ),
            rate_limit_project=RateLimit.parse(
                env.get("HEARKEN_RATE_LIMIT_PROJECT", "6000/60"), "HEARKEN_RATE_LIMIT_PROJECT"
            ),
            rate_limit_mcp=RateLimit.parse(
                env.get("HEARKEN_RATE_LIMIT_MCP", "120/60"), "HEARKEN_RATE_LIMIT_MCP"
            ),
            rate_limit_scim=RateLimit.parse(
                env.get("HEARKEN_RATE_LIMIT_SCIM", "600/60"), "HEARKEN_RATE_LIMIT_SCIM"
            ),
            rate_limit_oauth_registration=RateLimit.parse(
                env.get("HEARKEN_RATE_LIMIT_OAUTH_REGISTRATION", "60/3600"),
                "HEARKEN_RATE_LIMIT_OAUTH_REGISTRATION",
            ),
            trusted_proxies=tuple(
                ipaddress.ip_network(item.strip(), strict=False)
                for item in env.get("HEARKEN_TRUSTED_PROXIES", "").split(",")
                if item.strip()
            ),
            metrics_allow=_networks(env.get("HEARKEN_METRICS_ALLOW", DEFAULT_METRICS_ALLOW)),
            webhook_retry_schedule=_seconds_list(
                env.get("HEARKEN_WEBHOOK_RETRY_SCHEDULE"), "HEARKEN_WEBHOOK_RETRY_SCHEDULE"
            ),
            webhook_allow_private=env.get("HEARKEN_WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true", "yes"),
            outbox_poll_seconds=float(env.get("HEARKEN_OUTBOX_POLL_SECONDS", "1")),
            mintlify_api_url=env.get("HEARKEN_MINTLIFY_API_URL", "https://api.mintlify.com").rstrip("/"),
            github_api_url=env.get("HEARKEN_GITHUB_API_URL", "https://api.github.com").rstrip("/"),
            linear_api_url=env.get("HEARKEN_LINEAR_API_URL", "https://api.linear.app").rstrip("/"),
            stripe_api_url=env.get("HEARKEN_STRIPE_API_URL", "https://api.stripe.com").rstrip("/"),
            polar_api_url=env.get("HEARKEN_POLAR_API_URL", "https://api.polar.sh").rstrip("/"),
            mintlify_sync_seconds=_positive(
                env.get("HEARKEN_MINTLIFY_SYNC_SECONDS", "3600"), "HEARKEN_MINTLIFY_SYNC_SECONDS"
            ),
            periodic_jobs=_switch(env.get("HEARKEN_PERIODIC_JOBS"), "HEARKEN_PERIODIC_JOBS") is not False,
            smtp_url=_smtp_url(env.get("HEARKEN_SMTP_URL")),
            mail_from=env.get("HEARKEN_MAIL_FROM", "").strip(),
            log_level=_log_level(env.get("HEARKEN_LOG_LEVEL")),
            embeddings=_embeddings(env.get("HEARKEN_EMBEDDINGS", "local")),
            embeddings_model=env.get("HEARKEN_EMBEDDINGS_MODEL") or None,
            attachment_quota_bytes=_megabytes(
                env.get("HEARKEN_ATTACHMENT_QUOTA_MB"), "HEARKEN_ATTACHMENT_QUOTA_MB"
            ),
            attachment_client_bytes=_megabytes(
                env.get("HEARKEN_ATTACHMENT_CLIENT_MB"),
                "HEARKEN_ATTACHMENT_CLIENT_MB",
                DEFAULT_ATTACHMENT_CLIENT_BYTES,
            ),
            attachment_client_seconds=_positive(
                env.get("HEARKEN_ATTACHMENT_CLIENT_WINDOW", str(DEFAULT_ATTACHMENT_CLIENT_SECONDS)),
                "HEARKEN_ATTACHMENT_CLIENT_WINDOW",
            ),
            mail_retry_schedule=_seconds_list(
                env.get("HEARKEN_MAIL_RETRY_SCHEDULE"),
                "HEARKEN_MAIL_RETRY_SCHEDULE",
                DEFAULT_MAIL_RETRY_SCHEDULE,
            ),
            dns_resolver=_dns_resolver(env.get("HEARKEN_DNS_RESOLVER")),
        )


def _dns_resolver(text: str | None) -> tuple[str, int] | None:
    """`127.0.0.1:5353`, `[::1]:53`, or an address alone (port 53): an IP address, since the resolver is
    what would turn a name into one."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    host, port = text, "53"
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or "53"
    elif text.count(":") == 1:
        host, port = text.split(":")
    try:
        address = ipaddress.ip_address(host)
        number = int(port)
    except ValueError:
        raise ValueError(
            f"HEARKEN_DNS_RESOLVER must be an IP address and port (host:port), got {text!r}"
        ) from None
    if not 0 < number < 65536:
        raise ValueError(f"HEARKEN_DNS_RESOLVER has a port out of range, got {text!r}")
    return str(address), number


def _smtp_url(text: str | None) -> str | None:
    """Checked at start (a typo should not wait for the first mail to show); the error never repeats the
    URL, which holds the password."""
    if text is None or not text.strip():
        return None
    parts = urlsplit(text.strip())
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("HEARKEN_SMTP_URL must look like smtp://user:password@host:port or smtps://...")
    try:
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError:
        raise ValueError("HEARKEN_SMTP_URL has a port that is not a number") from None
    return text.strip()


def _replica_urls(text: str | None, database_url: str) -> tuple[str, ...]:
    """Each replica with the primary's driver: `postgresql://host/db` is read as the primary's
    `postgresql+psycopg://`. The error never repeats a URL: it may hold a password."""
    if text is None or not text.strip():
        return ()
    primary_scheme = database_url.split("://", 1)[0]
    if not primary_scheme.startswith("postgresql"):
        raise ValueError("HEARKEN_DATABASE_REPLICA_URLS needs a PostgreSQL HEARKEN_DATABASE_URL")
    urls = []
    for item in text.split(","):
        scheme, separator, rest = item.strip().partition("://")
        if not separator or scheme not in ("postgres", "postgresql", primary_scheme) or not rest:
            raise ValueError(
                "HEARKEN_DATABASE_REPLICA_URLS must be PostgreSQL URLs separated by commas "
                "(postgresql://user@host:port/database)"
            )
        urls.append(f"{primary_scheme}://{rest}")
    return tuple(urls)


def _seconds(text: str | None, variable: str, default: float = DEFAULT_REPLICA_MAX_LAG) -> float:
    if text is None or not text.strip():
        return default
    try:
        value = float(text.strip().removesuffix("s"))
    except ValueError:
        raise ValueError(f"{variable} must be a number of seconds, got {text!r}") from None
    if value <= 0:
        raise ValueError(f"{variable} must be more than 0, got {text!r}")
    return value


def _megabytes(text: str | None, variable: str, default: int = DEFAULT_ATTACHMENT_QUOTA_BYTES) -> int:
    if not text:
        return default
    try:
        megabytes = int(text)
    except ValueError:
        raise ValueError(f"{variable} must be a whole number of megabytes, got {text!r}") from None
    if megabytes < 0:
        raise ValueError(f"{variable} must not be negative, got {text!r}")
    return megabytes * 1024 * 1024


def _log_level(text: str | None) -> int:
    if text is None or not text.strip():
        return logging.INFO
    level = LOG_LEVELS.get(text.strip().lower())
    if level is None:
        raise ValueError(f"HEARKEN_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {text!r}")
    return level


def _embeddings(text: str) -> str:
    value = text.strip()
    if value in ("local", "off"):
        return value
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            "HEARKEN_EMBEDDINGS must be local, off or the http(s) base URL of an embeddings service"
        )
    return value.rstrip("/")


def _networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in text.split(",") if item.strip())


def _seconds_list(
    text: str | None, variable: str, default: tuple[float, ...] = DEFAULT_WEBHOOK_RETRY_SCHEDULE
) -> tuple[float, ...]:
    if text is None or not text.strip():
        return default
    try:
        delays = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"{variable} must be seconds separated by commas, got {text!r}") from None
    if any(delay < 0 for delay in delays):
        raise ValueError(f"{variable} must not hold negative delays, got {text!r}")
    return delays


def _count(text: str, variable: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{variable} must be a whole number of at least 1, got {text!r}")
    return int(text)


def _positive(text: str, variable: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{variable} must be a whole number of seconds, got {text!r}") from None
    if value < 1:
        raise ValueError(f"{variable} must be at least 1, got {text!r}")
    return value


def _secret_key(configured: str | None, *, production: bool) -> str:
    """Use the configured key; outside production, generate one once into ./var/secret_key."""
    if production:
        _check_production_key(configured)
    if configured:
        return configured
    path = Path("var/secret_key")
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker wrote it first
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def _switch(text: str | None, variable: str) -> bool | None:
    if text is None or not text.strip():
        return None
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{variable} must be on or off, got {text!r}")


def _check_production_key(key: str | None) -> None:
    """Sessions and CSRF tokens are signed with keys derived from this one: a copied example or a short
    key would let anyone forge them."""
    if not key:
        raise RuntimeError("HEARKEN_SECRET_KEY is required when HEARKEN_ENV=production")
    if any(marker in key.lower() for marker in PLACEHOLDER_MARKERS):
        raise RuntimeError("HEARKEN_SECRET_KEY is still an example placeholder; generate a random key")
    if len(key.encode()) < MIN_SECRET_KEY_BYTES:
        raise RuntimeError(f"HEARKEN_SECRET_KEY must be at least {MIN_SECRET_KEY_BYTES} bytes in production")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()
