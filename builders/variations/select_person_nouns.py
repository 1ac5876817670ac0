"""Re-derive ``resources/variations/person_nouns_en.txt`` (run by hand, not at build time).

English common nouns whose most frequent noun sense in WordNet names a person (lexicographer file
``noun.person``: envoy, employee, mujahid, sheikh; not head, star, cook's... first senses that are things), one
word, lowercase letters only, with a ``wordfreq`` Zipf frequency of at least 2.0. SUBGEN uses the list to find the
German word that translates an English person noun through the word alignment and to check its gender (the
German noun may name the swapped person and keep the old gender: 'the mujahid ... his' / 'dem Mudschahed ...
seiner'). Needs nltk's WordNet (``make system-deps``) and wordfreq.

    python -m builders.variations.select_person_nouns > resources/variations/person_nouns_en.txt
"""

from __future__ import annotations

import argparse

HEADER = """\
# English person nouns for SUBGEN (issue 25): one word a line, lowercase. Derived, not written by hand:
#   python -m builders.variations.select_person_nouns > resources/variations/person_nouns_en.txt
# Words of WordNet 3.0 whose first noun sense is in the lexicographer file noun.person, one word of letters only,
# wordfreq 3.1 Zipf frequency >= {zipf}. WordNet 3.0 Copyright 2006 by Princeton University, used under the
# WordNet 3.0 licence (free use, copying and distribution with this notice)."""


def person_nouns(min_zipf: float = 2.0) -> list[str]:
    import wordfreq
    from nltk.corpus import wordnet

    lemmas = {lemma.name() for synset in wordnet.all_synsets("n") if synset.lexname() == "noun.person"
              for lemma in synset.lemmas()}
    kept = []
    for word in sorted(w for w in lemmas if w.isalpha() and w.islower()):
        senses = wordnet.synsets(word, "n")
        if senses and senses[0].lexname() == "noun.person" and wordfreq.zipf_frequency(word, "en") >= min_zipf:
            kept.append(word)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min-zipf", type=float, default=2.0)
    args = parser.parse_args()
    print(HEADER.format(zipf=args.min_zipf))
    for word in person_nouns(args.min_zipf):
        print(word)


if __name__ == "__main__":
    main()
