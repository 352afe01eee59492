"""Response compression for the whole app: brotli where the client accepts it, else gzip.

The widgets are the reason (their byte budget is measured as served, gzipped); lists of the API gain
too. Bodies under MINIMUM_SIZE are sent as they are: small JSON answers and error bodies would only
grow and cost time. A router or route sets the SKIP_COMPRESSION option to bypass the middleware whole.
"""

from __future__ import annotations

from litestar.config.compression import CompressionConfig

MINIMUM_SIZE = 1024
SKIP_COMPRESSION = "skip_compression"

COMPRESSION = CompressionConfig(
    backend="brotli",
    brotli_gzip_fallback=True,
    minimum_size=MINIMUM_SIZE,
    gzip_compress_level=9,
    exclude_opt_key=SKIP_COMPRESSION,
)
