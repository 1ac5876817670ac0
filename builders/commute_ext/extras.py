"""Files beside the dataset: CoMMuTE-layout text files per image slot, optional image export, record checks."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from builders.core.atomic import write_bytes, write_text
from builders.core.errors import MtprobesError
from builders.core.row_store import RowSet

from .config import CommuteExtConfig
from .readers import ReaderOptions, collection_labels, open_readers

FORMAT_SUFFIXES = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp", "GIF": ".gif", "BMP": ".bmp", "TIFF": ".tif"}


def _translations(rows: RowSet) -> list[tuple[str, dict[str, Any]]]:
    """(source, translation) in CoMMuTE line order."""
    found = [(row.record["source"], t) for row in rows for t in row.record["translations"]]
    return sorted(found, key=lambda pair: pair[1]["line"])


def fetch_bytes(config: CommuteExtConfig, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes]:
    """Bytes of (collection, source) pairs, grouped per collection reader; missing ones are left out."""
    opened = open_readers(config.collection, config.collection_format,
                          ReaderOptions(config.parquet_image_column, config.npz_features_key))
    readers = dict(zip(collection_labels([str(r.path) for r in opened]), opened, strict=True))
    by_collection: dict[str, list[str]] = {}
    for collection, source in sorted(set(wanted)):
        by_collection.setdefault(collection, []).append(source)
    found: dict[tuple[str, str], bytes] = {}
    for collection, sources in by_collection.items():
        reader = readers.get(collection)
        if reader is not None:
            found.update({(collection, s): data for s, data in reader.fetch(sources).items() if data})
    return found


def original_root(config: CommuteExtConfig) -> Path:
    return Path(config.image_dir) if config.image_dir else Path(config.data_dir) / "images"


def _export_images(rows: RowSet, out_dir: Path, config: CommuteExtConfig) -> tuple[dict[str, str], list[str]]:
    """Copy originals and selected images into commute/images/; returns sha256 -> img.order name."""
    from PIL import Image

    images = [image for _, t in _translations(rows) for image in t["images"]]
    retrieved = fetch_bytes(config, [(i["collection"], i["path"]) for i in images if i["kind"] == "retrieved"])
    names: dict[str, str] = {}
    written: list[str] = []
    for image in images:
        if image["sha256"] in names:
            continue
        if image["kind"] == "original":
            data, name = (original_root(config) / image["path"]).read_bytes(), image["path"]
        else:
            data_or_none = retrieved.get((image["collection"], image["path"]))
            if data_or_none is None:
                raise MtprobesError(f"export_images: no image bytes for {image['uid']!r} in {image['collection']} "
                                    "(precomputed embeddings carry none; set export_images=false)")
            import io

            with Image.open(io.BytesIO(data_or_none)) as opened:
                suffix = FORMAT_SUFFIXES.get(opened.format or "", ".img")
            data, name = data_or_none, f"retrieved/{image['sha256'][:16]}{suffix}"
        write_bytes(out_dir / "commute" / "images" / name, data)
        names[image["sha256"]] = name
        written.append(f"commute/images/{name}")
    return names, written


def write_commute_slots(rows: RowSet, out_dir: Path, config: CommuteExtConfig) -> list[str]:
    """``commute/slot{k}/`` holds src.en, correct.xx, incorrect.xx and img.order for image slot k
    (slot 0 = the original CoMMuTE images), so CoMMuTE scoring scripts run unchanged on each slot."""
    names, written = _export_images(rows, out_dir, config) if config.export_images else ({}, [])
    for relative, text in slot_files(rows, config, names).items():
        write_text(out_dir / relative, text)
        written.append(relative)
    return written


def slot_files(rows: RowSet, config: CommuteExtConfig, names: dict[str, str]) -> dict[str, str]:
    """The slot folders' files from the records; ``names``: sha256 -> exported image name (when exported)."""
    translations = _translations(rows)
    contents: dict[str, str] = {}
    for slot in range(1 + config.per_translation):
        folder = f"commute/slot{slot}"
        columns = {
            "src.en": [source for source, _ in translations],
            f"correct.{config.tgt_lang}": [t["text"] for _, t in translations],
            f"incorrect.{config.tgt_lang}": [t["contrast"] for _, t in translations],
            "img.order": [_order_entry(t["images"][slot], names) for _, t in translations],
        }
        contents.update({f"{folder}/{name}": "".join(f"{line}\n" for line in lines) for name, lines in columns.items()})
    return contents


def exported_names(rows: RowSet, extras: list[str]) -> dict[str, str]:
    """sha256 -> exported name, recovered from the files a build listed (originals keep their img.order name,
    retrieved images are ``retrieved/<sha256[:16]><suffix>``)."""
    exported = {e.removeprefix("commute/images/") for e in extras if e.startswith("commute/images/")}
    by_prefix = {name.split("/", 1)[1].split(".")[0]: name for name in exported if name.startswith("retrieved/")}
    names: dict[str, str] = {}
    for _, translation in _translations(rows):
        for image in translation["images"]:
            if image["kind"] == "original" and image["path"] in exported:
                names[image["sha256"]] = image["path"]
            elif image["sha256"][:16] in by_prefix:
                names[image["sha256"]] = by_prefix[image["sha256"][:16]]
    return names


def _order_entry(image: dict[str, Any], exported: dict[str, str]) -> str:
    """The exported file name, else the img.order name of an original or the uid of a retrieved image
    (for folder collections the uid is the path relative to the collection folder)."""
    return exported.get(image["sha256"], image["path"] if image["kind"] == "original" else image["uid"])


def write_review(rows: RowSet, out_dir: Path, config: CommuteExtConfig) -> list[str]:
    from .review import render_review, thumbnail_uri

    wanted = [(c["collection"], c["path"]) for row in rows for t in row.record["translations"]
              for c in t["candidates"]]
    fetched = fetch_bytes(config, wanted)
    thumbs = {f"{k[0]}\x1f{k[1]}": thumbnail_uri(v, config.review_thumbnail_px) for k, v in fetched.items()}
    for row in rows:
        for t in row.record["translations"]:
            original = t["images"][0]
            path = original_root(config) / original["path"]
            thumbs[f"commute\x1f{original['path']}"] = thumbnail_uri(path.read_bytes(), config.review_thumbnail_px)
    write_text(out_dir / "review" / "index.html", render_review([r.record for r in rows], thumbs, config))
    return ["review/index.html"]
