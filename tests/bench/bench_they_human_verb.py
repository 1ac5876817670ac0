"""Where the human-agent filter fires on OntoGUM, how often the learned top-1 is wrong (acceptance rule in
docs/coref.md, "Human-agent filter for *they*").

Population: every *they* (and, for the *it* variant, every *it*) whose learned top-1 is a candidate. On train+dev
the top-1 comes out of fold (``bench_coref_cv.py``'s 5 document folds, ranker and anaphoricity model fitted on the
other four with the shipped L2); on test from the shipped model. Wrong: gold names another antecedent, or no
common-noun antecedent in reach. Printed per split: pronouns, where the filter fires, the share of wrong top-1
there; the older verb list (``they_person_verb_thing_antecedent``'s verbs, same subject/thing test) beside it.
For *it*: ``it_person_noun_antecedent`` (a top-1 whose first WordNet sense is a person), the FR pack's filter.

Run: ``python tests/bench/bench_they_human_verb.py [--splits train,dev | test] [--show]``. Needs ../shared.
``--docs FILE`` (an English file with <d> document lines, e.g. ../shared/data/docs-ende/IWSLT2017/dev.en)
instead prints every *they* where the filter fires on the shipped learned top-1, with its context, for reading.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from builders.pronouns.coref_gum import ParsedCorpus, is_right, parse_corpus
from builders.pronouns.coref_learned import LearnedWeights, load_weights, model_dir
from builders.pronouns.coref_train import (
    DEFAULT_DATA,
    TRAINING_WORDS,
    VERSION,
    Example,
    examples,
    fit_anaphoricity,
    fit_ranker,
    posteriors,
)
from builders.pronouns.french_checks import PERSON_VERBS
from builders.pronouns.human_agent import (
    human_agent_reason,
    human_agent_verb,
    person_antecedent_reason,
    thing_noun,
)

FOLDS = 5
KINDS = {"they": "plural", "it": "singular"}


@dataclass(frozen=True)
class Case:
    split: str
    right: bool
    pronoun: object  # spaCy Token
    antecedent: object  # spaCy Token: the learned top-1's head


def _fold_weights(found: list[Example], kind: str) -> Iterator[tuple[LearnedWeights, Callable[[str], bool]]]:
    shipped = json.loads((model_dir() / "weights.json").read_text(encoding="utf-8"))[kind]
    names = sorted({e.case.document for e in found})
    fold = {name: number % FOLDS for number, name in enumerate(names)}
    for k in range(FOLDS):
        inside = [e for e in found if fold[e.case.document] != k]
        ranker = fit_ranker(inside, shipped["l2"])
        anaphoricity = fit_anaphoricity(inside, ranker, shipped["anaphoricity_l2"])
        yield LearnedWeights(ranker, anaphoricity, {}, VERSION), lambda name, k=k: fold[name] == k


def cases(corpus: ParsedCorpus, word: str, out_of_fold: bool) -> list[Case]:
    found = examples(corpus, TRAINING_WORDS[KINDS[word]])
    split_of = {d.name: d.split for d in corpus.documents}
    runs = (_fold_weights(found, KINDS[word]) if out_of_fold
            else iter([(load_weights(word), lambda name: True)]))
    rows = []
    for weights, held in runs:
        mine = [e for e in found if held(e.case.document) and e.case.word == word]
        for example, posterior in zip(mine, posteriors(mine, weights), strict=True):
            if not posterior.candidates:
                continue
            docs = corpus.docs[example.case.document]
            top = posterior.candidates[0]
            rows.append(Case(split_of[example.case.document], is_right(example.case, top),
                             docs[example.case.sentence][example.case.token], docs[top.sentence][top.head]))
    return rows


def shipped_filter(case: Case) -> bool:
    return bool(human_agent_reason(case.pronoun, case.antecedent))  # type: ignore[arg-type]


def it_variant(case: Case) -> bool:
    """The same test on *it* (not shipped: it fails the acceptance rule)."""
    pronoun = case.pronoun
    return (pronoun.dep_ == "nsubj" and pronoun.head.pos_ in {"VERB", "AUX"}  # type: ignore[attr-defined]
            and human_agent_verb(pronoun.head) and thing_noun(case.antecedent))  # type: ignore[attr-defined,arg-type]


def person_antecedent(case: Case) -> bool:
    """*it* whose top-1 names a person (``it_person_noun_antecedent``, shipped in the FR pack)."""
    return bool(person_antecedent_reason(case.pronoun, case.antecedent))  # type: ignore[arg-type]


def old_verb_list(case: Case) -> bool:
    pronoun = case.pronoun
    return (pronoun.dep_ == "nsubj" and pronoun.head.lemma_.lower() in PERSON_VERBS  # type: ignore[attr-defined]
            and thing_noun(case.antecedent))  # type: ignore[arg-type]


def line(name: str, rows: list[Case], rule: Callable[[Case], bool]) -> str:
    fired = [r for r in rows if rule(r)]
    wrong = sum(1 for r in fired if not r.right)
    return (f"| {name} | {len(rows)} | {len(fired)} ({len(fired) / max(len(rows), 1):.3f}) "
            f"| {wrong}/{len(fired)} = {wrong / max(len(fired), 1):.3f} |")


def read_docs(path: Path) -> list[list[str]]:
    documents: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() == "<d>":
            documents.append([])
        elif line.strip():
            documents[-1].append(line.strip())
    return [d for d in documents if d]


def show_docs(path: Path) -> None:
    """Every *they* of an English docs file where the filter fires on the shipped model's top-1."""
    from builders.pronouns.coref import HeuristicDocument
    from builders.pronouns.coref_learned import rank
    from builders.pronouns.coref_train import MAX_DISTANCE
    from builders.pronouns.english import load_pipeline

    nlp, weights = load_pipeline("").nlp, load_weights("they")
    counts = {"they": 0, "with a candidate": 0, "fires": 0}
    for sentences in read_docs(path):
        docs = list(nlp.pipe(sentences))
        heuristic = HeuristicDocument(docs)
        for number, doc in enumerate(docs):
            for they in (t for t in doc if t.lower_ == "they"):
                counts["they"] += 1
                candidates = heuristic.candidates(number, they.i, MAX_DISTANCE)
                if not candidates:
                    continue
                counts["with a candidate"] += 1
                top = rank(docs, number, they, candidates, MAX_DISTANCE, weights).candidates[0]
                antecedent = docs[top.sentence][top.head]
                if human_agent_reason(they, antecedent):
                    counts["fires"] += 1
                    before = " ".join(d.text for d in docs[top.sentence:number])[-250:]
                    print(f"{they.head.lemma_} <- {antecedent.text} || {before} || {doc.text[:200]}")
    print(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--splits", default="train,dev")
    parser.add_argument("--show", action="store_true", help="print every pronoun where the filter fires")
    parser.add_argument("--docs", type=Path, default=None, help="an English docs file to read firings on")
    args = parser.parse_args()
    if args.docs is not None:
        show_docs(args.docs)
        return
    if not args.data.is_file():
        print(f"skipped: {args.data} is absent (../shared/data)")
        return
    splits = args.splits.split(",")
    corpus = parse_corpus(args.data, frozenset(splits))
    rules = {"they": [("human-agent filter", shipped_filter), ("old verb list", old_verb_list)],
             "it": [("person-noun antecedent (FR pack)", person_antecedent), ("it variant (not shipped)", it_variant)]}
    for word, word_rules in rules.items():
        rows = cases(corpus, word, out_of_fold="test" not in splits)
        print(f"\n## *{word}* with a candidate | pronouns | fires (share) | top-1 wrong where it fires |")
        for split in [*splits, "+".join(splits)] if len(splits) > 1 else splits:
            mine = [r for r in rows if r.split in split.split("+")]
            for name, rule in word_rules:
                print(line(f"{split}, {name}", mine, rule))
        if args.show:
            for r in (r for r in rows if word_rules[0][1](r)):
                print("  ", "right" if r.right else "WRONG", r.split, r.pronoun.head.lemma_,  # type: ignore[attr-defined]
                      "<-", r.antecedent.lemma_, "|", r.pronoun.sent.text[:100])  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
