"""Rule-based German analysis: tokens with character spans, 3sg er/sie/es detection, noun gender.

Noun gender comes from the ``german-nouns`` package (Wiktionary data); compounds fall back to their
longest known head (Haustür -> Tür -> feminine). The lexicon is read once, on first use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any


def word_set(text: str) -> frozenset[str]:
    """A word list written as one space-separated string."""
    return frozenset(text.split())


TOKEN_RE = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]", re.UNICODE)

GENDER_OF_PRONOUN = {"er": "Masc", "sie": "Fem", "es": "Neut"}
PRONOUN_OF_GENDER = {v: k for k, v in GENDER_OF_PRONOUN.items()}
_LEXICON_GENDER = {"m": "Masc", "f": "Fem", "n": "Neut"}

# Finite verb forms that settle the number of a preceding/following "sie" (irregular or frequent ones).
SINGULAR_VERBS = word_set(
    "ist war hat hatte wird wurde kann konnte muss musste soll sollte will wollte darf durfte mag mochte "
    "weiß wusste gibt gab sieht sah nimmt nahm läuft lief hält hielt fällt fiel trägt trug schläft schlief "
    "isst aß liest las spricht sprach hilft half stirbt starb wäre hätte würde könnte müsste dürfte"
)
PLURAL_VERBS = word_set(
    "sind waren haben hatten werden wurden können konnten müssen mussten sollen sollten wollen wollten "
    "dürfen durften mögen mochten wissen wussten geben gaben sehen sahen nehmen nahmen wären hätten würden "
    "könnten müssten dürften"
)
CLAUSE_BREAKS = frozenset([",", ";", ":", ".", "!", "?", "–", "—", "(", ")", '"', "„", "“", "”"])
ARTICLES = word_set(
    "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner keines "
    "dieser diese dieses diesen diesem jener jene jenes mein meine meinen meinem meiner dein deine "
    "sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer unser unsere euer eure"
)


@dataclass(frozen=True)
class GToken:
    text: str
    start: int
    end: int


def tokenize(text: str) -> list[GToken]:
    return [GToken(m.group(), m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


@dataclass(frozen=True)
class NounEntry:
    lemma: str
    genders: frozenset[str]  # "Masc" / "Fem" / "Neut"
    plural_only: bool
    # genders of the readings in which this form is singular ("Fällen": plural of der Fall, singular only as
    # das Fällen); None: every gender has a singular reading unless plural_only
    singular_genders: frozenset[str] | None = None

    def singular_in(self, gender: str) -> bool:
        """The form can be a singular noun of ``gender`` (a plural form is no antecedent of er/sie/es)."""
        if self.singular_genders is not None:
            return gender in self.singular_genders
        return not self.plural_only and gender in self.genders


@cache
def noun_lexicon() -> dict[str, NounEntry]:
    """Every inflected singular/plural form of every noun in german-nouns -> lemma and genders (lowercase key)."""
    import csv

    from german_nouns.config import CSV_FILE_PATH

    forms: dict[str, list[Any]] = {}  # form -> [lemma, genders, plural only]; lists: updated in place (speed)
    singular: dict[str, set[str]] = {}  # form -> genders of its singular readings
    with open(CSV_FILE_PATH, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        gender_cols = [i for i, h in enumerate(header) if h.startswith("genus")]
        singular_cols = [i for i, h in enumerate(header) if " singular" in h]
        plural_cols = [i for i, h in enumerate(header) if " plural" in h]
        # the archaic dative in -e ("dem Fortschritte") looks like the plural: not a singular reading
        reading_cols = [i for i in singular_cols if header[i] != "dativ singular*"]
        for row in reader:
            if "Substantiv" not in row[1] or not row[0][:1].isupper():
                continue  # affixes, proper-name fragments and lower-case entries are not common nouns
            genders = {_LEXICON_GENDER[row[i]] for i in gender_cols if row[i] in _LEXICON_GENDER}
            if not genders:
                continue
            _add_forms(forms, row, singular_cols, genders, plural=False)
            _add_forms(forms, row, plural_cols, genders, plural=True)
            for col in reading_cols:
                singular.setdefault(row[col].strip().lower(), set()).update(genders)
    for lemma, gender in _extra_nouns():
        forms[lemma.lower()] = [lemma, {gender}, False]
        singular[lemma.lower()] = {gender}
    interned: dict[frozenset[str], frozenset[str]] = {}  # a few distinct gender sets shared by 257k entries

    def shared(genders: set[str]) -> frozenset[str]:
        frozen = frozenset(genders)
        return interned.setdefault(frozen, frozen)

    return {
        k: NounEntry(lemma, shared(g), plural, shared(singular.get(k, set())))
        for k, (lemma, g, plural) in forms.items()
    }


def _extra_nouns() -> list[tuple[str, str]]:
    """Bundled supplement for frequent nouns the package lacks (its entries replace the package's)."""
    from builders.core.resources import resource_path

    rows = resource_path("pronouns", "noun_genders_extra.tsv").read_text(encoding="utf-8").splitlines()
    pairs = [row.split("\t") for row in rows if row.strip() and not row.startswith("#")]
    return [(lemma.strip(), _LEXICON_GENDER[gender.strip()]) for lemma, gender in pairs]


def _add_forms(forms: dict[str, list[Any]], row: list[str], cols: list[int], genders: set[str], *,
               plural: bool) -> None:
    for col in cols:
        word = row[col].strip()
        if not word or " " in word:
            continue
        key = word.lower()
        known = forms.get(key)
        if known is None:
            forms[key] = [row[0], set(genders), plural]
        else:
            known[1].update(genders)
            known[2] = known[2] and plural  # a form that is also singular counts as singular


def noun_gender(word: str, min_head: int = 3) -> NounEntry | None:
    """Gender of a German noun; unknown compounds use their longest known head of at least ``min_head`` letters."""
    if not word[:1].isupper() or (not word.isalpha() and "-" not in word):
        return None
    lexicon = noun_lexicon()
    entry = lexicon.get(word.lower())
    if entry is not None:
        return entry
    tail = word.rsplit("-", 1)[-1]
    first = 0 if tail != word else 1  # "PS3-Kamera": the part after the hyphen may be a word on its own
    for start in range(first, len(tail) - min_head + 1):
        head = lexicon.get(tail[start:].lower())
        if head is not None and len(tail) - start < 4 and not _known_first_part(lexicon, tail[:start]):
            continue  # a short head needs a known first part: "Haustür", but not "Natürl|ich"
        if head is not None:
            lemma = word[: len(word) - len(tail) + start] + head.lemma.lower()
            return NounEntry(lemma, head.genders, head.plural_only, head.singular_genders)
    return None


def _known_first_part(lexicon: dict[str, NounEntry], part: str) -> bool:
    lower = part.lower()
    return not lower or lower in lexicon or (lower.endswith("s") and lower[:-1] in lexicon)


def is_formal_sie(tokens: list[GToken], index: int) -> bool:
    """Capitalised "Sie" that does not start a sentence or clause is the polite form."""
    return tokens[index].text == "Sie" and not _sentence_initial(tokens, index)


def _sentence_initial(tokens: list[GToken], index: int) -> bool:
    previous = [t.text for t in tokens[:index] if t.text not in {"„", "“", '"', "'", "(", "–", "-"}]
    return not previous or previous[-1] in {".", "!", "?", ":"}


def sie_number(tokens: list[GToken], index: int) -> str:
    """'Sing', 'Plur' or '' (unknown) for a subject "sie" from the agreement of its finite verb: the word
    before it (inversion, "dann geht sie"), the word after it ("sie geht") or, in a subordinate clause,
    the clause-final word ("weil sie müde ist")."""
    for verb in _verb_candidates(tokens, index):
        number = _verb_number(verb)
        if number:
            return number
    return ""


NOT_VERBS = word_set("eben oben unten morgen gestern heute gern gerne selten trotzdem immer nie nicht")
SUBORDINATORS = word_set(
    "dass weil wenn ob als bevor nachdem obwohl da damit während bis seit seitdem "
    "sodass falls sobald solange die der das welche welcher welches"
)


def _verb_number(word: str) -> str:
    lower = word.lower()
    if lower in SINGULAR_VERBS:
        return "Sing"
    if lower in PLURAL_VERBS:
        return "Plur"
    if not word[:1].islower() or len(lower) <= 3 or lower in NOT_VERBS or not lower.isalpha():
        return ""
    if lower.endswith(("en", "ern", "eln")):
        return "Plur"
    return "Sing" if lower.endswith("t") else ""


def _verb_candidates(tokens: list[GToken], index: int) -> list[str]:
    candidates = []
    clause_start = index
    while clause_start > 0 and tokens[clause_start - 1].text not in CLAUSE_BREAKS:
        clause_start -= 1
    subordinate = tokens[clause_start].text.lower() in SUBORDINATORS and clause_start < index
    if subordinate:
        end = index + 1
        while end < len(tokens) and tokens[end].text not in CLAUSE_BREAKS:
            end += 1
        return [tokens[end - 1].text] if end - 1 > index else []
    if index > 0 and tokens[index - 1].text not in CLAUSE_BREAKS and index - 1 > clause_start - 1:
        candidates.append(tokens[index - 1].text)
    if index + 1 < len(tokens):
        candidates.append(tokens[index + 1].text)
    return candidates


# Gender(s) a determiner in front of a singular noun allows, by its ending (der-words and ein-words).
DER_WORD_GENDERS = {
    "der": {"Masc", "Fem"},
    "die": {"Fem"},
    "das": {"Neut"},
    "den": {"Masc"},
    "dem": {"Masc", "Neut"},
    "des": {"Masc", "Neut"},
}
EIN_ENDING_GENDERS = {
    "": {"Masc", "Neut"},
    "e": {"Fem"},
    "en": {"Masc"},
    "em": {"Masc", "Neut"},
    "er": {"Fem"},
    "es": {"Masc", "Neut"},
}
DER_ENDING_GENDERS = {
    "er": {"Masc", "Fem"},
    "e": {"Fem"},
    "es": {"Masc", "Neut"},
    "en": {"Masc"},
    "em": {"Masc", "Neut"},
}
EIN_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer")
DER_STEMS = ("dies", "jen", "jed", "welch")


def determiner_genders(word: str) -> set[str]:
    """Genders a determiner allows for a following singular noun; empty when the word is not one."""
    lower = word.lower()
    if lower in DER_WORD_GENDERS:
        return set(DER_WORD_GENDERS[lower])
    for stems, table in ((EIN_STEMS, EIN_ENDING_GENDERS), (DER_STEMS, DER_ENDING_GENDERS)):
        for stem in stems:
            if lower.startswith(stem) and lower[len(stem) :] in table:
                return set(table[lower[len(stem) :]])
    return set()


def refine_gender(tokens: list[GToken], head: int, entry: NounEntry) -> NounEntry:
    """Narrow a noun of several lexicon genders by the determiner of its phrase ("das Wetter": neuter)."""
    if len(entry.genders) < 2:
        return entry
    start = phrase_start(tokens, head)
    allowed = determiner_genders(tokens[start].text) if start < head else set()
    narrowed = entry.genders & allowed
    if not narrowed:
        return entry
    singular = entry.singular_genders & narrowed if entry.singular_genders is not None else None
    return NounEntry(entry.lemma, frozenset(narrowed), entry.plural_only, singular)


def phrase_start(tokens: list[GToken], head: int, max_left: int = 4) -> int:
    """Start of the noun phrase headed by ``head``: walk left over lower-case modifiers to an article."""
    start = head
    for position in range(head - 1, max(-1, head - 1 - max_left), -1):
        word = tokens[position].text
        if word.lower() in ARTICLES:
            return position
        if not word[:1].islower() or not word.isalpha():
            break
        start = position
    return start if start < head and tokens[start].text.lower() in ARTICLES else head


class RuleGerman:
    """The default analyser: the rules above and the german-nouns lexicon."""

    name = "rules"

    def noun_entry(self, text: str, tokens: list[GToken], index: int) -> NounEntry | None:
        entry = noun_gender(tokens[index].text)
        return refine_gender(tokens, index, entry) if entry is not None else None

    def pronoun_number(self, text: str, tokens: list[GToken], index: int) -> str:
        return sie_number(tokens, index)


class SpacyGerman(RuleGerman):
    """A German spaCy pipeline's morphology (gender of nouns, number of "sie") where it has an opinion,
    the rules otherwise. Used only when a German pipeline is installed; never downloaded."""

    name = "spacy"

    def __init__(self) -> None:
        from builders.core.compat import spacy_german
        from builders.core.errors import MtprobesError

        probe = spacy_german()
        if not probe.available:
            raise MtprobesError(f"german_analyser 'spacy' is not usable: {probe.reason}")
        import spacy

        self.version = probe.version
        self._nlp = spacy.load(probe.name, exclude=["ner"])
        self._parse = cache(self._nlp)

    def _token(self, text: str, tokens: list[GToken], index: int) -> Any | None:
        for token in self._parse(text):
            if token.idx == tokens[index].start:
                return token
        return None

    def noun_entry(self, text: str, tokens: list[GToken], index: int) -> NounEntry | None:
        token = self._token(text, tokens, index)
        genders = token.morph.get("Gender") if token is not None and token.pos_ == "NOUN" else []
        if token is None or len(genders) != 1:
            return super().noun_entry(text, tokens, index)
        gender = {"Masc": "Masc", "Fem": "Fem", "Neut": "Neut"}.get(genders[0])
        if gender is None:
            return super().noun_entry(text, tokens, index)
        return NounEntry(token.lemma_, frozenset({gender}), token.morph.get("Number") == ["Plur"])

    def pronoun_number(self, text: str, tokens: list[GToken], index: int) -> str:
        token = self._token(text, tokens, index)
        number = token.morph.get("Number") if token is not None else []
        return number[0] if len(number) == 1 else super().pronoun_number(text, tokens, index)


GERMAN_ANALYSERS: dict[str, type[RuleGerman]] = {"rules": RuleGerman, "spacy": SpacyGerman}


@cache
def make_german(name: str) -> RuleGerman:
    return GERMAN_ANALYSERS[name]()
