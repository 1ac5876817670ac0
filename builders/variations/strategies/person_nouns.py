"""Person nouns that mark the gender of someone in the sentence, on either side, for SUBGEN.

Swapping *er* -> *sie* in "Der Autor sagte, er ..." leaves "Der Autor ... sie": the German noun keeps the old
gender. Whether such a noun refers to the swapped person needs coreference, which this builder does not have, so
a line that holds a person noun of the gender being swapped away (and not swapped itself through the gendered
noun lexicon) is skipped and counted. A German noun is a person noun when it has a counterpart of the other
gender: a masculine noun whose feminine is formed with *-in* (Autor/Autorin, Belgier/Belgierin, Kollege/Kollegin,
Arzt/Ärztin; checked against the nouns of the ``german-nouns`` package, so Computer/Computerin does not count),
that feminine itself, or a listed natural-gender noun (Herr, Frau, Vater ...). English: titles and gendered
nouns (Mr, Mrs, chairman, girl ...).
"""

from __future__ import annotations

from functools import cache

from builders.variations.text import Token

# German natural-gender person nouns whose pair is not formed with -in (lemma -> gender).
DE_NATURAL_GENDER = {
    **dict.fromkeys(("Herr", "Mann", "Vater", "Sohn", "Bruder", "Onkel", "Neffe", "Opa", "Großvater", "Ehemann",
                     "Witwer", "Bräutigam", "Mönch", "Junge", "Papa", "Cousin", "Premier",
                     # adjectives used as nouns, in their masculine-only strong form (ein Abgeordneter)
                     "Abgeordneter", "Vorsitzender", "Angestellter", "Beamter", "Bekannter", "Verwandter",
                     "Deutscher", "Jugendlicher", "Verletzter", "Verdächtiger"), "m"),
    **dict.fromkeys(("Frau", "Mutter", "Tochter", "Schwester", "Tante", "Nichte", "Oma", "Großmutter", "Ehefrau",
                     "Witwe", "Braut", "Nonne", "Mama", "Dame", "Prinzessin", "Cousine"), "f"),
}
EN_MASCULINE_WORDS = frozenset({
    "mr", "sir", "lord", "gentleman", "gentlemen", "boy", "guy", "widower", "groom", "bridegroom", "monk",
    "prince", "duke", "emperor", "baron", "count", "king", "father", "son", "brother", "uncle", "nephew", "husband",
    "boyfriend", "grandfather", "grandson", "dad", "actor", "waiter", "steward", "hero",
})
EN_FEMININE_WORDS = frozenset({
    "mrs", "ms", "miss", "madam", "madame", "lady", "ladies", "girl", "widow", "bride", "nun", "princess",
    "duchess", "empress", "baroness", "countess", "queen", "mother", "daughter", "sister", "aunt", "niece", "wife",
    "girlfriend", "grandmother", "granddaughter", "mum", "mom", "actress", "waitress", "stewardess", "heroine",
})
# -man/-woman compounds (chairman, spokeswoman); words that merely end in these letters are listed out.
EN_NOT_COMPOUNDS = frozenset({"human", "german", "roman", "woman", "shaman", "caiman", "ottoman", "talisman"})
_UMLAUT = str.maketrans({"a": "ä", "o": "ö", "u": "ü", "A": "Ä", "O": "Ö", "U": "Ü"})


def english_gender(word: str) -> str:
    """'m', 'f' or '' for an English word that names a man or a woman."""
    lower = word.lower().rstrip(".")
    if lower in EN_MASCULINE_WORDS or (lower.endswith(("man", "men")) and lower not in EN_NOT_COMPOUNDS
                                       and not lower.endswith(("woman", "women"))):
        return "m"
    if lower in EN_FEMININE_WORDS or (lower.endswith(("woman", "women")) and lower not in EN_NOT_COMPOUNDS):
        return "f"
    return ""


def _umlauted(lemma: str) -> str:
    """Arzt -> Ärzt, Koch -> Köch: umlaut on the last a/o/u (au -> äu), as in Ärztin, Köchin, Bäuerin."""
    for index in range(len(lemma) - 1, -1, -1):
        if lemma[index] in "aouAOU":
            if lemma[index] == "u" and index > 0 and lemma[index - 1] in "aA":
                index -= 1
            return lemma[:index] + lemma[index].translate(_UMLAUT) + lemma[index + 1 :]
    return lemma


def feminine_candidates(lemma: str) -> tuple[str, ...]:
    """The -in feminines a masculine person noun may have: Autor -> Autorin, Kollege -> Kollegin, Arzt -> Ärztin."""
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    return (stem + "in", _umlauted(stem) + "in")


@cache
def german_person_nouns() -> dict[str, str]:
    """Lowercase form (every inflection, singular or plural) -> 'm' or 'f' for German person nouns."""
    from builders.pronouns.german import noun_lexicon

    lexicon = noun_lexicon()
    masculine = {e.lemma for e in lexicon.values() if "Masc" in e.genders}
    feminine = {e.lemma for e in lexicon.values() if "Fem" in e.genders}
    person_lemmas: dict[str, str] = dict(DE_NATURAL_GENDER)
    for lemma in masculine:
        found = [f for f in feminine_candidates(lemma) if f in feminine]
        if found:
            person_lemmas.setdefault(lemma, "m")
            person_lemmas.setdefault(found[0], "f")
    # plural-only forms (Autoren, Autorinnen) name a group, not the swapped person
    return {form: person_lemmas[entry.lemma] for form, entry in lexicon.items()
            if entry.lemma in person_lemmas and not entry.plural_only} | {
        lemma.lower(): gender for lemma, gender in DE_NATURAL_GENDER.items()}


def person_gender(nouns: dict[str, str], word: str) -> str | None:
    """The gender of a person noun, or of a compound that ends in one (Regierungssprecher -> Sprecher); the
    shortest head tried has five letters, so short words inside others (Rat in Apparat) do not count."""
    if word in nouns:
        return nouns[word]
    for start in range(2, len(word) - 4):
        if word[start:] in nouns:
            return nouns[word[start:]]
    return None


# A masculine noun after these words is plural (die Lehrer, viele Kunden, 20 Mitarbeiter): a group, not one man.
DE_PLURAL_DETERMINERS = frozenset({
    "die", "diese", "alle", "viele", "einige", "wenige", "mehrere", "beide", "keine", "meine", "deine", "seine",
    "ihre", "unsere", "eure", "manche", "solche", "zwei", "drei", "vier", "fünf", "zehn", "hundert", "tausend",
})


def german_person_noun_indices(tokens: list[Token], gender: str) -> list[int]:
    """Capitalised German tokens that are person nouns of ``gender`` ('m' or 'f') and may be singular."""
    nouns = german_person_nouns()
    found = []
    for index, token in enumerate(tokens):
        if not token.text[:1].isupper() or person_gender(nouns, token.lower) != gender:
            continue
        before = tokens[index - 1].text.lower() if index > 0 else ""
        if gender == "m" and (before in DE_PLURAL_DETERMINERS or before.isdigit()):
            continue
        found.append(index)
    return found
