"""What sharding the alignment costs in link quality (run as a script; prints measured figures only).

    .venv/bin/python tests/bench/bench_align_shards.py [--corpus IWSLT2017] [--shards 10,31] [--aligner diagonal]

pronouns.v1's own alignment pass (tokenise, align, symmetrise with grow-diag-final-and) on docs-ende/<corpus>
dev, once unsharded and once per ``align_shard_docs`` value (priors learnt on the first shard, as a build does).
With the deterministic ``diagonal`` aligner two runs of one config give the same links, so every difference
below is the sharding's: the share of segments whose links are identical, and precision/recall/F1 of the
sharded links against the unsharded ones; plus the wall time of each alignment on this machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO.parent / "shared" / "data" / "docs-ende"
sys.path.insert(0, str(REPO))


def aligned(corpus: str, shard_docs: int, aligner: str, work: Path) -> tuple[list[set[tuple[int, int]]], float]:
    from builders.core.context import BuildContext
    from builders.pronouns.align import symmetrised
    from builders.pronouns.config import PronounsConfig
    from builders.pronouns.english import PipelinePin, load_pipeline
    from builders.pronouns.plan import _aligned, _store_documents
    from builders.pronouns.readers import InputSpec, stream_input

    config = PronounsConfig(src=str(DOCS / corpus / "dev.en"), tgt=str(DOCS / corpus / "dev.de"),
                            aligner=aligner, align_shard_docs=shard_docs)
    pipeline = load_pipeline("")
    ctx = BuildContext(config=config, work_dir=work / f"shards-{shard_docs}", quiet=True)
    stream = stream_input("docs", InputSpec(config.src, config.tgt, "", "", "", ""))
    store = _store_documents(config, ctx, stream.documents).store
    started = time.perf_counter()
    forward, reverse = _aligned(config, ctx, PipelinePin(pipeline.name, pipeline.version), store)
    wall = time.perf_counter() - started
    pairs = list(zip(forward.read(0, store.documents), reverse.read(0, store.documents), strict=True))
    return symmetrised(pairs, config.symmetrisation), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="IWSLT2017")
    parser.add_argument("--shards", default="10,31", help="align_shard_docs values to compare with unsharded")
    parser.add_argument("--aligner", default="diagonal")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_align_shards_"))
    reference, wall = aligned(args.corpus, 0, args.aligner, work)
    print(f"{args.aligner} on docs-ende/{args.corpus} dev ({len(reference)} segments, load average "
          f"{os.getloadavg()[0]:.2f}): unsharded {wall:.1f} s")
    for shard_docs in (int(x) for x in args.shards.split(",")):
        links, wall = aligned(args.corpus, shard_docs, args.aligner, work)
        same = sum(a == b for a, b in zip(links, reference, strict=True)) / len(reference)
        common = sum(len(a & b) for a, b in zip(links, reference, strict=True))
        precision = common / max(1, sum(len(a) for a in links))
        recall = common / max(1, sum(len(b) for b in reference))
        f1 = 2 * precision * recall / max(1e-12, precision + recall)
        print(f"  shards of {shard_docs} documents: {wall:.1f} s; identical links in {same:.3f} of segments; "
              f"vs unsharded precision {precision:.4f} recall {recall:.4f} F1 {f1:.4f}")


if __name__ == "__main__":
    main()
