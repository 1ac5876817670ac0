"""shuffles.v1 end to end: demo sample, extras and baselines, reproducibility, bad input, real Multi30K."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from builders.core.config import load_config_file
from builders.core.errors import ConfigError, InputError
from builders.core.resources import resources_root
from builders.core.validate import validate_dataset
from builders.shuffles.builder import ShufflesBuilder
from builders.shuffles.config import ShufflesConfig
from builders.shuffles.invariants import find_problems
from builders.shuffles.sample import write_sample_assets

SAMPLE = resources_root() / "samples" / "shuffles"


def demo_config(**overrides: Any) -> ShufflesConfig:
    """The bundled demo config with some keys replaced."""
    return ShufflesConfig.from_mapping({**load_config_file(SAMPLE / "demo.yaml"), **overrides})


def build(tmp: Path, **overrides: Any) -> Path:
    return ShufflesBuilder(demo_config(**overrides)).build(tmp, overwrite=True, quiet=True)


def records(path: Path, subset: str, split: str = "sample") -> list[dict[str, Any]]:
    lines = (path / "jsonl" / subset / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("demo"))


def test_demo_build_is_valid_with_every_subset(demo: Path) -> None:
    validate_dataset(demo)
    info = json.loads((demo / "info.json").read_text())
    subsets = ["congruent", *(f"random{i}" for i in range(1, 6))]
    assert info["records"] == {name: {"sample": 40} for name in subsets}
    notes = info["notes"]
    assert notes["distinct_images"] == 25  # 26 file names, boat_lake_copy.png has the bytes of boat_lake.png
    assert set(notes["seeds"]) == {f"random{i}" for i in range(1, 6)}
    card = (demo / "README.md").read_text()
    assert "## Shuffles" in card and card_header(demo)["language"] == ["en", "de"]
    for seed in notes["seeds"].values():
        assert str(seed) in card


def test_demo_shuffles_are_derangements_by_file_content(demo: Path) -> None:
    own = {r["line"]: r for r in records(demo, "congruent")}
    for index in range(1, 6):
        shuffled = records(demo, f"random{index}")
        assert sorted(r["distractor_line"] for r in shuffled) == sorted(own)
        for record in shuffled:
            assert record["distractor_sha256"] != record["image_sha256"]
            assert record["input_image"] == own[record["distractor_line"]]["image"]
    # The two names of the boat picture are never paired with each other.
    boats = {"boat_lake.png", "boat_lake_copy.png"}
    for index in range(1, 6):
        shuffled = records(demo, f"random{index}")
        assert not any(r["image"] in boats and r["distractor_image"] in boats for r in shuffled)


def test_extras_order_files_and_feature_baselines(demo: Path) -> None:
    extras = demo / "extras"
    features = np.load(SAMPLE / "sample.features.npy")
    congruent = records(demo, "congruent")
    line_to_row = {r["line"]: i for i, r in enumerate(congruent)}
    assert (extras / "sample.images.txt").read_text().splitlines() == [r["image"] for r in congruent]
    for index in range(1, 6):
        shuffled = records(demo, f"random{index}")
        order = (extras / f"sample.images.txt-random{index}").read_text().splitlines()
        assert order == [r["input_image"] for r in shuffled]
        perm = np.array([line_to_row[r["distractor_line"]] for r in shuffled])
        assert np.array_equal(np.load(extras / f"sample.features-random{index}.npy"), features[perm])
    zeros = np.load(extras / "sample.features-zeros.npy")
    assert zeros.shape == features.shape and zeros.dtype == features.dtype and not zeros.any()
    perm1 = np.array([line_to_row[r["distractor_line"]] for r in records(demo, "random1")])
    mixup = np.load(extras / "sample.features-mixup-random1.npy")
    np.testing.assert_allclose(mixup, (features + features[perm1]) / 2, rtol=1e-6)
    assert not (extras / "sample.features-mixup-random2.npy").exists()  # mixup_shuffles: 1


def test_pixel_mixup_blends_own_image_and_distractor(demo: Path) -> None:
    from PIL import Image

    first = records(demo, "random1")[0]
    names = (demo / "extras" / "sample.images.txt-mixup-random1").read_text().splitlines()
    assert len(names) == 40 and names[0] == "000001.png"
    blended = np.asarray(Image.open(demo / "extras" / "mixup-random1" / names[0]), dtype=np.int16)
    own, other = (
        np.asarray(Image.open(SAMPLE / "images" / first[key]).convert("RGB"), dtype=np.int16)
        for key in ("image", "distractor_image")
    )
    assert np.abs(blended - (own + other) / 2).max() <= 1


def test_same_seed_gives_byte_identical_output_and_another_seed_differs(demo: Path, tmp_path: Path) -> None:
    again = build(tmp_path / "again")
    files = sorted(p.relative_to(demo) for p in demo.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for relative in files:  # info.json included: it holds no wall time
        assert (demo / relative).read_bytes() == (again / relative).read_bytes(), relative
    other = build(tmp_path / "other", seed=14)
    assert records(other, "random1") != records(demo, "random1")


def test_similar_and_dissimilar_policies_order_the_mean_cosine(tmp_path: Path) -> None:
    means = {}
    for policy in ("similar", "random", "dissimilar"):
        path = build(tmp_path / policy, policy=policy, shuffles=2, mixup_shuffles=0, image_dir="")
        validate_dataset(path)
        means[policy] = json.loads((path / "info.json").read_text())["notes"]["mean_cosine_to_distractor"]
    assert means["similar"] > means["random"] > means["dissimilar"]


def test_names_decide_content_without_image_files(tmp_path: Path) -> None:
    path = build(tmp_path, image_dir="", features="", shuffles=2, mixup_shuffles=0)
    validate_dataset(path)
    info = json.loads((path / "info.json").read_text())
    assert info["notes"]["distinct_images"] == 26  # boat_lake_copy.png counts as its own image now
    assert all(r["image_sha256"] is None for r in records(path, "random1"))
    assert all(r["image"] != r["distractor_image"] for r in records(path, "random1"))


def copy_sample(tmp_path: Path) -> Path:
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    return folder


def test_gzipped_multi30k_and_jsonl_inputs_give_the_same_shuffles(demo: Path, tmp_path: Path) -> None:
    folder = copy_sample(tmp_path)
    for lang in ("en", "de"):
        source = folder / f"sample.{lang}"
        (folder / f"sample.{lang}.gz").write_bytes(gzip.compress(source.read_bytes(), mtime=0))
        source.unlink()
    zipped = build(tmp_path / "gz", data_dir=str(folder), image_dir=str(folder / "images"))
    assert records(zipped, "random3") == records(demo, "random3")
    jsonl = tmp_path / "sample.jsonl"
    jsonl.write_text(
        "".join(json.dumps({"src": r["src"], "ref": r["ref"], "image": r["image"]}) + "\n"
                for r in records(demo, "congruent")),
        encoding="utf-8",
    )
    from_jsonl = build(
        tmp_path / "jsonl", input_format="jsonl", jsonl=str(jsonl), image_dir=str(folder / "images")
    )
    validate_dataset(from_jsonl)
    assert [r["distractor_line"] for r in records(from_jsonl, "random2", "test")] == [
        r["distractor_line"] for r in records(demo, "random2")
    ]
    assert (from_jsonl / "extras" / "sample.images.txt-random2").is_file()


def test_feature_rows_must_match_lines(tmp_path: Path) -> None:
    bad = tmp_path / "short.npy"
    np.save(bad, np.zeros((39, 8), dtype=np.float32))
    with pytest.raises(InputError, match=r"short\.npy: has 39 rows but .*sample\.images\.txt has 40 lines"):
        build(tmp_path / "out", features=str(bad))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda f: (f / "images" / "gray_rock_sea.png").unlink(),
            r"sample\.images\.txt:29: image file 'gray_rock_sea",
        ),
        (
            lambda f: _replace_line(f, 5, "../demo.yaml"),
            r"sample\.images\.txt:5: image path '\.\./demo\.yaml' escapes",
        ),
        (lambda f: _replace_line(f, 7, ""), r"sample\.images\.txt:7: empty image name"),
        (lambda f: (f / "sample.de").write_text("nur eine Zeile\n"), r"sample\.de has 1 lines"),
        (lambda f: [(f / f"sample.{x}").write_text("") for x in ("en", "de", "images.txt")],
         r"sample\.en: file is empty"),
    ],
    ids=["missing image", "escaping path", "empty name", "line counts", "empty set"],
)
def test_bad_input_names_file_and_line(tmp_path: Path, edit: Any, message: str) -> None:
    folder = copy_sample(tmp_path)
    edit(folder)
    with pytest.raises(InputError, match=message):
        build(tmp_path / "out", data_dir=str(folder), image_dir=str(folder / "images"), features="")
    assert not (tmp_path / "out" / "shuffles" / "sample" / "v1").exists()


def _odd_image(mode: str, size: tuple[int, int], fmt: str = "PNG") -> Any:
    """An edit that replaces line 29's image (gray_rock_sea.png) by an odd one, same file name."""
    from PIL import Image

    def edit(folder: Path) -> None:
        image = Image.new(mode, size, 200 if mode in ("L", "P", "LA") else None)
        image.save(folder / "images" / "gray_rock_sea.png", format=fmt)

    return edit


