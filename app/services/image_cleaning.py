"""Images sent with feedback, decoded and encoded again by Pillow before anything stores them.

Nothing a visitor sent is kept as sent: the pixels are decoded (a file that is not a whole PNG, JPEG or
WebP is refused), turned upright by their EXIF orientation, scaled down to at most `MAX_SIDE` a side and
written afresh, so EXIF (with GPS), text chunks, XMP and colour profiles are left behind. The size in the
header is checked against a pixel budget before a pixel is decoded: a small file that would unpack into
gigabytes (a decompression bomb) costs only its header.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageOps, UnidentifiedImageError

MAX_FILE_BYTES = 5 * 1024 * 1024
"""The largest file accepted, as sent."""
MAX_SIDE = 4096
"""The longest side stored; larger images are scaled down."""
MAX_PIXELS = 36_000_000
"""The pixels an image may declare (6000 x 6000): what one decode may cost in memory, about 144 MB at 4
bytes a pixel at most."""
MAX_FILES = 3
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
"""The formats accepted, and the type each is stored and served as (the same format it came in)."""
_DECODES = asyncio.Semaphore(2)
"""Images decoded at once per process: each may hold a large bitmap for a moment."""


class ImageRefused(ValueError):
    """The file is not an image this server keeps; the message says why, for the person who sent it."""


@dataclass(frozen=True, slots=True)
class CleanImage:
    content_type: str
    width: int
    height: int
    data: bytes


async def clean_image(raw: bytes) -> CleanImage:
    """`cleaned` off the event loop (a decode takes tens of milliseconds), a few at a time."""
    async with _DECODES:
        return await asyncio.to_thread(cleaned, raw)


def cleaned(raw: bytes) -> CleanImage:
    """The image in `raw` decoded and encoded again without its metadata, or ImageRefused."""
    if len(raw) > MAX_FILE_BYTES:
        raise ImageRefused(f"each image must be at most {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        with Image.open(BytesIO(raw), formats=list(CONTENT_TYPES)) as image:
            kind = image.format or ""
            if image.width * image.height > MAX_PIXELS:
                raise ImageRefused(
                    f"an image of {image.width} x {image.height} pixels is over the limit of "
                    f"{MAX_PIXELS:,} pixels"
                )
            if kind == "JPEG":
                image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # decode a large photo at a smaller scale
            image.load()
            pixels = _pixels(image, kind)
    except ImageRefused:
        raise
    except Image.DecompressionBombError:  # Pillow's own check, at a higher count than ours
        raise ImageRefused(f"the image is over the limit of {MAX_PIXELS:,} pixels") from None
    except UnidentifiedImageError:
        raise ImageRefused("must be a PNG, JPEG or WebP image") from None
    except (OSError, SyntaxError, ValueError, EOFError):
        raise ImageRefused("the image is damaged or cut short") from None
    return CleanImage(CONTENT_TYPES[kind], pixels.width, pixels.height, _encoded(pixels, kind))


def _pixels(image: Image.Image, kind: str) -> Image.Image:
    """A new bitmap of the image, upright, at most MAX_SIDE a side, in a mode its format can write."""
    upright = ImageOps.exif_transpose(image) or image
    wanted = _mode(upright, kind)
    pixels = upright.convert(wanted) if upright.mode != wanted else upright.copy()
    pixels.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    pixels.info = {}  # nothing read from the file is written back
    return pixels


def _mode(image: Image.Image, kind: str) -> str:
    alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    if kind == "JPEG":
        return "L" if image.mode == "L" else "RGB"
    if image.mode == "L" and not alpha:
        return "L"
    return "RGBA" if alpha else "RGB"


def _encoded(pixels: Image.Image, kind: str) -> bytes:
    out = BytesIO()
    if kind == "JPEG":
        pixels.save(out, "JPEG", quality=85, optimize=True)
    elif kind == "WEBP":
        pixels.save(out, "WEBP", quality=85, method=4)
    else:
        pixels.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()
