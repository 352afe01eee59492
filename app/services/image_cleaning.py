"""Images sent with feedback, decoded and encoded again by Pillow before anything stores them.

Nothing a visitor sent is kept as sent: the pixels are decoded (a file that is not a whole PNG, JPEG or
WebP is refused), turned upright by their EXIF orientation, scaled down to at most `MAX_SIDE` a side and
written afresh (compactly, see image_encoding.py), so EXIF (with GPS), text chunks, XMP and colour
profiles are left behind. The size in the header is checked against a pixel budget before a pixel is
decoded: a small file that would unpack into gigabytes (a decompression bomb) costs only its header.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from io import BytesIO
from uuid import UUID

from PIL import Image, ImageOps, UnidentifiedImageError

from app.services.fair_slots import FairSlots
from app.services.image_encoding import CONTENT_TYPES, compact_encoding, stored_limit, stored_mode

MAX_FILE_BYTES = 5 * 1024 * 1024
"""The largest file accepted, as sent."""
MAX_SIDE = 4096
"""The longest side stored; larger images are scaled down."""
MAX_PIXELS = 36_000_000
"""The pixels an image may declare (6000 x 6000): what one decode may cost in memory, about 144 MB at 4
bytes a pixel at most."""
MAX_FILES = 3
_DECODES = FairSlots(2)
"""Images decoded at once per process (each takes a core and may hold a large bitmap for a moment), one
per organization, so one organization's images never queue another's."""


class ImageRefused(ValueError):
    """The file is not an image this server keeps; the message says why, for the person who sent it."""


@dataclass(frozen=True, slots=True)
class CleanImage:
    content_type: str
    width: int
    height: int
    data: bytes


async def clean_image(raw: bytes, organization: UUID) -> CleanImage:
    """`cleaned` off the event loop (a decode takes tens of milliseconds, a large one seconds), in one of
    the process's decode slots, shared fairly between organizations."""
    async with _DECODES.slot(organization):
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
    encoded = compact_encoding(pixels, kind, stored_limit(len(raw)))
    if encoded is None:
        raise ImageRefused(
            f"stored again, the image would take more than {stored_limit(len(raw)):,} bytes (twice the "
            "file sent); send it smaller, or as a JPEG"
        )
    return CleanImage(encoded.content_type, pixels.width, pixels.height, encoded.data)


def _pixels(image: Image.Image, kind: str) -> Image.Image:
    """A new bitmap of the image, upright, at most MAX_SIDE a side, in the mode it is stored in."""
    upright = ImageOps.exif_transpose(image) or image
    wanted = stored_mode(upright, kind)
    key = upright.info.get("transparency") if wanted == upright.mode else None
    pixels = upright.convert(wanted) if upright.mode != wanted else upright.copy()
    pixels.info = {} if key is None else {"transparency": key}  # nothing else read is written back
    if max(pixels.size) > MAX_SIDE:
        pixels = _scaled_down(pixels)
    return pixels


def _scaled_down(pixels: Image.Image) -> Image.Image:
    """At most MAX_SIDE a side, resampled where pixels can blend: a 1-bit image as grey and back to 1
    bit, a palette or colour-keyed one in colour (Pillow would pick the nearest pixel instead)."""
    bilevel = pixels.mode == "1" and "transparency" not in pixels.info
    if "transparency" in pixels.info:
        pixels = pixels.convert("RGBA")
    elif pixels.mode in ("1", "P"):
        pixels = pixels.convert("L" if bilevel else "RGB")
    pixels.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    return pixels.convert("1", dither=Image.Dither.NONE) if bilevel else pixels
