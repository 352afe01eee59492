"""An encoding over the stored limit gives way to a more compact one, most faithful first, and to none
(the image is then refused) when nothing fits."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from app.services.image_encoding import compact_encoding, stored_limit


def photo(mode: str) -> Image.Image:
    image = Image.effect_mandelbrot((600, 400), (-2, -1.2, 1, 1.2), 100).convert("L")
    colour = Image.merge("RGB", [image, Image.effect_noise((600, 400), 30).convert("L"), image])
    if mode == "RGBA":
        colour.putalpha(Image.linear_gradient("L").resize((600, 400)))
    return colour


def decoded(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.load()
    return image


def test_a_png_over_its_limit_becomes_a_palette_then_a_jpeg_or_webp() -> None:
    for mode, last in (("RGB", ("JPEG", "RGB")), ("RGBA", ("WEBP", "RGBA"))):
        image = photo(mode)
        whole = compact_encoding(image, "PNG", 10**9)
        assert whole is not None and decoded(whole.data).mode == mode
        palette = compact_encoding(image, "PNG", len(whole.data) - 1)
        assert palette is not None and palette.content_type == "image/png"
        assert decoded(palette.data).mode == "P" and decoded(palette.data).size == image.size
        smallest = compact_encoding(image, "PNG", len(palette.data) - 1)
        assert smallest is not None and (decoded(smallest.data).format, decoded(smallest.data).mode) == last
        assert compact_encoding(image, "PNG", 100) is None


def test_a_jpeg_gives_way_to_lower_qualities_and_the_floor_lets_a_small_one_grow() -> None:
    image = photo("RGB")
    best = compact_encoding(image, "JPEG", 10**9)
    assert best is not None
    lower = compact_encoding(image, "JPEG", len(best.data) - 1)
    assert lower is not None and lower.content_type == "image/jpeg" and len(lower.data) < len(best.data)
    assert stored_limit(1000) == 512 * 1024 and stored_limit(4_000_000) == 8_000_000
