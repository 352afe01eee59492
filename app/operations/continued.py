"""An answer that starts through the application and goes on outside it.

`app/serving.py` offers it on every HTTP request (the scope key CONTINUED, None); an answer that is to
stay open for a long time (a live stream) sends its start through the application (its checks under the
request deadline, the middleware's headers) and then sets the key to a callable of (receive, send),
which the serving wrapper runs once the application has returned. What the request needed (the
framework's request, middleware frames, the deadline's task) is then let go for the answer's hours.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from litestar.types import Receive, Send

CONTINUED = "hearken_continued"
"""ASGI scope key: None while offered; set to the continuation by the answer that takes the offer."""

Continuation = Callable[[Receive, Send], Awaitable[None]]
