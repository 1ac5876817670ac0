"""Re-derive the candidate list behind ``resources/variations/adverbs.tsv`` (run by hand, not at build time).

Ranks English words by ``wordfreq`` Zipf frequency and keeps those that spaCy tags ADV in at least half of their
occurrences in a tagging corpus the user gives (one sentence per line). Wh-adverbs (tag WRB: how, when, where,
why), which open clauses and cannot be removed, are left out. The German column of the lexicon is written by
hand; this script only prints the English ranking.

    python -m builders.variations.select_adverbs CORPUS.en [CORPUS2.en ...] --top 80
"""

from __future__ import annotations

import argparse
import gzip
from collections import Counter
from pathlib import Path


def _read(path: Path) -> list[str]:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return [line for line in data.decode("utf-8").splitlines() if line.strip()]


def rank_adverbs(corpora: list[Path], top: int, min_count: int = 20, min_adv_share: float = 0.5) -> list[str]:
    import spacy
    import wordfreq

    from builders.core.compat import spacy_english

    nlp = spacy.load(spacy_english().name, disable=["ner", "lemmatizer", "parser"])
    total: Counter[str] = Counter()
    adverb: Counter[str] = Counter()
    wh_adverb: Counter[str] = Counter()
    for path in corpora:
        for doc in nlp.pipe(_read(path), batch_size=256):
            for token in doc:
                word = token.lower_
                total[word] += 1
                adverb[word] += token.pos_ == "ADV"
                wh_adverb[word] += token.tag_ == "WRB"
    rows = []
    for word in wordfreq.top_n_list("en", 5000):
        if not word.isalpha() or total[word] < min_count:
            continue
        share = adverb[word] / total[word]
        if share >= min_adv_share and wh_adverb[word] < adverb[word] / 2:
            rows.append(f"{word}\t{wordfreq.zipf_frequency(word, 'en'):.2f}\t{share:.2f}\t{total[word]}")
        if len(rows) >= top:
            break
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=80)
    args = parser.parse_args()
    print("word\tzipf\tadv_share\tcount")
    for row in rank_adverbs(args.corpora, args.top):
        print(row)


if __name__ == "__main__":
    main()
