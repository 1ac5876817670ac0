"""WordNet 3.0 lexical classes (lexicographer files) of English nouns and verbs (human_agent.py's filter).

The resolver lacks word knowledge: a *builder* or *patient* is a person and rarely the antecedent of *it*, a *team*
is a group, one *rains*. WordNet's lexicographer files give that coarse class per sense (noun.person,
noun.artifact, verb.weather ...). ``make lexicons`` (``python -m builders.pronouns.wordnet_classes``) reads
Debian's WordNet 3.0 (``/usr/share/wordnet``, package wordnet-base) and writes ``resources/pronouns/
wordnet_classes.tsv``: one line per single-word lemma, ``n|v<TAB>lemma<TAB>`` the classes of its first
``SENSES`` senses in WordNet's sense order. The table is committed, so builds and ``make models`` need no WordNet;
WordNet's licence asks for its notice on every copy, so the table's header carries it.
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
TABLE = ("pronouns", "wordnet_classes.tsv")
SENSES = 3  # enough to see a person reading behind a first sense (WordNet's "builder" is a detergent first)
# lexicographer file numbers 0-44 (WordNet's lexnames(5WN)); Debian's wordnet-base ships no lexnames file
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute",
    "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
    "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
    "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition", "verb.consumption",
    "verb.contact", "verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession",
    "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)
POS_FILES = {"n": "noun", "v": "verb"}


def licence_notice(wordnet: Path) -> list[str]:
    """WordNet's licence as it heads data.noun (numbered lines starting with two spaces)."""
    notice = []
    with (wordnet / "data.noun").open(encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("  "):
                break
            notice.append(line.strip().split(" ", 1)[1].rstrip() if " " in line.strip() else "")
    return notice


def synset_lexfiles(wordnet: Path, pos: str) -> dict[str, int]:
    """Synset offset -> lexicographer file number, from data.<pos>. A top synset (noun.Tops: *person*, *animal*,
    *artifact* ...) takes the most common file of its direct hyponyms, so *beast* (first sense: the top synset
    animal) reads as an animal, not as "Tops"."""
    lexfiles: dict[str, int] = {}
    hyponyms: dict[str, list[str]] = {}
    with (wordnet / f"data.{POS_FILES[pos]}").open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("  "):
                continue
            fields = line.split(" ")
            lexfiles[fields[0]] = int(fields[1])
            if LEXNAMES[int(fields[1])] == "noun.Tops":
                pointers_at = 4 + 2 * int(fields[3], 16)
                pointers = [fields[pointers_at + 1 + 4 * i : pointers_at + 5 + 4 * i]
                            for i in range(int(fields[pointers_at]))]
                hyponyms[fields[0]] = [p[1] for p in pointers if p[0] in {"~", "~i"}]
    tops = LEXNAMES.index("noun.Tops")
    resolved = dict(lexfiles)
    for offset, below in hyponyms.items():
        files = [lexfiles[o] for o in below if lexfiles[o] != tops]
        if files:
            resolved[offset] = min(set(files), key=lambda f: (-files.count(f), f))
    return resolved


def lemma_classes(wordnet: Path, pos: str) -> list[tuple[str, list[str]]]:
    """(lemma, the short class names of its first SENSES senses) for every single-word lemma of index.<pos>."""
    lexfiles = synset_lexfiles(wordnet, pos)
    rows = []
    with (wordnet / f"index.{POS_FILES[pos]}").open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("  "):
                continue
            fields = line.split()
            lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
            if "_" in lemma:
                continue  # the resolver looks up one spaCy lemma, never a multiword expression
            offsets = fields[6 + pointer_count : 6 + pointer_count + synset_count]
            rows.append((lemma, [LEXNAMES[lexfiles[o]].split(".", 1)[1] for o in offsets[:SENSES]]))
    return rows


def table_text(wordnet: Path = WORDNET_DIR) -> str:
    header = [
        "# WordNet 3.0 lexicographer classes of single-word English nouns (n) and verbs (v): lemma, then the",
        f"# classes of its first {SENSES} senses in WordNet's sense order. Derived for mtprobes by",
        "# builders/pronouns/wordnet_classes.py (make lexicons) from Debian's wordnet-base. WordNet's licence:",
        "#",
        *[f"# {line}".rstrip() for line in licence_notice(wordnet)],
    ]
    rows = [f"{pos}\t{lemma}\t{' '.join(classes)}" for pos in POS_FILES for lemma, classes in
            lemma_classes(wordnet, pos)]
    return "\n".join(header + rows) + "\n"


@cache
def wordnet_classes() -> dict[tuple[str, str], tuple[str, ...]]:
    """(pos, lemma) -> classes of its first senses, from the bundled table (loaded on first use)."""
    from builders.core.resources import resource_path

    found = {}
    for line in resource_path(*TABLE).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        pos, lemma, classes = line.split("\t")
        found[(pos, lemma)] = tuple(classes.split())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the WordNet class table (make lexicons)")
    parser.add_argument("--wordnet", type=Path, default=WORDNET_DIR)
    parser.add_argument("--out", type=Path, default=None, help="default: the bundled table")
    args = parser.parse_args()
    if not (args.wordnet / "index.noun").is_file():
        raise SystemExit(f"WordNet not found under {args.wordnet}: install wordnet-base (make system-deps)")
    from builders.core.atomic import write_text
    from builders.core.resources import resources_root

    out = args.out or resources_root().joinpath(*TABLE)
    write_text(out, table_text(args.wordnet))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
