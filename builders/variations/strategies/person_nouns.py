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
    # Titles, ranks and offices that name a person but whose feminine the noun lexicon lacks or forms otherwise
    # (issue 25: 'des Oberstleutnants ... ihre'): military ranks, nobility, clergy, a few role nouns.
    **dict.fromkeys(("Leutnant", "Oberst", "Feldwebel", "Admiral", "Marschall", "Kadett", "Korporal", "Sergeant",
                     "Gefreiter", "Obergefreiter", "Prinz", "Ritter", "Junker", "Lord", "Baron", "Zar", "Emir",
                     "Khan", "Kalif", "Pharao", "Scheich", "Abt", "Rabbi", "Rabbiner", "Imam", "Mufti", "Pastor",
                     "Vikar", "Kaplan", "Diakon", "Häuptling", "Lehrling", "Häftling", "Sträfling", "Neuling",
                     "Schützling", "Boss", "Vormund", "Sheriff", "Butler", "Knecht", "Kerl", "Bursche", "Greis",
                     "Jüngling", "Gatte"), "m"),
    **dict.fromkeys(("Äbtissin", "Magd", "Diakonisse", "Baronin", "Zarin", "Gattin", "Lady"), "f"),
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


# The shortest compound head tried: four letters (Ehrengast, Zahnarzt, Landwirt), so that three-letter words
# inside others (Rat in Apparat, Zar in Basar) do not count.
MIN_HEAD_LETTERS = 4
_LEXICON_GENDER = {"m": "Masc", "f": "Fem"}


def person_gender(nouns: dict[str, str], word: str) -> str | None:
    """The gender of a person noun, of a compound that ends in one (Regierungssprecher -> Sprecher,
    Oberstleutnants -> Leutnant), or of an -in feminine of a masculine one that the lexicon lacks
    (Oberstleutnantin). A compound takes its head's gender; one that the noun lexicon knows with another gender
    is no person (Angeboten is a form of das Angebot, not of der Bote)."""
    if word in nouns:
        return nouns[word]
    for start in range(2, len(word) - MIN_HEAD_LETTERS + 1):
        head = word[start:]
        if head in nouns:
            return _compound_gender(word, nouns[head])
    if word.endswith("in") and len(word) > 2 + MIN_HEAD_LETTERS and person_gender(nouns, word[:-2]) == "m":
        return "f"
    return None


def _compound_gender(word: str, head_gender: str) -> str | None:
    from builders.pronouns.german import noun_lexicon

    entry = noun_lexicon().get(word)
    if entry is not None and _LEXICON_GENDER[head_gender] not in entry.genders:
        return None
    return head_gender


# Compounds with the head -mann/-frau name a man or a woman (Hausfrau, Geschäftsmann, Feuerwehrfrau), with or
# without a counterpart in the lexicon. person_gender() does not find them: its shortest head has five letters,
# and most of these compounds have no -in feminine, so the lexicon derivation misses them. Singular forms only
# (the plurals -männer/-frauen name a group). A non-person like Schneemann only costs yield.
DE_PERSON_HEADS = {"frau": "f", "mann": "m", "manns": "m", "mannes": "m"}


def compound_person_gender(word: str) -> str | None:
    """'m'/'f' for a compound (at least two letters before the head) with a -mann/-frau head."""
    for head, gender in DE_PERSON_HEADS.items():
        if word.endswith(head) and len(word) >= len(head) + 2:
            return gender
    return None


# A masculine noun after these words is plural (die Lehrer, viele Kunden, 20 Mitarbeiter): a group, not one man.
DE_PLURAL_DETERMINERS = frozenset({
    "die", "diese", "alle", "viele", "einige", "wenige", "mehrere", "beide", "keine", "meine", "deine", "seine",
    "ihre", "unsere", "eure", "manche", "solche", "zwei", "drei", "vier", "fünf", "zehn", "hundert", "tausend",
})


