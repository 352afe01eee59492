"""How a decoded image is written for storage: compactly, and never much larger than the file sent.

A re-encode can be far larger than its upload: a 1-bit 6000 x 6000 PNG of 4.5 MB, written as RGB, took
42.7 MB, so two dozen requests filled a project's quota. So the mode the pixels need is kept (1-bit,
grey, palette; alpha only when a pixel uses it), and what is stored may be at most `stored_limit` of the
upload. An encoding over it gives way to a more compact one (a palette, a lower quality, JPEG or WebP);
when none fits, the caller refuses the image.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO

from PIL import Image

STORED_FLOOR_BYTES = 512 * 1024
"""What any image may take stored, however small its upload (a tiny file may grow a little)."""
STORED_GROWTH = 2
"""How many times its upload an image may take stored, above the floor."""
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
"""The formats accepted and stored, and the type each is served as."""


@dataclass(frozen=True, slots=True)
class Encoded:
    content_type: str
    data: bytes


def stored_limit(upload_bytes: int) -> int:
    return max(STORED_GROWTH * upload_bytes, STORED_FLOOR_BYTES)


def stored_mode(image: Image.Image, kind: str) -> str:
    """The mode the image is stored in: its own where its format writes it compactly, alpha only when a
    pixel is not opaque. A colour key (`transparency`) is kept with a mode that has one."""
    if kind == "JPEG":
        return "L" if image.mode == "L" else "RGB"
    if image.mode in ("RGBA", "LA"):
        alpha_used = image.getchannel("A").getextrema()[0] < 255
        return image.mode if alpha_used else image.mode[:-1]
    if kind == "PNG" and image.mode in ("1", "L", "P", "RGB"):
        return image.mode
    return "RGBA" if "transparency" in image.info else "RGB"


def compact_encoding(pixels: Image.Image, kind: str, limit: int) -> Encoded | None:
    """The first encoding of `pixels` within `limit` bytes, most faithful first; None when none fits.
    Each is made only if the one before did not fit."""
    for encoded in _encodings(pixels, kind):
        if len(encoded.data) <= limit:
            return encoded
    return None


def _encodings(pixels: Image.Image, kind: str) -> Iterator[Encoded]:
    if kind == "JPEG":
        for quality in (85, 65, 45):
            yield _jpeg(pixels, quality)
        return
    if kind == "WEBP":
        yield _webp(pixels, quality=85)
        yield _webp(pixels, lossless=True)
        yield _webp(pixels, quality=50)
        return
    yield _png(pixels)
    if pixels.mode in ("RGB", "RGBA", "LA"):
        yield _png(_palette(pixels))
    if pixels.mode in ("RGBA", "LA") or "transparency" in pixels.info:
        yield _webp(pixels, quality=85)  # a photo with alpha: lossy, alpha kept
    else:
        yield _jpeg(pixels, 85)  # an opaque photo


def _png(pixels: Image.Image) -> Encoded:
    out = BytesIO()
    pixels.save(out, "PNG", compress_level=6)
    return Encoded(CONTENT_TYPES["PNG"], out.getvalue())


def _jpeg(pixels: Image.Image, quality: int) -> Encoded:
    grey = pixels.mode in ("1", "L")
    out = BytesIO()
    pixels.convert("L" if grey else "RGB").save(out, "JPEG", quality=quality, optimize=True)
    return Encoded(CONTENT_TYPES["JPEG"], out.getvalue())


def _webp(pixels: Image.Image, *, quality: int = 80, lossless: bool = False) -> Encoded:
    alpha = pixels.mode in ("RGBA", "LA") or "transparency" in pixels.info
    out = BytesIO()
    pixels.convert("RGBA" if alpha else "RGB").save(out, "WEBP", quality=quality, lossless=lossless, method=4)
    return Encoded(CONTENT_TYPES["WEBP"], out.getvalue())


def _palette(pixels: Image.Image) -> Image.Image:
    """At most 256 colours (with their alpha): a third of RGB's bytes before compression, often far less."""
    colour = pixels.convert("RGBA") if pixels.mode == "LA" else pixels
    return colour.quantize(256, method=Image.Quantize.FASTOCTREE)
