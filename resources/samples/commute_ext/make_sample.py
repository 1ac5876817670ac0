"""Regenerate the synthetic images of the commute_ext demo sample (seeded: same files every run).

    .venv/bin/python resources/samples/commute_ext/make_sample.py

Concepts are drawn as simple coloured shapes; the collection also holds the bad inputs the filters must
drop (1x1, 10000x10, 63 px, aspect 2.6, corrupt and truncated files, an exact duplicate, a copy of a
CoMMuTE image) and odd modes they must accept (CMYK, palette with transparency, grey + alpha, 16-bit).
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
Draw = Callable[[ImageDraw.ImageDraw, np.random.Generator, int], None]


def _jitter(rng: np.random.Generator, size: int) -> tuple[int, int]:
    return int(rng.integers(-size // 8, size // 8 + 1)), int(rng.integers(-size // 8, size // 8 + 1))


def coins(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    for _ in range(6):
        x, y = int(rng.integers(10, size - 30)), int(rng.integers(10, size - 30))
        draw.ellipse((x, y, x + 24, y + 24), fill=(230, 190, 40), outline=(120, 90, 10))


def river(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    _dx, dy = _jitter(rng, size)
    draw.rectangle((0, size // 2 + dy - 18, size, size // 2 + dy + 18), fill=(40, 90, 200))
    draw.rectangle((0, size // 2 + dy + 18, size, size), fill=(90, 160, 60))


def flying_bat(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    dx, dy = _jitter(rng, size)
    c = size // 2
    draw.polygon([(c - 40 + dx, c + dy), (c + dx, c - 15 + dy), (c + 40 + dx, c + dy), (c + dx, c + 12 + dy)],
                 fill=(20, 20, 25))


def club(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    dx, dy = _jitter(rng, size)
    draw.rectangle((20 + dx, size // 2 - 6 + dy, size - 20 + dx, size // 2 + 6 + dy), fill=(150, 90, 40))


def seal_animal(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    dx, dy = _jitter(rng, size)
    draw.ellipse((20 + dx, 40 + dy, size - 20 + dx, size - 30 + dy), fill=(110, 110, 120))


def wax_seal(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: int) -> None:
    dx, dy = _jitter(rng, size)
    draw.ellipse((30 + dx, 30 + dy, size - 30 + dx, size - 30 + dy), fill=(190, 20, 30))
    draw.ellipse((45 + dx, 45 + dy, size - 45 + dx, size - 45 + dy), outline=(250, 200, 200), width=3)


CONCEPTS: dict[str, tuple[tuple[int, int, int], Draw]] = {
    "coins": ((40, 120, 60), coins),
    "river": ((200, 220, 240), river),
    "flying_bat": ((150, 150, 170), flying_bat),
    "club": ((250, 250, 240), club),
    "seal_animal": ((60, 120, 200), seal_animal),
    "wax_seal": ((245, 240, 225), wax_seal),
}
ORIGINALS = ["coins", "river", "flying_bat", "club", "seal_animal", "wax_seal"]


def draw_concept(name: str, rng: np.random.Generator, size: int = 128) -> Image.Image:
    background, painter = CONCEPTS[name]
    shade = rng.integers(-25, 26, size=3)
    colour = tuple(int(np.clip(c + s, 0, 255)) for c, s in zip(background, shade, strict=True))
    image = Image.new("RGB", (size, size), colour)
    painter(ImageDraw.Draw(image), rng, size)
    return image


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def odd_inputs(rng: np.random.Generator) -> dict[str, bytes]:
    """Files the filters must drop (by name: the expected reason) or accept in an unusual mode."""
    buffer = io.BytesIO()
    draw_concept("river", rng).convert("CMYK").save(buffer, format="JPEG", quality=90)
    palette = draw_concept("club", rng).convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    palette.info["transparency"] = 0
    grey_alpha = draw_concept("seal_animal", rng).convert("LA")
    deep = Image.fromarray(np.asarray(draw_concept("coins", rng).convert("L"), np.uint16) * 257)
    valid = png_bytes(draw_concept("wax_seal", rng))
    return {
        "odd/cmyk.jpg": buffer.getvalue(),
        "odd/palette_transparent.png": _save(palette, "PNG", transparency=0),
        "odd/grey_alpha.png": png_bytes(grey_alpha),
        "odd/grey16.png": png_bytes(deep),
        "bad/too_small_1x1.png": png_bytes(Image.new("RGB", (1, 1), (255, 0, 0))),
        "bad/too_small_10000x10.png": png_bytes(Image.new("RGB", (10000, 10), (0, 0, 255))),
        "bad/too_small_63px.png": png_bytes(draw_concept("coins", rng, 63)),
        "bad/extreme_aspect_260x100.png": png_bytes(Image.new("RGB", (260, 100), (0, 200, 0))),
        "bad/decode_error_garbage.jpg": bytes(rng.integers(0, 256, 600, dtype=np.uint8)),
        "bad/decode_error_truncated.png": valid[: len(valid) // 2],
    }


def _save(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def main() -> None:
    rng = np.random.default_rng(2024)
    images = HERE / "commute" / "images"
    collection = HERE / "collection"
    for folder in (images, collection):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    for number, concept in enumerate(ORIGINALS, start=1):
        (images / f"{number:02d}_{concept}.png").write_bytes(png_bytes(draw_concept(concept, rng, 160)))
    for concept in CONCEPTS:
        for variant in range(7):
            path = collection / concept / f"{concept}_{variant}.png"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(png_bytes(draw_concept(concept, rng, int(rng.integers(96, 200)))))
        (collection / concept / f"{concept}_0.txt").write_text(f"synthetic drawing: {concept}\n", encoding="utf-8")
    for name, data in odd_inputs(rng).items():
        (collection / name).parent.mkdir(exist_ok=True)
        (collection / name).write_bytes(data)
    # exact duplicates: a collection image under another name, and a copy of a CoMMuTE image
    (collection / "bad" / "duplicate_of_river_0.png").write_bytes((collection / "river" / "river_0.png").read_bytes())
    (collection / "bad" / "copy_of_commute_image.png").write_bytes((images / "01_coins.png").read_bytes())


if __name__ == "__main__":
    main()