# Words that mark the sex of an animal or person without being person nouns: English sex adjectives ("the male
# lion ... he"), German sex-specific animal nouns (Kater/Katze, Hengst/Stute; also in compounds: Zuchthengst,
# Milchkuh) and the German sex adjectives. Left in the old gender they contradict the swapped pronoun.
EN_SEX_ADJECTIVES = {"m": frozenset({"male", "males"}), "f": frozenset({"female", "females"})}
DE_SEX_ANIMALS = {
    "m": ("kater", "hengst", "stier", "bulle", "hahn", "gockel", "eber", "keiler", "widder", "bock", "rüde",
          "ochse", "erpel", "ganter", "gänserich", "hirsch", "kapaun", "wallach"),
    "f": ("katze", "stute", "kuh", "henne", "glucke", "sau", "bache", "geiß", "zicke", "hündin", "ricke", "löwin",
          "tigerin", "bärin", "wölfin", "füchsin", "äffin", "elefantin"),
}
DE_SEX_ADJECTIVE_STEMS = {"m": "männlich", "f": "weiblich"}
# Nominalised adjectives and age nouns (ein 5-Jähriger, der Alte, die Deutsche, der Verletzte): their ending after
# the determiner marks the gender. Determiner -> ending that is (or, where it is also a plural or the other
# case's form, may be) singular masculine / feminine. Blind round 7 left 'als beauftragte Gesandte ... seine'
# and 'dem Mudschahed ... ihr': an attributive adjective between the determiner and the noun, 'als' before a
# feminine, contractions (zum, zur) and possessives are read too; a form that may be the old gender or a plural
# ('der Gesandten', 'als Gesandte') counts, because the swap is only safe when the gender is certain.
DE_NOMINALISED_ENDINGS = {
    "m": {**dict.fromkeys(("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer", "als"), "er"),
          **dict.fromkeys(("der", "dieser", "jener", "jeder", "welcher"), "e"),
          **dict.fromkeys(("einen", "einem", "keinen", "keinem", "den", "dem", "des", "eines", "keines", "diesem",
                           "diesen", "dieses", "jenem", "jenen", "jedem", "jeden", "zum", "vom", "beim", "im", "am",
                           "meinen", "meinem", "meines", "deinen", "deinem", "seinen", "seinem", "seines",
                           "ihren", "ihrem", "ihres", "unseren", "unserem", "unseres"), "en")},
    "f": {**dict.fromkeys(("die", "eine", "keine", "diese", "jede", "jene", "meine", "deine", "seine", "ihre",
                           "unsere", "eure", "als"), "e"),
          **dict.fromkeys(("der", "einer", "keiner", "dieser", "jener", "jeder", "zur", "meiner", "deiner",
                           "seiner", "ihrer", "unserer"), "en")},
}
_ATTRIBUTIVE_ENDINGS = ("e", "en", "er", "em", "es")
# Preposition-article contractions: before a word the lexicon does not list as a nominalised adjective they mostly
# introduce a nominalised infinitive (zum Behalten, beim Essen), which is neuter.
_CONTRACTIONS = frozenset({"zum", "zur", "vom", "beim", "im", "am"})


# Adjective stems that are nominalised for people: suffixes of derived adjectives and participles, and a few
# common simple adjectives (der Alte, der Tote, ein Fremder).
DE_ADJECTIVE_SUFFIXES = ("ig", "lich", "isch", "sch", "los", "bar", "haft")
DE_PARTICIPLE_PREFIXES = ("ge", "ver", "be", "er", "ent", "an", "ab", "auf", "aus", "zer", "vor")
DE_SIMPLE_ADJECTIVES = frozenset({"alt", "tot", "fremd", "krank", "blind", "taub", "klein", "groß", "weis", "jung",
                                  "arm", "reich", "schwer", "leicht"})


def _adjective_stem(stem: str) -> bool:
    participle = stem.startswith(DE_PARTICIPLE_PREFIXES) and stem.endswith(("t", "en"))
    return stem in DE_SIMPLE_ADJECTIVES or stem.endswith(DE_ADJECTIVE_SUFFIXES) or participle


def _determiner_index(tokens: list[Token], index: int) -> int:
    """The token before the noun at ``index`` that decides its ending: skip lowercase attributive adjectives and
    participles ('die beauftragte Gesandte', 'ein neuer Angestellter') and an age written '5 - Jähriger'."""
    position = index - 1
    for _ in range(3):
        text = tokens[position].text if position >= 0 else ""
        if text == "-" and position >= 2 and tokens[position - 1].text.isdigit():
            position -= 2
        elif (position > 0 and text[:1].islower() and text.isalpha() and text.endswith(_ATTRIBUTIVE_ENDINGS)
              and text.lower() not in DE_NOMINALISED_ENDINGS["m"] and text.lower() not in DE_NOMINALISED_ENDINGS["f"]):
            position -= 1
        else:
            break
    return position