@pytest.mark.parametrize(
    ("edit", "size"),
    [
        (_odd_image("RGB", (1, 1)), (1, 1)),
        (_odd_image("RGB", (10000, 10)), (10000, 10)),
        (_odd_image("CMYK", (30, 20), "JPEG"), (30, 20)),
        (_odd_image("P", (30, 20)), (30, 20)),
        (_odd_image("LA", (30, 20)), (30, 20)),
        (_odd_image("RGBA", (30, 20)), (30, 20)),
    ],
    ids=["1x1", "10000x10", "CMYK", "palette", "grey+alpha", "RGBA"],
)
def test_odd_images_are_blended_at_their_own_size(tmp_path: Path, edit: Any, size: tuple[int, int]) -> None:
    from PIL import Image

    folder = copy_sample(tmp_path)
    edit(folder)
    built = build(tmp_path / "out", data_dir=str(folder), image_dir=str(folder / "images"), features="")
    with Image.open(built / "extras" / "mixup-random1" / "000029.png") as blended:
        assert blended.mode == "RGB" and blended.size == size


def test_corrupt_image_names_the_line_when_pixels_are_blended(tmp_path: Path) -> None:
    folder = copy_sample(tmp_path)
    (folder / "images" / "gray_rock_sea.png").write_bytes(b"\x89PNG not really")
    overrides = {"data_dir": str(folder), "image_dir": str(folder / "images"), "features": ""}
    with pytest.raises(InputError, match=r"sample\.images\.txt:29: image file .*gray_rock_sea\.png cannot be decoded"):
        build(tmp_path / "out", **overrides)
    assert not (tmp_path / "out" / "shuffles" / "sample" / "v1").exists()
    # without pixel mixup the image is only hashed: its content is not needed
    build(tmp_path / "out", **overrides, mixup_images=False)


