"""Files beside the dataset in the layout image-awareness scripts expect (all under ``extras/``).

* ``<order>`` and ``<order>-random{i}``: the image file name shown with each line (congruent / shuffle i);
* with features: ``<features>-random{i}.npy`` (rows permuted like shuffle i), ``<features>-zeros.npy`` and
  ``<features>-mixup-random{i}.npy`` (own and distractor features averaged) for the first mixup shuffles;
* with image files: ``mixup-random{i}/<line>.png`` pixel blends and their order file
  ``<order>-mixup-random{i}``.
"""

from __future__ import annotations

from pathlib import Path

from builders.core.atomic import write_text
from builders.shuffles.baselines import blend_images, load_rgb, write_mixup, write_permuted, write_zeros
from builders.shuffles.config import ShufflesConfig
from builders.shuffles.plan import ShufflePlan, output_split

EXTRAS = "extras"


def order_name(plan: ShufflePlan, config: ShufflesConfig) -> str:
    """``test_2016_flickr.images.txt`` for Multi30K input, ``<jsonl stem>.images.txt`` for JSONL."""
    if config.input_format == "multi30k":
        return plan.data.image_list.name.removesuffix(".gz")
    if config.input_format == "hf":
        return f"{output_split(config)}.images.txt"
    return f"{Path(config.jsonl).name.removesuffix('.gz').removesuffix('.jsonl')}.images.txt"


def features_stem(path: str) -> str:
    return Path(path).name.removesuffix(".npy")


def write_all_extras(plan: ShufflePlan, config: ShufflesConfig, out_dir: Path) -> list[str]:
    folder = out_dir / EXTRAS
    written = _write_orders(plan, config, folder)
    if plan.features is not None:
        written += _write_feature_files(plan, config, folder)
    if plan.image_sources and config.mixup_images:
        written += _write_pixel_mixup(plan, config, folder)
    return [f"{EXTRAS}/{name}" for name in written]


def _write_orders(plan: ShufflePlan, config: ShufflesConfig, folder: Path) -> list[str]:
    order = order_name(plan, config)
    images = plan.data.images
    write_text(folder / order, "".join(f"{name}\n" for name in images))
    written = [order]
    for index, shuffle in enumerate(plan.shuffles, start=1):
        name = f"{order}-random{index}"
        write_text(folder / name, "".join(f"{images[other]}\n" for other in shuffle.perm))
        written.append(name)
    return written


def _write_feature_files(plan: ShufflePlan, config: ShufflesConfig, folder: Path) -> list[str]:
    assert plan.features is not None
    stem = features_stem(config.features)
    written = []
    for index, shuffle in enumerate(plan.shuffles, start=1):
        write_permuted(plan.features, shuffle.perm, folder / f"{stem}-random{index}.npy")
        written.append(f"{stem}-random{index}.npy")
    write_zeros(plan.features, folder / f"{stem}-zeros.npy")
    written.append(f"{stem}-zeros.npy")
    for index, shuffle in enumerate(plan.shuffles[: config.mixup_shuffles], start=1):
        write_mixup(plan.features, shuffle.perm, folder / f"{stem}-mixup-random{index}.npy")
        written.append(f"{stem}-mixup-random{index}.npy")
    return written


def _write_pixel_mixup(plan: ShufflePlan, config: ShufflesConfig, folder: Path) -> list[str]:
    order = order_name(plan, config)
    lines = plan.data.lines
    written = []
    for index, shuffle in enumerate(plan.shuffles[: config.mixup_shuffles], start=1):
        subfolder = f"mixup-random{index}"
        names = []
        for own, other in enumerate(shuffle.perm):
            name = f"{lines[own]:06d}.png"
            own_pixels, other_pixels = (load_rgb(plan.image_sources[i], plan.data.image_list, lines[i])
                                        for i in (own, other))
            blend_images(own_pixels, other_pixels, folder / subfolder / name)
            names.append(name)
        written.append(subfolder)  # the folder, not thousands of file names in info.json
        write_text(folder / f"{order}-mixup-random{index}", "".join(f"{n}\n" for n in names))
        written.append(f"{order}-mixup-random{index}")
    return written