def _strong_form(tokens: list[Token], index: int, gender: str, lemma_like: str) -> bool:
    """No determiner: 'Abgeordneter Müller sagte' (strong masculine in -er), 'Angestellte wie sie' (strong
    feminine, or a plural: not certain, so it counts for the feminine)."""
    if index > 0 and tokens[index - 1].lower in DE_PLURAL_DETERMINERS | {"alle", "viele", "einige"}:
        return False
    if index > 0 and tokens[index - 1].text.isdigit():
        return False
    return lemma_like.endswith("er") if gender == "m" else lemma_like.endswith("e")


def german_nominalised_adjective(tokens: list[Token], index: int, gender: str) -> bool:
    """A capitalised adjective used as a noun, with an ending of ``gender`` after its determiner ('ein
    5-Jähriger', 'der Alte', 'als beauftragte Gesandte'); one followed by a capitalised noun is attributive ('die
    Deutsche Bahn')."""
    word = tokens[index].text.rsplit("-", 1)[-1]
    if index == 0 or not word[:1].isupper():
        return False
    if index + 1 < len(tokens) and tokens[index + 1].text[:1].isupper():
        return False
    if index + 2 < len(tokens) and tokens[index + 1].lower in ("und", "oder") and tokens[index + 2].text[:1].isupper():
        return False  # coordinated attributives: 'Beethovens Erster und Vierter Sinfonie'
    if not _nominalised_word(word.lower()):
        return False
    determiner = _determiner_index(tokens, index)
    determiner_word = tokens[determiner].lower if determiner >= 0 else ""
    if determiner_word in _CONTRACTIONS and word.lower() not in adjectival_person_nouns():
        return False  # 'zum Behalten', 'beim Essen': a nominalised infinitive, neuter
    ending = DE_NOMINALISED_ENDINGS[gender].get(determiner_word)
    lower = word.lower()
    if ending is None:
        known = determiner >= 0 and any(tokens[determiner].lower in table for table in DE_NOMINALISED_ENDINGS.values())
        return not known and determiner == index - 1 and _strong_form(tokens, index, gender, lower)
    return lower.endswith(ending)


