"""Install WordNet for nltk (METEOR) from Debian packages, without downloading anything at run time.

    apt-get install --no-install-recommends wordnet-base wordnet-sense-index
    NLTK_DATA=~/nltk_data python tests/setup_wordnet.py

Copies (does not link) /usr/share/wordnet/* to $NLTK_DATA/corpora/wordnet/ and writes the ``lexnames`` file
nltk needs, built from the table in the lexnames(5WN) man page: "<number> <name> <syntactic category>", with
the category taken from the name's prefix (noun 1, verb 2, adj 3, adv 4).
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import sys
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
LEXNAMES_MAN = Path("/usr/share/man/man5/lexnames.5WN.gz")
CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def lexnames_from_man_page(man_page: Path) -> str:
    text = gzip.decompress(man_page.read_bytes()).decode("utf-8", errors="replace")
    lines = []
    for number, name in re.findall(r"^(\d\d)\s+((?:noun|verb|adj|adv)\.\w+)", text, flags=re.MULTILINE):
        lines.append(f"{number}\t{name}\t{CATEGORY[name.split('.')[0]]}\n")
    if len(lines) < 45:
        raise SystemExit(f"{man_page}: expected 45 lexicographer files in the table, found {len(lines)}")
    return "".join(lines)


def install(nltk_data: Path) -> Path:
    if not (WORDNET_DIR / "data.noun").is_file() or not LEXNAMES_MAN.is_file():
        raise SystemExit("WordNet files missing: apt-get install --no-install-recommends wordnet-base "
                         "wordnet-sense-index")
    target = nltk_data / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for source in sorted(WORDNET_DIR.iterdir()):
        if source.is_file():
            shutil.copyfile(source, target / source.name)  # a copy: nltk must not depend on /usr/share
    (target / "lexnames").write_text(lexnames_from_man_page(LEXNAMES_MAN), encoding="utf-8")
    return target


def main() -> None:
    nltk_data = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NLTK_DATA", "~/nltk_data")).expanduser()
    target = install(nltk_data)
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    reader = WordNetCorpusReader(str(target), None)
    print(f"WordNet {reader.get_version()} installed in {target}: {len(list(reader.all_synsets('n')))} noun synsets")


if __name__ == "__main__":
    main()
