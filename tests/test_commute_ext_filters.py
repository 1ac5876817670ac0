"""commute_ext: image filters against hand-made images of chosen sizes, modes and damage."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from builders.commute_ext.filters import (
    COMMUTE_ORIGINAL,
    DECODE_ERROR,
    DUPLICATE,
    EXTREME_ASPECT,
    TOO_MANY_PIXELS,
    TOO_SMALL,
    FilterSettings,
    ImageFilter,
    inspect,
)


def encode(image: Image.Image, fmt: str = "PNG", **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def rgb(width: int, height: int, colour: tuple[int, int, int] = (10, 120, 200)) -> bytes:
    return encode(Image.new("RGB", (width, height), colour))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (rgb(1, 1), TOO_SMALL),
        (rgb(10000, 10), TOO_SMALL),  # the short side fails first
        (rgb(63, 200), TOO_SMALL),
        (rgb(64, 64), None),  # exactly the minimum side is kept
        (rgb(260, 100), EXTREME_ASPECT),  # aspect 2.6
        (rgb(100, 260), EXTREME_ASPECT),
        (rgb(250, 100), None),  # aspect 2.5 exactly is kept
        (b"not an image at all", DECODE_ERROR),
        (b"", DECODE_ERROR),
        (rgb(200, 200)[:120], DECODE_ERROR),  # truncated PNG: header fine, pixels missing
        (encode(Image.new("RGB", (300, 200)), "JPEG")[:200], DECODE_ERROR),
    ],
)
def test_size_and_decode_rules(data: bytes, reason: str | None) -> None:
    verdict = ImageFilter().check(data)
    assert verdict.reason == reason
    assert (verdict.image is not None) == (reason is None)


def test_pixel_limit() -> None:
    verdict = ImageFilter(FilterSettings(max_pixels=100 * 100)).check(rgb(101, 100))
    assert verdict.reason == TOO_MANY_PIXELS


def _palette_with_transparency() -> bytes:
    image = Image.new("P", (80, 80), 1)
    image.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    image.paste(0, (0, 0, 40, 80))  # left half: palette index 0, declared transparent
    return encode(image, transparency=0)


@pytest.mark.parametrize(
    ("data", "left_pixel", "right_pixel"),
    [
        (encode(Image.new("CMYK", (80, 80), (0, 255, 255, 0)), "JPEG", quality=95), (255, 0, 0), (255, 0, 0)),
        (_palette_with_transparency(), (255, 255, 255), (255, 0, 0)),  # transparent -> white background
        (encode(Image.new("LA", (80, 80), (0, 0))), (255, 255, 255), (255, 255, 255)),  # fully transparent grey
        (encode(Image.new("RGBA", (80, 80), (0, 0, 255, 255))), (0, 0, 255), (0, 0, 255)),
        (encode(Image.fromarray(np.full((80, 80), 65535, np.uint16))), (255, 255, 255), (255, 255, 255)),  # 16 bit
        (encode(Image.new("L", (80, 80), 77)), (77, 77, 77), (77, 77, 77)),
    ],
)
def test_unusual_modes_become_rgb(data: bytes, left_pixel: tuple[int, ...], right_pixel: tuple[int, ...]) -> None:
    verdict = ImageFilter().check(data)
    assert verdict.reason is None and verdict.image is not None
    assert verdict.image.mode == "RGB"
    assert np.allclose(verdict.image.getpixel((5, 40)), left_pixel, atol=3)
    assert np.allclose(verdict.image.getpixel((75, 40)), right_pixel, atol=3)


def test_exact_duplicates_by_hash_first_copy_wins() -> None:
    image_filter = ImageFilter()
    first = rgb(100, 100, (1, 2, 3))
    assert image_filter.check(first).reason is None
    assert image_filter.check(first).reason == DUPLICATE
    assert image_filter.check(rgb(100, 100, (1, 2, 4))).reason is None  # one pixel value differs: not exact


def test_dropped_first_copy_does_not_make_later_copies_duplicates() -> None:
    image_filter = ImageFilter()
    small = rgb(20, 20)
    assert [image_filter.check(small).reason for _ in range(2)] == [TOO_SMALL, TOO_SMALL]


def test_commute_images_are_excluded_from_the_collection() -> None:
    original = rgb(120, 120, (9, 9, 9))
    import hashlib

    image_filter = ImageFilter(excluded_hashes=frozenset({hashlib.sha256(original).hexdigest()}))
    assert image_filter.check(original).reason == COMMUTE_ORIGINAL


def test_threaded_inspect_then_admit_gives_the_same_reasons() -> None:
    files = [rgb(100, 100), rgb(100, 100), rgb(10, 10), b"junk", rgb(300, 100), rgb(90, 90, (5, 5, 5))]
    sequential = ImageFilter()
    expected = [sequential.check(data).reason for data in files]
    threaded = ImageFilter()
    got = [threaded.admit(inspect(data, threaded.settings)).reason for data in files]
    assert got == expected == [None, DUPLICATE, TOO_SMALL, DECODE_ERROR, EXTREME_ASPECT, None]


def test_exif_orientation_is_applied() -> None:
    image = Image.new("RGB", (200, 100), (0, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees on display
    verdict = ImageFilter().check(encode(image, "JPEG", exif=exif.tobytes()))
    assert verdict.image is not None and verdict.image.size == (100, 200)