def _replace_line(folder: Path, line: int, value: str) -> None:
    path = folder / "sample.images.txt"
    lines = path.read_text().splitlines()
    lines[line - 1] = value
    path.write_text("".join(f"{x}\n" for x in lines))


def test_impossible_shuffle_is_a_clear_input_error(tmp_path: Path) -> None:
    folder = copy_sample(tmp_path)
    path = folder / "sample.images.txt"
    path.write_text("".join("yellow_sun_sky.png\n" if i < 21 else f"{n}\n"
                            for i, n in enumerate(path.read_text().splitlines())))
    # 21 lines replaced, plus line 34 which already shows the sun: 22 of 40 > half.
    with pytest.raises(InputError, match=r"sample\.images\.txt: .*'yellow_sun_sky\.png' is used by 22 of 40"):
        build(tmp_path / "out", data_dir=str(folder), image_dir=str(folder / "images"), features="")


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"policy": "similar", "features": ""}, "policy"),
        ({"shuffles": 0}, "shuffles"),
        ({"mixup_shuffles": 6}, "mixup_shuffles"),
        ({"block_size": 1}, "block_size"),
    ],
)
def test_config_errors_name_the_key(overrides: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError, match=f"'{key}'"):
        demo_config(**overrides)


def test_missing_input_path_is_a_config_error_at_build_time(tmp_path: Path) -> None:
    ShufflesConfig()  # the defaults alone are a valid config (`mtprobes config shuffles` prints them)
    with pytest.raises(ConfigError, match="'jsonl': required"):
        build(tmp_path, input_format="jsonl")


