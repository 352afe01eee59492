"""Images for the attachment tests, made with Pillow in memory: small, with the metadata a phone or an
editor would leave in them."""

from __future__ import annotations

import zlib
from io import BytesIO

from PIL import Image, PngImagePlugin

GPS_IFD = 0x8825


def png(width: int = 64, height: int = 48, *, text: bool = False, mode: str = "RGB") -> bytes:
    image = Image.new(mode, (width, height), "teal" if mode != "L" else 128)
    out = BytesIO()
    if text:
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", "taken at 1 Secret Lane")
        info.add_itxt("Author", "Ada Lovelace")
        image.save(out, "PNG", pnginfo=info, icc_profile=b"\0" * 128)
    else:
        image.save(out, "PNG")
    return out.getvalue()


def jpeg_with_gps(width: int = 80, height: int = 60) -> bytes:
    image = Image.new("RGB", (width, height), "orange")
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0132] = "2026:11:27 10:00:00"  # DateTime
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (59.0, 19.0, 48.0), 3: "E", 4: (18.0, 4.0, 6.0)})
    out = BytesIO()
    image.save(out, "JPEG", exif=exif, quality=90)
    return out.getvalue()


def webp(width: int = 40, height: int = 40) -> bytes:
    out = BytesIO()
    Image.new("RGBA", (width, height), (10, 20, 30, 128)).save(out, "WEBP")
    return out.getvalue()


def png_bomb(side: int = 30_000) -> bytes:
    """A valid PNG of side x side grey pixels, about a megabyte: every row is zeros, which deflate packs to
    almost nothing. A hundred rows are compressed once and their bytes repeated (a full flush makes each
    repetition the same), so making it takes a fraction of a second and never holds the bitmap."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    rows = 100
    block = b"\0" * ((side + 1) * rows)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    repeated = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    checksum = 1
    for _ in range(side // rows):
        checksum = zlib.adler32(block, checksum)
    stream = b"\x78\xda" + repeated * (side // rows) + deflate.flush() + checksum.to_bytes(4, "big")
    header = side.to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])  # 8-bit grey
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")
