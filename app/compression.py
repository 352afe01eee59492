"""Response compression for the whole app: brotli where the client accepts it, else gzip.

The widgets are the reason (their byte budget is measured as served, gzipped); lists of the API gain
too. Bodies under MINIMUM_SIZE are sent as they are: the public endpoints' tiny JSON answers and error
bodies would only grow and cost time.
"""

from __future__ import annotations

from litestar.config.compression import CompressionConfig

MINIMUM_SIZE = 1024

COMPRESSION = CompressionConfig(
    backend="brotli",
    brotli_gzip_fallback=True,
    minimum_size=MINIMUM_SIZE,
    gzip_compress_level=9,
    # the public collection endpoints answer a few bytes: skip even the middleware's bookkeeping
    exclude=["^/api/v1/(rating/submit|ratings|feedback/submit|contact/submit)$"],
)
