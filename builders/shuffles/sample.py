"""Regenerate the images and feature matrix of the bundled sample (``resources/samples/shuffles``).

The captions (``sample.en``/``sample.de``/``sample.images.txt``) are hand-written; each image is a simple
drawing of its caption (a coloured shape on a coloured background), so that images with similar colours get
similar features and the similar/dissimilar policies have something to find. ``boat_lake_copy.png`` is a
byte-identical copy of ``boat_lake.png``: a different name for the same content.

    python -m builders.shuffles.sample resources/samples/shuffles
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from builders.core.atomic import atomic_path
from builders.core.textio import read_lines

SIZE = 48
FEATURE_SEED = 20180101
PROJECTED_DIMS = 16

RGB = tuple[int, int, int]
# name -> (background colour, shape, shape colour)
SCENES: dict[str, tuple[RGB, str, RGB]] = {
    "red_ball_grass.png": ((60, 160, 60), "circle", (210, 30, 30)),
    "yellow_sun_sky.png": ((70, 130, 220), "circle", (250, 220, 40)),
    "boat_lake.png": ((40, 90, 170), "triangle", (245, 245, 245)),
    "orange_cat_sofa.png": ((120, 80, 50), "square", (240, 140, 30)),
    "black_dog_snow.png": ((240, 240, 245), "square", (20, 20, 20)),
    "green_tree_field.png": ((220, 200, 90), "triangle", (40, 130, 40)),
    "red_bus_street.png": ((130, 130, 130), "square", (200, 30, 30)),
    "blue_car_road.png": ((120, 120, 125), "square", (30, 60, 200)),
    "pink_flower_pot.png": ((150, 100, 70), "circle", (240, 130, 190)),
    "white_tent_forest.png": ((30, 80, 40), "triangle", (240, 240, 240)),
    "purple_kite_beach.png": ((230, 210, 160), "triangle", (130, 50, 170)),
    "green_frog_leaf.png": ((30, 90, 40), "circle", (130, 220, 90)),
    "orange_pumpkin_table.png": ((140, 90, 55), "circle", (245, 130, 20)),
    "yellow_taxi_night.png": ((15, 15, 30), "square", (250, 210, 30)),
    "red_umbrella_rain.png": ((110, 115, 125), "triangle", (220, 20, 40)),
    "swimmer_pool.png": ((90, 190, 230), "circle", (250, 140, 40)),
    "white_plate_table.png": ((130, 85, 50), "circle", (250, 250, 250)),
    "green_bike_wall.png": ((170, 70, 50), "square", (40, 170, 60)),
    "black_piano_stage.png": ((110, 20, 30), "square", (15, 15, 15)),
    "blue_balloon_party.png": ((245, 245, 240), "circle", (40, 80, 230)),
    "brown_horse_meadow.png": ((70, 170, 70), "square", (120, 70, 30)),
    "gray_rock_sea.png": ((40, 100, 190), "triangle", (128, 128, 128)),
    "red_apple_tree.png": ((50, 140, 50), "circle", (220, 25, 35)),
    "white_church_hill.png": ((80, 160, 70), "triangle", (245, 245, 245)),
    "yellow_duck_pond.png": ((60, 120, 200), "circle", (250, 230, 50)),
}
COPIES = {"boat_lake_copy.png": "boat_lake.png"}


def draw_scene(background: RGB, shape: str, colour: RGB) -> np.ndarray:
    """A SIZE x SIZE RGB drawing (uint8) of one shape on a plain background."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (SIZE, SIZE), background)
    draw = ImageDraw.Draw(image)
    box = (SIZE // 4, SIZE // 4, 3 * SIZE // 4, 3 * SIZE // 4)
    if shape == "circle":
        draw.ellipse(box, fill=colour)
    elif shape == "square":
        draw.rectangle(box, fill=colour)
    else:
        low, high = SIZE // 6, 5 * SIZE // 6
        draw.polygon([(SIZE // 2, low), (low, high), (high, high)], fill=colour)
    return np.asarray(image)


def image_features(pixels: np.ndarray, projection: np.ndarray) -> np.ndarray:
    """48 pooled colour values (4x4 grid, centred) and a seeded random projection of all pixels."""
    scaled = pixels.astype(np.float32) / 255.0 - 0.5
    grid = scaled.reshape(4, SIZE // 4, 4, SIZE // 4, 3).mean(axis=(1, 3)).reshape(-1)
    return np.concatenate([grid, scaled.reshape(-1) @ projection]).astype(np.float32)


def write_sample_assets(folder: Path) -> None:
    """Write ``images/*.png`` and ``sample.features.npy`` (one row per line of ``sample.images.txt``)."""
    from PIL import Image

    names = read_lines(folder / "sample.images.txt")
    pixels = {name: draw_scene(*scene) for name, scene in SCENES.items()}
    pixels.update({copy: pixels[original] for copy, original in COPIES.items()})
    for name, array in sorted(pixels.items()):
        with atomic_path(folder / "images" / name) as tmp:
            Image.fromarray(array).save(tmp, format="PNG")
    projection = np.random.default_rng(FEATURE_SEED).standard_normal((SIZE * SIZE * 3, PROJECTED_DIMS))
    projection = (projection / np.sqrt(SIZE * SIZE * 3)).astype(np.float32)
    matrix = np.stack([image_features(pixels[name], projection) for name in names])
    with atomic_path(folder / "sample.features.npy") as tmp, open(tmp, "wb") as handle:
        np.save(handle, matrix)


if __name__ == "__main__":
    write_sample_assets(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("resources/samples/shuffles"))
