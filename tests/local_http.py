"""One HTTP client for the tests' calls to servers on this machine, shared by every thread.

`httpx.get` and its kind make a client for each call, and each client loads the CA bundle for TLS that
plain local HTTP never uses: about 20 ms of CPU a call. Polling a starting server ten times a second,
that was a fifth of the CPU of the test workers. No connection is kept: a server stopped and started
again on the same port is reached anew."""

from __future__ import annotations

import httpx

local_http = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