def test_invariants_catch_broken_shuffles(demo: Path) -> None:
    by_subset = {"congruent": records(demo, "congruent"), "random1": records(demo, "random1")}
    assert find_problems(by_subset) == []
    congruent_copy = [dict(r) for r in by_subset["random1"]]
    first = congruent_copy[0]
    first.update(
        distractor_image=first["image"], input_image=first["image"], distractor_sha256=first["image_sha256"]
    )
    problems = find_problems({**by_subset, "random1": congruent_copy})
    assert any("own content" in p for p in problems)
    duplicated = [dict(r) for r in by_subset["random1"]]
    duplicated[1]["distractor_line"] = duplicated[0]["distractor_line"]
    assert any("not a permutation" in p for p in find_problems({**by_subset, "random1": duplicated}))
    assert any("random1..random2" in p for p in find_problems({**by_subset, "random3": by_subset["random1"]}))


def test_bundled_sample_assets_regenerate_byte_identically(tmp_path: Path) -> None:
    folder = tmp_path / "sample"
    folder.mkdir()
    shutil.copy(SAMPLE / "sample.images.txt", folder)
    write_sample_assets(folder)
    assert (folder / "sample.features.npy").read_bytes() == (SAMPLE / "sample.features.npy").read_bytes()
    for image in sorted((SAMPLE / "images").iterdir()):
        assert (folder / "images" / image.name).read_bytes() == image.read_bytes(), image.name


@pytest.mark.shared
def test_real_multi30k_val(shared_data: Path, tmp_path: Path) -> None:
    """1,014 real captions; Multi30K task-1 splits list each Flickr30k image once, so content = name here."""
    data_dir = shared_data / "multi30k"
    config = ShufflesConfig(name="val", data_dir=str(data_dir), split="val", tgt_lang="fr", shuffles=3)
    path = ShufflesBuilder(config).build(tmp_path, overwrite=True, quiet=True)
    validate_dataset(path)
    assert card_header(path)["language"] == ["en", "fr"]  # the card follows the configured pair
    info = json.loads((path / "info.json").read_text())
    names = (data_dir / "val.images.txt").read_text().splitlines()
    assert info["records"]["random3"] == {"val": 1014}
    assert info["notes"]["distinct_images"] == len(set(names))
    assert info["notes"]["reused_images"] == len(names) - len(set(names))
    for index in range(1, 4):
        shuffled = records(path, f"random{index}", "val")
        assert all(r["src"] == gzip_line(data_dir / "val.en.gz", r["line"]) for r in shuffled[:50])
        assert all(r["ref"] == gzip_line(data_dir / "val.fr.gz", r["line"]) for r in shuffled[:50])
        assert all(r["distractor_image"] != r["image"] for r in shuffled)
        order = (path / "extras" / f"val.images.txt-random{index}").read_text().splitlines()
        assert sorted(order) == sorted(names) and all(a != b for a, b in zip(order, names, strict=True))


