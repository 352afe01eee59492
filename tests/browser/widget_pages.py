"""Host pages that embed the widgets the way a customer would: script tags with data- attributes,
the customer's own script from its own origin, and by default a strict Content-Security-Policy."""

from __future__ import annotations

import html
import itertools
from dataclasses import dataclass

from tests.browser.harness import HostPages, LiveServer
from tests.factories import Tenant

_pages = itertools.count(1)


def strict_csp(*api_origins: str) -> str:
    """No inline script or style anywhere; scripts and requests only where the test allows."""
    sources = " ".join(api_origins)
    return (
        f"default-src 'none'; script-src 'self' {sources}; connect-src {sources}; style-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'"
    )


@dataclass
class Site:
    """A customer site on the host origin, with its own Hearken project."""

    server: LiveServer
    host: HostPages
    tenant: Tenant

    def tag(self, widget: str, **data: str) -> str:
        attrs = "".join(
            f' data-{name.replace("_", "-")}="{html.escape(value)}"' for name, value in data.items()
        )
        src = f"{self.server.base_url}/static/widgets/v1/{widget}.js"
        return f'<script src="{src}" data-project-key="{self.tenant.project_key}"{attrs}></script>'

    def page(
        self,
        body: str,
        *,
        script: str = "",
        css: str = "",
        csp: str | None = None,
        folder: str = "/docs",
    ) -> str:
        """Serve a page with `body`, the site's own `script` and `css` files, and return its URL.

        The page path is unique (and lives under `folder`) so that stored rows can be matched to it."""
        number = next(_pages)
        path = f"{folder}/page-{number}"
        extras = ""
        if css:
            self.host.add(f"{path}.css", css, content_type="text/css")
            extras += f'<link rel="stylesheet" href="{path}.css">'
        after = ""
        if script:
            self.host.add(f"{path}.js", script, content_type="text/javascript")
            after = f'<script src="{path}.js"></script>'
        document = (
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page {number}</title>{extras}'
            f"</head><body><h1>Docs page {number}</h1>{body}{after}</body></html>"
        )
        headers = {"Content_Security_Policy": csp if csp is not None else strict_csp(self.server.base_url)}
        return self.host.add(path, document, **headers)
