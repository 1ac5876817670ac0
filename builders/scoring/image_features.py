"""`mtprobes image-features`: one CLIP feature row per line of an image list (.npy), for `score --image-features`.

The list is a file of image names, one per line (CoMMuTE's ``img.order``, Multi30K's ``*.images.txt``), resolved
under an image folder (default for a CoMMuTE folder: ``../images``, as CoMMuTE and the image world lay them out).
``--mixup`` encodes, for each CoMMuTE source (two consecutive lines), the 50/50 pixel blend of its two images
and writes it on both lines: the pseudo text-only baseline of Kashani Motlagh et al. 2024, Sec. 5.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from builders.core.errors import InputError, MtprobesError
from builders.core.textio import read_lines

if TYPE_CHECKING:
    import numpy as np

BATCH = 64


def resolve_inputs(folder: Path | None, image_list: Path | None, image_dir: Path | None) -> tuple[Path, Path]:
    """(list file, image folder): explicit options win; a CoMMuTE folder gives img.order and ../images."""
    listing = image_list or (folder / "img.order" if folder is not None else None)
    images = image_dir or (folder.parent / "images" if folder is not None else None)
    if listing is None or images is None:
        raise MtprobesError("give a CoMMuTE folder, or --list and --image-dir")
    if not listing.is_file():
        raise InputError(listing, "image list not found")
    return listing, images


def _open_rgb(path: Path) -> Any:
    from PIL import Image

    with Image.open(path) as opened:
        return opened.convert("RGB")


def load_images(listing: Path, image_dir: Path) -> list[Any]:
    loaded = []
    for number, name in enumerate(read_lines(listing), start=1):
        path = image_dir / name.strip()
        if not path.is_file():
            raise InputError(listing, f"image {path} not found", line=number)
        loaded.append(_open_rgb(path))
    return loaded


def mixup_pairs(images: Sequence[Any], listing: Path) -> list[Any]:
    """50/50 pixel blend of each pair of consecutive lines (the second resized to the first), on both lines."""
    from PIL import Image

    if len(images) % 2:
        raise InputError(listing, f"{len(images)} lines: a mixup needs two lines (one per image) per source")
    blended = []
    for first, second in zip(images[0::2], images[1::2], strict=True):
        mix = Image.blend(first, second.resize(first.size), 0.5)
        blended += [mix, mix]
    return blended


def encode(images: Sequence[Any], clip: Path) -> np.ndarray:
    import numpy as np

    from builders.validation.image_models import clip_encoder

    encoder = clip_encoder(clip)
    rows = [encoder.encode_images(list(images[i : i + BATCH])) for i in range(0, len(images), BATCH)]
    return np.concatenate(rows).astype(np.float32)


def image_features(
    folder: Annotated[
        Path | None, typer.Argument(help="CoMMuTE folder (img.order, ../images) or commute_ext set.")
    ] = None,
    clip: Annotated[Path | None, typer.Option(
        help="open_clip folder: <name>.json [+ checkpoint] (default: the bundled models/world-clip).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="The .npy to write (one row per line).")] = Path(
        "features.npy"
    ),
    image_list: Annotated[Path | None, typer.Option("--list", help="Image names, one per line.")] = None,
    image_dir: Annotated[Path | None, typer.Option("--image-dir", help="Folder the names resolve under.")] = None,
    mixup: Annotated[bool, typer.Option(help="50/50 blend of each source's two images (CoMMuTE).")] = False,
) -> None:
    """Write CLIP image features, one row per line of an image list, for `mtprobes score --image-features`."""
    import numpy as np

    from builders.core.atomic import atomic_path
    from builders.core.resources import resource_path
    from builders.scoring.built_layouts import built_set, extended_image_files

    built = built_set(folder)
    if built is not None and built.family == "commute_ext":
        if mixup:
            raise MtprobesError("--mixup blends the two images of a CoMMuTE source: give a CoMMuTE folder")
        listing, images = built.folder / "info.json", [_open_rgb(p) for p in extended_image_files(built)]
    else:
        listing, images_dir = resolve_inputs(folder, image_list, image_dir)
        images = load_images(listing, images_dir)
    # The bundled model by its installed location, not by a path that only resolves from the repository root.
    clip = clip or resource_path("models", "world-clip")
    features = encode(mixup_pairs(images, listing) if mixup else images, clip)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as tmp, tmp.open("wb") as handle:
        np.save(handle, features, allow_pickle=False)
    typer.echo(f"wrote {out}: {features.shape[0]} x {features.shape[1]} features ({'mixup' if mixup else 'images'})")


def register(app: typer.Typer) -> None:
    app.command("image-features")(image_features)
