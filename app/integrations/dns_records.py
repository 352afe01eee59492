"""TXT records of a domain, looked up through the DNS server HEARKEN_DNS_RESOLVER names or else the
system's resolvers: how an organization proves that a single sign-on domain is its own. One lookup takes
five seconds at most; a domain without the record (or without any record) is an empty answer, a server
that does not answer is a failure the admin is told about."""

from __future__ import annotations

import dns.asyncresolver
import dns.exception
import dns.resolver

LOOKUP_SECONDS = 5.0


class DnsFailure(Exception):
    """The DNS could not be asked (no server answered, or none is configured)."""


async def txt_records(domain: str, resolver: tuple[str, int] | None) -> list[str]:
    """Each TXT record at `domain` (IDNA-encoded) as one string, its character-strings joined."""
    try:
        lookup = dns.asyncresolver.Resolver(configure=resolver is None)
    except dns.resolver.NoResolverConfiguration:
        raise DnsFailure("this server has no DNS resolver configured") from None
    if resolver is not None:
        lookup.nameservers, lookup.port = [resolver[0]], resolver[1]
    lookup.lifetime = LOOKUP_SECONDS
    try:
        answer = await lookup.resolve(domain, "TXT", search=False)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except dns.exception.Timeout:
        raise DnsFailure("the DNS did not answer in time") from None
    except dns.exception.DNSException:
        raise DnsFailure("the DNS could not be asked") from None
    return [b"".join(record.strings).decode("utf-8", "replace") for record in answer]
