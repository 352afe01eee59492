"""A DNS server on 127.0.0.1 for the tests: answers TXT questions from the records a test sets, NXDOMAIN
for any other name, over UDP, from a thread. Built on dnspython's message API, so the application's
resolver reads real DNS packets (`HEARKEN_DNS_RESOLVER=127.0.0.1:<port>`); nothing reaches the internet."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import dns.flags
import dns.message
import dns.name
import dns.rcode
import dns.rdataclass
import dns.rdatatype
import dns.rrset


@dataclass
class DnsServer:
    address: tuple[str, int]
    records: dict[str, list[str]] = field(default_factory=dict)
    """TXT records by domain name (lower case, without the final dot)."""
    questions: list[str] = field(default_factory=list)

    def publish(self, domain: str, *texts: str) -> None:
        self.records.setdefault(domain.lower().rstrip("."), []).extend(texts)

    def answer(self, wire: bytes) -> bytes:
        query = dns.message.from_wire(wire)
        response = dns.message.make_response(query)
        response.flags |= dns.flags.AA
        question = query.question[0]
        name = question.name.to_text(omit_final_dot=True).lower()
        self.questions.append(name)
        texts = self.records.get(name)
        if texts is None:
            response.set_rcode(dns.rcode.NXDOMAIN)
        elif question.rdtype == dns.rdatatype.TXT:
            quoted = [f'"{text}"' for text in texts]
            response.answer.append(dns.rrset.from_text_list(question.name, 60, "IN", "TXT", quoted))
        return response.to_wire()


@contextmanager
def running_dns_server() -> Iterator[DnsServer]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    server = DnsServer(sock.getsockname())
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                wire, client = sock.recvfrom(4096)
            except TimeoutError:
                continue
            sock.sendto(server.answer(wire), client)

    thread = threading.Thread(target=serve, name="test-dns", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(timeout=5)
        sock.close()
