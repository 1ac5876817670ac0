"""Benchmark and quality figures of pronouns.v1 (run as a script; default < 3 min on one core).

    .venv/bin/python tests/bench/bench_pronouns.py [--corpus NC-2016|IWSLT2017|both] [--skip-memory]

Prints: gold precision/recall/variant exact match; items per class and antecedent distance on
../shared/data/docs-ende; sentences/s of the whole build (cold alignment cache, eflomal included, and warm)
against spaCy parsing alone on the same English text; peak memory (max RSS of a fresh process) for builds
on 1/4, 1/2 and all documents of the corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO.parent / "shared" / "data" / "docs-ende"
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def spacy_only(src: Path) -> tuple[int, float]:
    from builders.pronouns.english import load_pipeline, normalise_space

    texts = [
        normalise_space(line)
        for line in src.read_text(encoding="utf-8").splitlines()
        if line.strip() != "<d>"
    ]
    nlp = load_pipeline().nlp
    started = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=64):
        pass
    return len(texts), time.perf_counter() - started


def build(src: Path, tgt: Path, out: Path, cache: Path, name: str) -> tuple[dict, float]:
    from builders.pronouns.builder import PronounsBuilder
    from builders.pronouns.config import PronounsConfig

    config = PronounsConfig(name=name, src=str(src), tgt=str(tgt), per_class=0, alignment_cache=str(cache))
    started = time.perf_counter()
    folder = PronounsBuilder(config).build(out, overwrite=True, quiet=True)
    return json.loads((folder / "info.json").read_text(encoding="utf-8")), time.perf_counter() - started


def subset(src: Path, tgt: Path, fraction: float, folder: Path) -> tuple[Path, Path]:
    en, de = src.read_text(encoding="utf-8").splitlines(), tgt.read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(en) if line.strip() == "<d>"]
    end = starts[int(len(starts) * fraction)] if fraction < 1 else len(en)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "part.en").write_text("\n".join(en[:end]) + "\n", encoding="utf-8")
    (folder / "part.de").write_text("\n".join(de[:end]) + "\n", encoding="utf-8")
    return folder / "part.en", folder / "part.de"


def peak_memory(src: Path, tgt: Path, work: Path) -> list[tuple[float, int, float]]:
    """(fraction, segments, max RSS MB) of builds in fresh processes. Most of it is the spaCy pipeline and the
    noun lexicon, loaded once. eflomal runs as a child process and is not included (the kernel's figure for
    children counts the forked Python pages before exec, so it says nothing about eflomal itself)."""
    results = []
    for fraction in (0.25, 0.5, 1.0):
        part_src, part_tgt = subset(src, tgt, fraction, work / f"part{fraction}")
        code = (
            f"import resource,sys; sys.path.insert(0, {str(REPO)!r}); "
            f"from tests.bench.bench_pronouns import build; from pathlib import Path; "
            f"build(Path({str(part_src)!r}), Path({str(part_tgt)!r}), Path({str(work / 'mem')!r}), "
            f"Path({str(work / 'memcache')!r}), 'mem'); "
            f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
        )
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        segments = sum(
            1 for line in part_src.read_text(encoding="utf-8").splitlines() if line.strip() != "<d>"
        )
        results.append((fraction, segments, int(output.stdout.split()[-1]) / 1024))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", default="NC-2016", choices=["NC-2016", "IWSLT2017", "both"])
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    from builders.pronouns.gold import score_gold

    work = Path(tempfile.mkdtemp(prefix="bench_pronouns_"))
    gold = score_gold(REPO / "tests" / "data" / "pronouns_gold.jsonl", work / "gold", alignment_cache="")
    print(
        f"gold: precision {gold.precision:.3f}  recall {gold.recall:.3f}  "
        f"variant exact match {gold.variant_exact_match:.3f}  ({gold.correct}/{gold.kept} kept correct, "
        f"{gold.expected_keep} expected)"
    )
    corpora = ["NC-2016", "IWSLT2017"] if args.corpus == "both" else [args.corpus]
    if not DOCS.is_dir():
        print(f"{DOCS} is absent: docs-ende figures skipped")
        return
    for corpus in corpora:
        src, tgt = DOCS / corpus / "dev.en", DOCS / corpus / "dev.de"
        # the machine is shared: spaCy alone is timed before and after the builds and the faster run is used
        segments, spacy_before = spacy_only(src)
        info, cold_s = build(src, tgt, work / "out", work / f"cache-{corpus}", corpus)
        _, warm_s = build(src, tgt, work / "out", work / f"cache-{corpus}", corpus)
        spacy_s = min(spacy_before, spacy_only(src)[1])
        notes = info["notes"]
        print(
            f"\n{corpus}: {segments} segments, {info['counts']['read']} 'it' read, {info['counts']['kept']} kept"
        )
        print(f"  items per class: {notes['items_per_class']}")
        print(f"  items per distance: {notes['items_per_distance']}")
        print(f"  class@distance: {notes['items_per_class_and_distance']}")
        print(f"  dropped: {info['counts']['dropped']}")
        print(f"  spaCy parsing alone: {segments / spacy_s:.1f} sentences/s ({spacy_s:.1f} s)")
        print(
            f"  whole build, cold alignment: {segments / cold_s:.1f} sentences/s ({cold_s:.1f} s), "
            f"ratio {cold_s / spacy_s:.2f}x"
        )
        print(
            f"  whole build, cached alignment: {segments / warm_s:.1f} sentences/s ({warm_s:.1f} s), "
            f"ratio {warm_s / spacy_s:.2f}x"
        )
        if not args.skip_memory:
            for fraction, count, megabytes in peak_memory(src, tgt, work / corpus):
                print(f"  peak RSS, {fraction:.0%} of documents ({count} segments): {megabytes:.0f} MB")
    print(f"\n(bench process max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
