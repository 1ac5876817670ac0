"""commute_ext: the demo sample end to end (records, card, info, extras), determinism, resume, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pytest
import yaml

from builders.commute_ext.builder import CommuteExtBuilder
from builders.commute_ext.config import CommuteExtConfig
from builders.commute_ext.embed import ClipEncoder
from builders.commute_ext.select import SELECTION_FORMAT
from builders.core.errors import ConfigError, InputError, MtprobesError

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"
DEMO = SAMPLE / "demo.yaml"


def config(*overrides: str) -> CommuteExtConfig:
    return CommuteExtConfig.from_sources(DEMO, list(overrides))


def build(out: Path, *overrides: str, resume: bool = False) -> Path:
    return CommuteExtBuilder(config(*overrides)).build(out, resume=resume, overwrite=not resume, quiet=True)


def records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "jsonl" / "test.jsonl").read_text().splitlines()]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file of a build; info.json without its wall time."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            files[str(path.relative_to(folder))] = path.read_bytes()
    return files


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("demo"))


def test_demo_records(demo: Path) -> None:
    rows = records(demo)
    assert [r["id"] for r in rows] == ["en-de-0001", "en-de-0002", "en-de-0003"]
    first = rows[0]
    assert first["source"] == "He walked over to the bank."
    texts = [t["text"] for t in first["translations"]]
    assert texts == ["Er ging hinüber zur Bank.", "Er ging hinüber zum Ufer."]
    assert [t["contrast"] for t in first["translations"]] == texts[::-1]
    for row in rows:
        chosen = []
        for t in row["translations"]:
            images = t["images"]
            assert [i["slot"] for i in images] == [0, 1, 2, 3, 4]
            assert [i["kind"] for i in images] == ["original"] + ["retrieved"] * 4
            assert images[0]["rank"] == 0 and images[0]["path"].endswith(".png")
            assert len(t["candidates"]) == 15
            assert [c["rank"] for c in t["candidates"]] == list(range(1, 16))
            sims = [c["similarity"] for c in t["candidates"]]
            assert sims == sorted(sims, reverse=True)
            selected = [c for c in t["candidates"] if c["selected"]]
            assert [c["uid"] for c in selected] == [i["uid"] for i in images[1:]]
            assert all(not c["suppressed"] for c in selected) and t["selected_by"] == "auto"
            # pre-selection = the first 4 candidates that were not suppressed
            assert selected == [c for c in t["candidates"] if not c["suppressed"]][:4]
            assert not any(i["path"].startswith(("bad/", "../")) for i in images[1:])
            assert {i["collection"] for i in images} == {"commute", "collection"}  # portable names, no host paths
            chosen.append({i["uid"] for i in images[1:]})
        assert not chosen[0] & chosen[1]


def test_demo_counts_card_and_info(demo: Path) -> None:
    info = json.loads((demo / "info.json").read_text())
    counts = info["counts"]
    assert counts["read"] == counts["kept"] + sum(counts["dropped"].values())
    assert counts["dropped"] == {"image:decode_error": 2, "image:duplicate": 1, "image:extreme_aspect": 1,
                                 "image:same_as_commute_image": 1, "image:too_small": 3}
    assert info["notes"]["collection"]["kept"] == 46  # 42 drawings + 4 odd modes (CMYK, palette, LA, 16 bit)
    assert info["notes"]["index"] == {"kind": "flat", "vectors": 46, "dim": 32}
    assert info["tools"]["clip_model"].startswith("mtprobes-tiny-clip/random-init(seed=0")
    assert "clip_model:mtprobes-tiny-clip" in info["signature"]
    card = (demo / "README.md").read_text()
    assert "Kashani Motlagh" in card and "futeral-etal-2023-tackling" in card
    assert yaml.safe_load(card.split("---\n")[1])["language"] == ["en", "de"]
    assert CommuteExtBuilder(config("tgt_lang=fr")).card_languages() == ("en", "fr")  # follows the config
    assert "| image:too_small | 3 |" in card
    loaded = datasets.load_from_disk(str(demo / "hf" / "default"))["test"]
    assert loaded[0]["translations"][1]["images"][4]["slot"] == 4
    assert CommuteExtBuilder(config()).invariants([]) == []


def test_demo_commute_slot_files(demo: Path) -> None:
    rows = records(demo)
    for slot in range(5):
        folder = demo / "commute" / f"slot{slot}"
        columns = {name: (folder / name).read_text().splitlines()
                   for name in ("src.en", "correct.de", "incorrect.de", "img.order")}
        assert len({len(c) for c in columns.values()}) == 1 and len(columns["src.en"]) == 6
        assert columns["src.en"] == (SAMPLE / "commute" / "en-de" / "src.en").read_text().splitlines()
        assert columns["correct.de"] == (SAMPLE / "commute" / "en-de" / "correct.de").read_text().splitlines()
        expected = [t["images"][slot]["uid"] for r in rows for t in r["translations"]]
        assert columns["img.order"] == expected
    assert (demo / "commute" / "slot0" / "img.order").read_text() == \
        (SAMPLE / "commute" / "en-de" / "img.order").read_text()
    page = (demo / "review" / "index.html").read_text()
    assert page.count('type="checkbox"') == 3 * 2 * 15 and page.count(" checked>") == 3 * 2 * 4
    assert "data:image/jpeg;base64," in page


def test_same_seed_rebuild_is_byte_identical(demo: Path, tmp_path: Path) -> None:
    again = build(tmp_path)
    assert tree(again) == tree(demo)
    files = tree(again)
    for name in ("data/test-00000-of-00001.parquet", "jsonl/test.jsonl", "README.md", "info.json",
                 "review/index.html", "commute/slot4/img.order", "hf/default/dataset_dict.json"):
        assert name in files


def test_resume_after_a_kill_while_embedding_is_byte_identical(demo: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    original = ClipEncoder.encode_pixels
    calls = {"n": 0}

    def killed_midway(self: ClipEncoder, tensors: Any) -> np.ndarray:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return original(self, tensors)

    monkeypatch.setattr(ClipEncoder, "encode_pixels", killed_midway)
    with pytest.raises(KeyboardInterrupt):
        build(tmp_path)
    partial = tmp_path / "commute_ext" / "demo" / ".v1.partial"
    assert list(partial.rglob("shard-00000.npy"))  # the first shard survived the kill
    resumed = build(tmp_path, resume=True)
    assert calls["n"] > 3
    assert tree(resumed) == tree(demo)


def test_selection_file_is_applied(demo: Path, tmp_path: Path) -> None:
    rows = records(demo)
    choice: dict[str, dict[str, list[str]]] = {}
    target = rows[1]
    taken = {i["uid"] for t in target["translations"] for i in t["images"][1:]}
    spare = [c["uid"] for c in target["translations"][0]["candidates"] if c["uid"] not in taken]
    new_first = spare[:2] + [i["uid"] for i in target["translations"][0]["images"][1:3]]
    choice[target["id"]] = {"0": new_first, "1": [i["uid"] for i in target["translations"][1]["images"][1:]]}
    selection = tmp_path / "selection.json"
    selection.write_text(json.dumps({"format": SELECTION_FORMAT, "selections": choice}))
    out = build(tmp_path / "out", f"selection={selection}")
    after = {r["id"]: r for r in records(out)}
    assert after["en-de-0001"] == rows[0]  # groups the file does not mention keep the pre-selection
    translation = after[target["id"]]["translations"][0]
    assert translation["selected_by"] == "review"
    ranks = {c["uid"]: c["rank"] for c in translation["candidates"]}
    assert [i["uid"] for i in translation["images"][1:]] == sorted(new_first, key=ranks.__getitem__)
    assert str(selection) in json.loads((out / "info.json").read_text())["inputs"]


def test_selection_errors(demo: Path, tmp_path: Path) -> None:
    first = records(demo)[0]
    t0, t1 = first["translations"]
    mine = [i["uid"] for i in t0["images"][1:]]
    shared = [c["uid"] for c in t0["candidates"] if c["uid"] in {d["uid"] for d in t1["candidates"]}]
    assert shared  # the demo retrieves some images for both captions (other_translation suppression)
    own = [c["uid"] for c in t1["candidates"] if c["uid"] != shared[0]][:3]
    t0_with_shared = [shared[0], *[u for u in mine if u != shared[0]][:3]]
    cases = [
        ({"en-de-0009": {"0": mine}}, r"record id\(s\) \['en-de-0009'\] are not in this build"),
        ({"en-de-0001": {"0": mine[:3]}}, "selects 3 distinct images, expected 4"),
        ({"en-de-0001": {"0": t0_with_shared, "1": [*own, shared[0]]}}, "selected for both translations"),
    ]
    selection = tmp_path / "selection.json"
    for selections, message in cases:
        selection.write_text(json.dumps({"format": SELECTION_FORMAT, "selections": selections}))
        with pytest.raises(InputError, match=message):
            build(tmp_path / "out", f"selection={selection}")


def copy_sample(tmp_path: Path) -> Path:
    target = tmp_path / "sample"
    shutil.copytree(SAMPLE / "commute", target / "commute")
    shutil.copy(SAMPLE / "captions.tsv", target / "captions.tsv")
    return target


def sample_overrides(sample: Path, *more: str) -> list[str]:
    return [f"data_dir={sample}/commute/en-de", f"image_dir={sample}/commute/images",
            f"captions={sample}/captions.tsv", *more]


@pytest.mark.parametrize(
    ("damage", "message", "reason"),
    [
        (Path.unlink, "not found", "source:missing_original_image"),
        (lambda path: path.write_bytes(path.read_bytes()[:100]), "cannot be decoded",
         "source:undecodable_original_image"),
    ],
    ids=["missing", "truncated"],
)
def test_bad_original_image_error_or_counted_drop(tmp_path: Path, damage: Any, message: str, reason: str) -> None:
    sample = copy_sample(tmp_path)
    damage(sample / "commute" / "images" / "04_club.png")
    with pytest.raises(InputError, match=rf"img.order:4: image '04_club.png' {message}"):
        build(tmp_path / "out", *sample_overrides(sample))
    out = build(tmp_path / "out", *sample_overrides(sample, "missing_original=drop"))
    assert [r["id"] for r in records(out)] == ["en-de-0001", "en-de-0003"]
    dropped = json.loads((out / "info.json").read_text())["counts"]["dropped"]
    assert dropped[reason] == 1
    assert len((out / "commute" / "slot2" / "img.order").read_text().splitlines()) == 4


def test_img_order_escaping_the_image_root(tmp_path: Path) -> None:
    sample = copy_sample(tmp_path)
    order = sample / "commute" / "en-de" / "img.order"
    order.write_text(order.read_text().replace("03_flying_bat.png", "../../captions.tsv"))
    with pytest.raises(InputError, match=r"img.order:3: image path '../../captions.tsv' escapes the image root"):
        build(tmp_path / "out", *sample_overrides(sample))


def test_caption_count_mismatch(tmp_path: Path) -> None:
    sample = copy_sample(tmp_path)
    captions = sample / "captions.tsv"
    captions.write_text("".join(captions.read_text(encoding="utf-8").splitlines(True)[:-1]), encoding="utf-8")
    with pytest.raises(InputError, match="has 5 captions but the CoMMuTE files have 6 lines"):
        build(tmp_path / "out", *sample_overrides(sample))


def test_empty_collection_and_nothing_kept(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="the image collection is empty"):
        build(tmp_path / "out", f"collection=[{tmp_path / 'empty'}]")
    bad_only = tmp_path / "bad_only"
    shutil.copytree(SAMPLE / "collection" / "bad", bad_only)
    (bad_only / "duplicate_of_river_0.png").unlink()  # valid once its original is not in the collection
    with pytest.raises(InputError, match="no image of the collection passed the filters"):
        build(tmp_path / "out", f"collection=[{bad_only}]")


def test_a_collection_too_small_for_four_images_drops_sources(tmp_path: Path) -> None:
    small = tmp_path / "small"
    shutil.copytree(SAMPLE / "collection" / "coins", small)
    with pytest.raises(MtprobesError, match=r"no ambiguous source kept \(\{'source:too_few_candidates': 3\}\)"):
        build(tmp_path / "out", f"collection=[{small}]")
    assert not (tmp_path / "out" / "commute_ext" / "demo" / "v1").exists()  # nothing half-written


@pytest.mark.parametrize(
    ("override", "message"),
    [("per_translation=20", "cannot exceed 'candidates'"), ("max_aspect=0.5", "must be >= 1"),
     ("collection=[]", "give at least one image collection"), ("index=annoy", "config key 'index'"),
     ("candidates=0", "config key 'candidates': must be >= 1")],
)
def test_config_errors(override: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config(override)


def test_half_precision_on_cpu_is_refused() -> None:
    from builders.commute_ext.embed import resolve_device_precision

    assert resolve_device_precision("cpu", "auto") == ("cpu", "fp32")
    assert resolve_device_precision("auto", "auto")[1] == "fp32"  # on a GPU too: half precision changes the images
    with pytest.raises(ConfigError, match="fp16 is for GPUs"):
        resolve_device_precision("cpu", "fp16")


def test_missing_weights_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"cannot load open_clip model 'ViT-B-32' with pretrained='.*missing.bin'"):
        build(tmp_path / "out", "model=ViT-B-32", f"pretrained={tmp_path / 'missing.bin'}", "model_config_dir=")


def _tar_of_sample(path: Path) -> Path:
    """The sample collection as one webdataset shard (key = path without suffix, captions as .txt)."""
    import tarfile

    root = SAMPLE / "collection"
    with tarfile.open(path, "w") as tar:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                tar.add(file, arcname=file.relative_to(root).as_posix())
    return path


def test_webdataset_collection_with_exported_images(demo: Path, tmp_path: Path) -> None:
    shard = _tar_of_sample(tmp_path / "shard-00000.tar")
    out = build(tmp_path / "out", f"collection=[{shard}]", "export_images=true")
    rows = records(out)
    assert len(rows) == 3
    info = json.loads((out / "info.json").read_text())
    assert info["counts"] == json.loads((demo / "info.json").read_text())["counts"]  # same images, same drops
    order = (out / "commute" / "slot2" / "img.order").read_text().splitlines()
    assert all(name.startswith("retrieved/") for name in order)
    for name, row_image in zip(order, [t["images"][2] for r in rows for t in r["translations"]], strict=True):
        exported = out / "commute" / "images" / name
        import hashlib

        assert hashlib.sha256(exported.read_bytes()).hexdigest() == row_image["sha256"]
        assert row_image["uid"].startswith("shard-00000.tar/") and row_image["collection"] == "shard-00000.tar"
    slot0 = (out / "commute" / "slot0" / "img.order").read_text().splitlines()
    assert all((out / "commute" / "images" / name).is_file() for name in slot0)
    page = (out / "review" / "index.html").read_text()
    assert page.count("data:image/jpeg;base64,") == 3 * 2 * 16  # every candidate and original has a thumbnail


def test_precomputed_npz_embeddings_end_to_end(tmp_path: Path) -> None:
    from builders.commute_ext.store import StoreView
    from builders.core.validate import validate_dataset

    cache = tmp_path / "cache"
    build(tmp_path / "images", f"cache_dir={cache}")
    view = StoreView(next(cache.glob("store-*")))
    npz = tmp_path / "embeddings.npz"
    np.savez(npz, uid=np.array([m.uid for m in view.meta]), b32_img=view.matrix())
    out = build(tmp_path / "npz", f"collection=[{npz}]")
    assert validate_dataset(out).info["notes"]["collection"]["kept"] == len(view.meta)
    by_image = {r["id"]: r for r in records(tmp_path / "images" / "commute_ext" / "demo" / "v1")}
    for row in records(out):  # the same vectors retrieve the same images
        for mine, theirs in zip(row["translations"], by_image[row["id"]]["translations"], strict=True):
            assert [i["uid"] for i in mine["images"]] == [i["uid"] for i in theirs["images"]]
            ours = [c["similarity"] for c in mine["candidates"]]
            assert ours == pytest.approx([c["similarity"] for c in theirs["candidates"]], abs=2e-6)
    page = (out / "review" / "index.html").read_text()
    assert page.count('class="noimg"') == 3 * 2 * 15  # no image bytes: the uid is shown instead
    with pytest.raises(MtprobesError, match="precomputed embeddings carry none"):
        build(tmp_path / "npz", f"collection=[{npz}]", "export_images=true")


def test_demo_validates_and_ivf_index_reports_recall(demo: Path, tmp_path: Path) -> None:
    from builders.core.validate import validate_dataset

    assert validate_dataset(demo).info["records"] == {"default": {"test": 3}}
    out = build(tmp_path / "ivf", "index=hnsw", "recall_sample=40")
    index = json.loads((out / "info.json").read_text())["notes"]["index"]
    assert index["kind"] == "hnsw" and index["recall_queries"] == 40
    assert 0.9 <= index["recall_at_15_near_data_queries"] <= 1.0
    assert 0.5 <= index["recall_at_15_caption_queries"] <= 1.0  # 6 captions against 46 images


def test_a_starting_config_names_every_missing_input_at_once() -> None:
    from builders.commute_ext.config import CommuteExtConfig

    with pytest.raises(ConfigError, match=r"'data_dir', 'captions', 'collection' \(give at least one image collection\)"
                                          r": required"):
        CommuteExtConfig.from_sources(None, [])


def repeated_demo(folder: Path, times: int) -> list[str]:
    """The demo's CoMMuTE lines ``times`` over (record ids are positional: every copy has its own) with their
    captions, as config overrides."""
    data = folder / "en-de"
    data.mkdir(parents=True)
    for path in (SAMPLE / "commute" / "en-de").iterdir():
        (data / path.name).write_text(path.read_text(encoding="utf-8") * times, encoding="utf-8")
    rows = (SAMPLE / "captions.tsv").read_text(encoding="utf-8").splitlines()[1:]
    (folder / "captions.txt").write_text("".join(row.split("\t")[-1] + "\n" for row in rows) * times,
                                         encoding="utf-8")
    return [f"data_dir={data}", f"captions={folder / 'captions.txt'}",
            f"image_dir={SAMPLE / 'commute' / 'images'}"]


def test_the_plan_keeps_offsets_and_units_read_their_source_back(tmp_path: Path) -> None:
    """Issue 26: every source's candidates go to the work folder; the plan holds 8 bytes per source, and a unit
    reads its own source back when it is taken, in record-id order."""
    import pickle

    from builders.commute_ext.plan import prepare
    from builders.commute_ext.units import make_units
    from builders.core.context import BuildContext
    from builders.core.lazy import LazySequence

    sizes = {}
    for times in (1, 4):
        settings = config(*repeated_demo(tmp_path / f"x{times}", times))
        plan = prepare(settings, BuildContext(config=settings, work_dir=tmp_path / f"work{times}", quiet=True))
        units = make_units(plan)
        assert isinstance(units, LazySequence)
        assert [u.key for u in units] == [f"en-de-{n:04d}" for n in range(1, 3 * times + 1)]
        first = units[0].payload
        assert first.source == "He walked over to the bank." and len(first.translations[0].candidates) == 15
        assert units[3 * times - 1].payload.source == units[2].payload.source  # the last copy's last source
        stored = pickle.dumps(plan)
        assert b"walked over" not in stored and first.translations[0].candidates[0].uid.encode() not in stored
        sizes[times] = len(stored)
    assert sizes[4] - sizes[1] <= 9 * 8 + 8  # 9 more sources: one offset each (and a longer pickled array)


def test_captions_and_originals_are_encoded_in_batches_whatever_follows_them() -> None:
    """Issue 26: prepare() encodes ``batch_size`` captions or images at a time (one pass over all of them held
    the activations of every caption at once, and gave a caption other last bits as the corpus grew); a batch's
    vectors are the same bytes whatever batches follow, and within float rounding of one pass over all."""
    from builders.commute_ext.embed import ModelSpec
    from builders.commute_ext.filters import decode_rgb
    from builders.commute_ext.plan import in_batches

    settings = config()
    encoder = ClipEncoder(ModelSpec(settings.model, settings.pretrained, settings.model_config_dir,
                                    settings.init_seed, settings.device, settings.precision))
    texts = [f"a photo of {n} {word}" for n in range(9) for word in ("coins", "a river bank", "a bat", "seals")]
    batched = in_batches(encoder.encode_texts, texts, 5)
    assert np.array_equal(in_batches(encoder.encode_texts, texts[:10], 5), batched[:10])
    assert batched.shape == (36, encoder.dim) and np.allclose(batched, encoder.encode_texts(texts), atol=1e-6)
    images = [decode_rgb(p.read_bytes()) for p in sorted((SAMPLE / "commute" / "images").iterdir())] * 3
    batched = in_batches(encoder.encode_images, images, 4)
    assert np.array_equal(in_batches(encoder.encode_images, images[:8], 4), batched[:8])
    assert batched.shape == (18, encoder.dim) and np.allclose(batched, encoder.encode_images(images), atol=1e-6)