@cache
def adjectival_person_nouns() -> frozenset[str]:
    """Lowercase forms of the nouns that german-nouns marks 'adjektivische Deklination' with a masculine or
    feminine gender (der/die Angestellte, ein Angestellter, des Gesandten): nominalised adjectives and
    participles, whose ending after the determiner gives the person's gender."""
    import csv

    from german_nouns.config import CSV_FILE_PATH

    forms: set[str] = set()
    with open(CSV_FILE_PATH, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        for row in reader:
            if "adjektivische Deklination" in row[1] and row[2] in ("m", "f") and " " not in row[0]:
                forms.update(cell.strip().lower() for cell in row[7:] if cell.strip() and " " not in cell.strip())
    return frozenset(forms)


# The shortest head of a compound read as a nominalised adjective (Regierungsbeauftragte -> Beauftragte).
_MIN_ADJECTIVAL_HEAD = 5


def _nominalised_word(lower: str) -> bool:
    """A nominalised adjective by the noun lexicon's 'adjektivische Deklination' (also as a compound head); a noun
    it lists otherwise (Laden, Tasche) is none. Words it lacks (Jähriger) are judged by their stem."""
    from builders.pronouns.german import noun_lexicon

    adjectival = adjectival_person_nouns()
    if any(lower[start:] in adjectival for start in range(0, len(lower) - _MIN_ADJECTIVAL_HEAD + 1)):
        return True
    lexicon = noun_lexicon()
    if any(lower[start:] in lexicon for start in range(0, len(lower) - MIN_HEAD_LETTERS + 1)):
        return False  # a noun or a compound on a noun head (Giftflasche on Flasche)
    for ending in ("er", "en", "e"):
        if lower.endswith(ending):
            return _adjective_stem(lower[: -len(ending)])
    return False


def _animal_noun(word: str, gender: str) -> bool:
    return any(word.endswith((noun, noun + "s", noun + "es", noun + "n", noun + "en"))
               for noun in DE_SEX_ANIMALS[gender])


def sex_marked_word(en_words: list[str], de_tokens: list[Token], gender: str) -> str:
    """A drop reason when a word that marks ``gender`` (the one swapped away) and is no person noun stays in the
    line (``en_words`` lowercase): 'the male giraffe ... he', 'der Kater ... er', 'ein 5-Jähriger ... er'."""
    if any(word in EN_SEX_ADJECTIVES[gender] for word in en_words):
        return "subgen_en_sex_adjective"
    if any(t.lower.startswith(DE_SEX_ADJECTIVE_STEMS[gender]) for t in de_tokens):
        return "subgen_de_sex_adjective"
    if any(t.text[:1].isupper() and _animal_noun(t.lower, gender) for t in de_tokens):
        return "subgen_de_animal_noun"
    if any(german_nominalised_adjective(de_tokens, i, gender) for i in range(len(de_tokens))):
        return "subgen_de_nominalised_adjective"
    return ""


def german_person_noun_indices(tokens: list[Token], gender: str,
                               english_names: frozenset[str] = frozenset()) -> list[int]:
    """Capitalised German tokens that are person nouns of ``gender`` ('m' or 'f') and may be singular. A word
    found only as a compound or an -in feminine that the English side has too is a surname (Hoffmann,
    Zimmermann, Bergmann), not a person noun; a listed person noun counts on both sides (Sultan)."""
    nouns = german_person_nouns()
    found = []
    for index, token in enumerate(tokens):
        if not token.text[:1].isupper():
            continue
        derived = None if token.text in english_names else (
            person_gender(nouns, token.lower) or compound_person_gender(token.lower))
        if (nouns.get(token.lower) or derived) != gender:
            continue
        before = tokens[index - 1].text.lower() if index > 0 else ""
        if gender == "m" and (before in DE_PLURAL_DETERMINERS or before.isdigit()):
            continue
        found.append(index)
    return found


# German nouns whose grammatical gender does not follow the sex of the person (der Mensch, der Star, die Person,
# die Geisel, die Fachkraft): left beside a swapped pronoun they are still right. Compounds count by their head.
DE_EPICENE_HEADS = (
    "mensch", "menschen", "star", "stars", "fan", "fans", "säugling", "liebling", "teenager", "profi", "promi",
    "single", "zwilling", "nachwuchs", "flüchtling", "gast", "gastes", "gasts", "person", "geisel", "waise",
    "persönlichkeit", "berühmtheit", "größe", "legende", "ikone", "koryphäe", "majestät", "hoheit", "exzellenz",
    "heiligkeit", "kraft", "wache", "vertretung", "leitung", "führung", "spitze", "hilfe", "aufsicht", "bedienung",
    "begleitung", "figur", "seele",
)


@cache
def english_person_nouns() -> frozenset[str]:
    """English nouns that name a person in their first sense (resources/variations/person_nouns_en.txt)."""
    from builders.core.resources import resource_path

    text = resource_path("variations", "person_nouns_en.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def lexicon_genders(word: str) -> frozenset[str] | None:
    """Genders of a lowercase German noun in the noun lexicon, or of the longest head of a compound that it knows
    (Regierungsbeauftragter -> Beauftragter); None when neither is known."""
    from builders.pronouns.german import noun_lexicon

    lexicon = noun_lexicon()
    for start in range(0, len(word) - MIN_HEAD_LETTERS + 1):
        entry = lexicon.get(word[start:])
        if entry is not None and (start == 0 or start >= 2):
            return entry.genders
    return None


_LEXICON_GENDER_OF = {"m": "Masc", "f": "Fem"}


def translated_person_noun_gender_unsafe(tokens: list[Token], linked: list[int], gender: str,
                                         english_names: frozenset[str]) -> bool:
    """German words linked to an English person noun: True when one of them is a noun that may name the person
    in ``gender`` (the one swapped away): a nominalised adjective with that gender's ending (der Beauftragte),
    and, for a man, a masculine-only noun that is not epicene (der Mudschahed, der Scheich) or a capitalised word
    inside the sentence that neither the noun lexicon nor the English side knows (its gender cannot be checked).
    Feminine person nouns are -in forms or nominalised adjectives, found by the rules above; a feminine-only noun
    linked to an English person noun is mostly a wrong link or a compound on a thing (Kosmetikerausbildung)."""
    for index in linked:
        token = tokens[index]
        if not token.text[:1].isupper() or token.text in english_names or not token.text.isalpha():
            continue
        lower = token.lower
        if lower.endswith(DE_EPICENE_HEADS):
            continue
        genders = lexicon_genders(lower)
        if gender == "f" and not (genders is not None and {"Masc", "Fem"} <= genders):
            continue
        if genders is None:
            if index > 0 and tokens[index - 1].text not in (".", "!", "?", ":", "„", "“", "\"", "»", "«"):
                return True
            continue
        if {"Masc", "Fem"} <= genders:
            if german_nominalised_adjective(tokens, index, gender):
                return True
            continue
        if _LEXICON_GENDER_OF[gender] in genders:
            return True
    return False