def card_header(path: Path) -> dict[str, Any]:
    header: dict[str, Any] = yaml.safe_load((path / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    return header


def gzip_line(path: Path, line: int) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8").split("\n")[line - 1]


def test_resume_after_a_crash_gives_the_same_bytes(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build killed after two subsets resumes from its checkpoint and writes what a clean build writes."""
    original = ShufflesBuilder.process

    def crash_on_random3(self: ShufflesBuilder, unit: Any, plan: Any, ctx: Any) -> Any:
        if unit.key == "random3":
            raise KeyboardInterrupt("simulated kill")
        return original(self, unit, plan, ctx)

    config = demo_config(checkpoint_every=1)
    monkeypatch.setattr(ShufflesBuilder, "process", crash_on_random3)
    with pytest.raises(KeyboardInterrupt):
        ShufflesBuilder(config).build(tmp_path, quiet=True)
    assert list((tmp_path / "shuffles" / "sample" / ".v1.partial" / "checkpoint").glob("chunk-*.pkl"))
    monkeypatch.setattr(ShufflesBuilder, "process", original)
    resumed = ShufflesBuilder(config).build(tmp_path, resume=True, quiet=True)
    for subset in ("congruent", "random1", "random3", "random5"):
        assert (resumed / "jsonl" / subset / "sample.jsonl").read_bytes() == (
            demo / "jsonl" / subset / "sample.jsonl"
        ).read_bytes()
        assert (resumed / "data" / subset / "sample-00000-of-00001.parquet").read_bytes() == (
            demo / "data" / subset / "sample-00000-of-00001.parquet"
        ).read_bytes()


def test_spatial_features_are_permuted_whole_and_pooled_for_cosines(tmp_path: Path) -> None:
    """(n, regions, d) features, as conv-feature files store them: rows move whole, cosines use the mean."""
    spatial = np.random.default_rng(0).standard_normal((40, 6, 8)).astype(np.float16)
    path = tmp_path / "spatial.npy"
    np.save(path, spatial)
    built = build(tmp_path / "out", features=str(path), image_dir="", shuffles=2)
    congruent = records(built, "congruent")
    line_to_row = {r["line"]: i for i, r in enumerate(congruent)}
    shuffled = records(built, "random2")
    perm = np.array([line_to_row[r["distractor_line"]] for r in shuffled])
    permuted = np.load(built / "extras" / "spatial-random2.npy")
    assert permuted.dtype == np.float16 and np.array_equal(permuted, spatial[perm])
    pooled = spatial.astype(np.float32).mean(axis=1)
    pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
    expected = np.einsum("ij,ij->i", pooled, pooled[perm])
    np.testing.assert_allclose([r["cosine_to_distractor"] for r in shuffled], expected, atol=2e-6)


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.zeros((40, 4), dtype=np.int64), "expected floating-point features, got dtype int64"),
        (np.zeros(40, dtype=np.float32), r"expected an array of shape \(examples, \.\.\.\)"),
        (np.where(np.arange(160).reshape(40, 4) == 21, np.nan, 1.0), "row 6 has NaN"),
    ],
    ids=["integers", "one dimension", "NaN"],
)
def test_bad_feature_files(tmp_path: Path, array: np.ndarray, message: str) -> None:
    path = tmp_path / "bad.npy"
    np.save(path, array)
    with pytest.raises(InputError, match=message):
        build(tmp_path / "out", features=str(path))
    (tmp_path / "junk.npy").write_bytes(b"not numpy at all")
    with pytest.raises(InputError, match=r"junk\.npy: not a readable \.npy array"):
        build(tmp_path / "out", features=str(tmp_path / "junk.npy"))


def sample_hf_dataset(folder: Path, embed_images: bool) -> Path:
    """The demo sample as a saved DatasetDict (split 'sample'), images embedded as bytes or named."""
    import datasets

    images = (SAMPLE / "sample.images.txt").read_text().splitlines()
    columns: dict[str, list[Any]] = {
        "en": (SAMPLE / "sample.en").read_text().splitlines(),
        "de": (SAMPLE / "sample.de").read_text().splitlines(),
        "picture": images,
    }
    features = {name: datasets.Value("string") for name in columns}
    if embed_images:
        columns["picture"] = [{"bytes": (SAMPLE / "images" / n).read_bytes(), "path": n} for n in images]
        features["picture"] = datasets.Image()
    split = datasets.Dataset.from_dict(columns, features=datasets.Features(features))
    datasets.DatasetDict({"sample": split}).save_to_disk(str(folder))
    return folder


@pytest.mark.parametrize("embed_images", [True, False], ids=["Image bytes", "file names"])
def test_hf_dataset_input_gives_the_same_shuffles(demo: Path, tmp_path: Path, embed_images: bool) -> None:
    folder = sample_hf_dataset(tmp_path / "hf", embed_images)
    overrides: dict[str, Any] = {"input_format": "hf", "hf_path": str(folder), "src_field": "en",
                                 "ref_field": "de", "image_field": "picture"}
    if embed_images:
        overrides["image_dir"] = ""  # the bytes are the images
    built = build(tmp_path / "out", **overrides)
    validate_dataset(built)
    for subset in ("congruent", "random1", "random4"):
        assert records(built, subset) == records(demo, subset)
    assert (built / "extras" / "mixup-random1" / "000001.png").read_bytes() == (
        demo / "extras" / "mixup-random1" / "000001.png"
    ).read_bytes()


def test_hf_dataset_errors_name_the_problem(tmp_path: Path) -> None:
    folder = sample_hf_dataset(tmp_path / "hf", embed_images=False)
    with pytest.raises(InputError, match=r"split 'test' not found; splits: \['sample'\]"):
        build(tmp_path / "out", input_format="hf", hf_path=str(folder), split="test")
    with pytest.raises(InputError, match=r"column\(s\) \['src', 'ref', 'image'\] not found"):
        build(tmp_path / "out", input_format="hf", hf_path=str(folder))
    embedded = sample_hf_dataset(tmp_path / "embedded", embed_images=True)
    with pytest.raises(ConfigError, match="'image_dir': the image column .* already holds the image bytes"):
        build(tmp_path / "out", input_format="hf", hf_path=str(embedded), src_field="en", ref_field="de",
              image_field="picture")
