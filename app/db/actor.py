"""Who is acting in the current request, for the audit log: set by the API's and the console's
authentication, read when a change is recorded. Outside a request (the command line, periodic jobs)
it is "system"."""

from __future__ import annotations

from contextvars import ContextVar

SYSTEM = "system"

current_actor: ContextVar[str] = ContextVar("hearken_actor", default=SYSTEM)
