"""German-side structure filters: items where a variant pronoun would also be a correct translation.

Issue 11's hand check found two classes the English rules cannot see:
- German extraposition and idioms ("es ist wichtig, dass/zu/wenn/ob", "es geht um", "wenn es um ... geht"):
  the "es" is a placeholder, not the translation of a referential "it";
- a copula with a noun-phrase predicate ("es ist ein typisches Beispiel", "er ist ein Kernprojekt"): German
  allows "es" there whatever the referent's gender, so a variant is correct too.
Both are read off the German clause that starts at the pronoun (up to the next punctuation mark), so the
check is independent of the English parse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from builders.pronouns.german import GToken, noun_gender, word_set

COPULA_FORMS = frozenset(
    ["ist", "war", "sei", "wäre", "sind", "bleibt", "blieb", "bliebe", "wird", "wurde", "würde", "werden", "wäre"]
)
NOUN_PHRASE_STARTS = frozenset(
    [
        "ein",
        "eine",
        "einen",
        "einem",
        "einer",
        "eines",
        "kein",
        "keine",
        "keinen",
        "keinem",
        "keiner",
        "keines",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "dieser",
        "diese",
        "dieses",
        "diesen",
        "diesem",
        "mein",
        "meine",
        "unser",
        "unsere",
    ]
)
ADJECTIVE_ENDINGS = ("e", "en", "er", "es", "em")
COORDINATORS = frozenset({"und", "oder", "sowie"})
INTENSIFIERS = frozenset({"sehr", "so", "ganz", "besonders", "äußerst", "ziemlich", "recht", "zu", "wirklich"})
WERDEN_FORMS = frozenset({"wird", "wurde", "würde", "werden", "wurden", "würden"})
PREDICATE_ADVERBS = frozenset(
    [
        "nur",
        "auch",
        "nicht",
        "noch",
        "schon",
        "eher",
        "wirklich",
        "wohl",
        "doch",
        "ja",
        "eben",
        "gar",
        "bloß",
        "immer",
        "sicher",
        "vielleicht",
        "also",
        "heute",
        "jetzt",
        "damals",
        "dann",
        "hier",
        "dort",
        "wieder",
        "inzwischen",
        "mittlerweile",
        "längst",
        "bereits",
        "eigentlich",
        "tatsächlich",
        "natürlich",
    ]
)
EXTRAPOSED_CLAUSE_WORDS = frozenset({"dass", "daß", "ob", "wenn", "zu", "wie", "was", "wer"})
CLAUSE_END = frozenset(',.;:!?–—-()"„“”')
MAX_CLAUSE_TOKENS = 12


def clause_after(tokens: Sequence[GToken], index: int) -> list[str]:
    """Lower-cased words from the pronoun to the next punctuation mark (the pronoun's own clause)."""
    words: list[str] = []
    for token in tokens[index + 1 : index + 1 + MAX_CLAUSE_TOKENS]:
        if token.text in CLAUSE_END:
            break
        words.append(token.text.lower())
    return words


def _copula_with_noun_phrase(tokens: Sequence[GToken], index: int) -> bool:
    """Pronoun directly before/after a copula whose next words open a noun phrase ("er ist ein ...",
    "ist es ein ..."), or a verb-final clause with a noun phrase before its copula."""
    if _copula_at_clause_end(tokens, index):
        return True
    clause = clause_after(tokens, index)
    before = tokens[index - 1].text.lower() if index > 0 else ""
    if clause and clause[0] in COPULA_FORMS:
        rest = clause[1:]
    elif before in COPULA_FORMS:
        rest = clause
    else:
        return False
    # adverbs such as "nur", "auch", "nicht" may come between the copula and the predicate; a preposition
    # ("er ist in der Stadt") means a PP, not a noun-phrase predicate
    # "so ein(e)" is a noun phrase too ("Es ist so eine Kraft")
    words = [word for word in rest if word not in PREDICATE_ADVERBS | {"so"}]
    return bool(words) and _opens_noun_phrase(tokens, index, words) and not _auxiliary_werden(tokens, index, words)


def _opens_noun_phrase(tokens: Sequence[GToken], index: int, words: list[str]) -> bool:
    """A determiner with a noun after it ("ein zentrales Projekt"), or adjectives and a noun without one
    ("harte Arbeit")."""
    if words[0] in NOUN_PHRASE_STARTS:
        return _has_noun(tokens, index, words[0])
    start = next((j for j in range(index + 1, len(tokens)) if tokens[j].text.lower() == words[0]), None)
    if start is not None and tokens[start].text[:1].isupper() and tokens[start].text.isalpha():
        bare = noun_gender(tokens[start].text)  # an article-less noun: "Es ist Liebe", "Er ist Teil davon"
        return bare is not None and any(bare.singular_in(gender) for gender in bare.genders)
    if start is None or not words[0].endswith(ADJECTIVE_ENDINGS) or not tokens[start].text[:1].islower():
        return False
    following = tokens[start + 1] if start + 1 < len(tokens) else None
    if following is None or not following.text[:1].isupper() or not following.text.isalpha():
        return False
    entry = noun_gender(following.text)  # a singular noun: "harte Arbeit", not "voller Blumen"
    return entry is not None and any(entry.singular_in(gender) for gender in entry.genders)


def _copula_at_clause_end(tokens: Sequence[GToken], index: int) -> bool:
    """Verb-final clause: "…, dass es harte Arbeit ist", "weil sie ein Kernprojekt war"."""
    clause = clause_after(tokens, index)
    if len(clause) < 2 or clause[-1] not in COPULA_FORMS - WERDEN_FORMS:
        return False
    words = [word for word in clause[:-1] if word not in PREDICATE_ADVERBS]
    return bool(words) and _opens_noun_phrase(tokens, index, words)


# uninflected adjectives that grade the next one: "eine unglaublich starke Kraft" (blind round 7, class 2)
GRADING_WORDS = frozenset({"unglaublich", "extrem", "enorm", "wahnsinnig", "unheimlich", "total", "echt", "super"})


def _has_noun(tokens: Sequence[GToken], index: int, determiner: str) -> bool:
    """The determiner opens a noun phrase with a (capitalised) noun after its adjectives: "ein zentrales
    Projekt", not "die längste im Land" (an elided noun agrees with the referent, so only one pronoun fits)."""
    start = next(j for j in range(index + 1, len(tokens)) if tokens[j].text.lower() == determiner)
    for token in tokens[start + 1 : start + 1 + MAX_CLAUSE_TOKENS]:
        if token.text[:1].isupper():
            return True
        # coordinated and graded predicates: "das größte und eines der wichtigsten Reservate", "eine sehr
        # geliebte Institution"
        word = token.text.lower()
        if word in COORDINATORS or word in NOUN_PHRASE_STARTS or word in INTENSIFIERS or word in PREDICATE_ADVERBS:
            continue
        if token.text == "," or word in GRADING_WORDS:  # "eine unglaubliche, zerstörerische Kraft" (round 7)
            continue
        if not token.text.endswith(ADJECTIVE_ENDINGS):
            return False
    return False


def _auxiliary_werden(tokens: Sequence[GToken], index: int, rest: list[str]) -> bool:
    """ "er wird die Welt verändern", "sie wurde den Bürgern vorgestellt": future or passive, the noun
    phrase is an object, not a predicate (the clause ends with an infinitive or participle)."""
    around = {t.text.lower() for t in tokens[max(0, index - 1) : index + 2]}
    return bool(around & WERDEN_FORMS) and rest[-1].endswith(("n", "t"))


def _next_to_copula(tokens: Sequence[GToken], index: int) -> bool:
    """ "es ist", "ist es", "wäre es": the placeholder "es" of extraposition is the copula's subject."""
    neighbours = [tokens[j].text.lower() for j in (index - 1, index + 1) if 0 <= j < len(tokens)]
    return any(word in COPULA_FORMS for word in neighbours)


def _es_extraposed(tokens: Sequence[GToken], index: int) -> bool:
    """ "es" next to a copula and followed in its sentence by ", dass/ob/wenn/..." or "zu": the "es"
    anticipates that clause ("es ist wichtig, dass ...", "es ist schwer zu sagen")."""
    if tokens[index].text.lower() != "es" or not _next_to_copula(tokens, index):
        return False
    following = [t.text.lower() for t in tokens[index + 1 : index + 1 + 2 * MAX_CLAUSE_TOKENS]]
    for position, word in enumerate(following):
        if word in EXTRAPOSED_CLAUSE_WORDS and (word == "zu" or (position and following[position - 1] == ",")):
            return True
        if word in {".", ";", "!", "?"}:
            return False
    return False


def _es_geht_um(tokens: Sequence[GToken], index: int) -> bool:
    """ "es geht (nicht/hier/...) um", "wenn es um ... geht", "es geht mir darum": an idiom, no referent."""
    if tokens[index].text.lower() != "es":
        return False
    window = {t.text.lower() for t in tokens[max(0, index - 2) : index + 8]}
    # "es geht mir darum, …" anticipates a clause the same way
    return bool(window & {"um", "darum", "drum"}) and bool(window & {"geht", "ging", "gehe", "ginge", "gehen"})


# "es" idioms without a referent (second round of issue 11): each entry is (verb forms, words one of which must
# come with them in the clause, words all of which must); "es handelt sich um", "es macht keinen Sinn", "es lohnt
# sich", "es kommt darauf an", "es tut mir leid", "es fehlt an" ("es gibt" is left out: "es gibt seinen Bauern
# Geld" is a referential "give"). Blind round 7, class 2: event frames where "es" is the situation, so the
# noun's gender does not force it: "es endet schlecht", "es macht mich fertig", "es erschöpft uns", "es kommt
# auf dich an", "es wird das letzte Mal sein".
_NONE: frozenset[str] = frozenset()
ES_IDIOMS: tuple[tuple[frozenset[str], frozenset[str], frozenset[str]], ...] = (
    (frozenset({"handelt", "handelte", "handeln"}), frozenset({"sich"}), _NONE),
    (frozenset({"macht", "machte", "machen", "ergibt", "ergab", "hat", "hatte"}), frozenset({"sinn"}), _NONE),
    (frozenset({"lohnt", "lohnte", "lohnen"}), frozenset({"sich"}), _NONE),
    (frozenset({"kommt", "kam", "käme"}), frozenset({"darauf", "drauf"}), _NONE),
    (frozenset({"kommt", "kam", "käme", "kommen"}), _NONE, frozenset({"auf", "an"})),
    (frozenset({"tut", "tat", "täte"}), frozenset({"leid"}), _NONE),
    (frozenset({"fehlt", "fehlte"}), frozenset({"an"}), _NONE),
    (frozenset({"endet", "endete", "enden"}), frozenset({"schlecht", "gut", "böse", "tragisch", "übel"}), _NONE),
    (
        frozenset({"macht", "machte", "machen"}),
        frozenset({"fertig", "verrückt", "wahnsinnig", "kaputt", "irre"}),
        _NONE,
    ),
    (frozenset({"erschöpft", "erschöpfte", "erschöpfen"}), frozenset({"mich", "dich", "uns", "euch"}), _NONE),
    (frozenset({"wird", "war", "ist", "wäre", "sein"}), frozenset({"letzte", "erste"}), frozenset({"mal"})),
    # "es läuft gut", "wie lief es?": how things went, whatever the English "it" names
    (frozenset({"läuft", "lief", "liefe", "laufen", "gelaufen"}),
     frozenset({"gut", "schlecht", "bestens", "prima", "super", "wie", "glatt", "schief"}), _NONE),
)
NAMING_VERBS = frozenset(
    {"heißt", "hieß", "heißen", "hießen", "nennt", "nennen", "nannte", "nannten", "genannt", "bezeichnet", "bezeichnen"}
)


def _clause_around(tokens: Sequence[GToken], index: int) -> set[str]:
    """Lower-cased words of the pronoun's clause: two words before it and its clause after it."""
    before = [t.text.lower() for t in tokens[max(0, index - 2) : index] if t.text not in CLAUSE_END]
    return set(before) | set(clause_after(tokens, index))


def _es_idiom(tokens: Sequence[GToken], index: int) -> bool:
    """ "es handelt sich um", "es macht keinen Sinn", "es lohnt sich", ...: "es" names no thing."""
    if tokens[index].text.lower() != "es":
        return False
    words = _clause_around(tokens, index)
    return any(
        words & verbs and (not companions or words & companions) and every <= words
        for verbs, companions, every in ES_IDIOMS
    )


# adjectives that, as the predicate of "es ist …", usually judge a situation or a claim ("es ist nicht wahr",
# "es war schlimm"), where "es" is the pronoun of propositions whatever the English "it" meant
EVALUATIVE_ADJECTIVES = word_set(
    "wahr falsch richtig gut schlecht schön schlimm schwer schwierig leicht einfach möglich unmöglich klar "
    "wichtig nötig notwendig sinnvoll sinnlos okay ok egal schade toll super seltsam merkwürdig komisch "
    "interessant spannend traurig verrückt erstaunlich unglaublich normal typisch genug besser schlimmer "
    "leichter schwerer einfacher wunderbar fantastisch furchtbar schrecklich peinlich witzig lustig kompliziert"
)

# a copula at the end of the clause, also an infinitive after a modal ("sollte es schon in Ordnung sein")
VERB_FINAL_COPULAS = COPULA_FORMS | {"sein", "werden", "bleiben"}
# words of the clause skipped on the way to the predicate
NOT_THE_PREDICATE = PREDICATE_ADVERBS | INTENSIFIERS | COPULA_FORMS | {"sein", "gewesen", "geworden", "schon"}
# prepositional predicates that judge a situation like an adjective ("es ist in Ordnung", blind check 2)
EVALUATIVE_PHRASES = frozenset({("in", "ordnung"), ("im", "eimer"), ("von", "vorteil"), ("von", "bedeutung")})


def _es_evaluative(tokens: Sequence[GToken], index: int) -> bool:
    """ "es ist nicht wahr", "…, dass es so schwierig war": "es" with a copula and an evaluative adjective
    as its predicate is mostly the situation or the claim (development reading, issue 11 round 2)."""
    if tokens[index].text.lower() != "es":
        return False
    clause = clause_after(tokens, index)
    verb_final = bool(clause) and clause[-1] in VERB_FINAL_COPULAS
    if not (_next_to_copula(tokens, index) or verb_final):
        return False
    words = [word for word in clause if word not in NOT_THE_PREDICATE]
    return bool(words) and (words[0] in EVALUATIVE_ADJECTIVES or tuple(words[:2]) in EVALUATIVE_PHRASES)


# demonstratives that, before a copula and a pronoun, identify rather than refer ("Das ist es", "Das war er")
IDENTIFYING_DEMONSTRATIVES = frozenset({"das", "dies", "dieses"})


def identificational(tokens: Sequence[GToken], index: int) -> bool:
    """ "Das ist es!", "Das war es nicht", "Dies ist sie": the pronoun after a demonstrative and a copula is
    the predicate of an identification, and *es* there is idiomatic whatever the referent's gender ("das ist
    es" = "that's it"), so the gender is not forced."""
    if index < 2 or tokens[index - 1].text.lower() not in COPULA_FORMS:
        return False
    return tokens[index - 2].text.lower() in IDENTIFYING_DEMONSTRATIVES


def _es_identificational(tokens: Sequence[GToken], index: int) -> bool:
    return tokens[index].text.lower() == "es" and identificational(tokens, index)


def _naming_frame(tokens: Sequence[GToken], index: int) -> bool:
    """ "vielleicht heißt es Ego", "nennen wir es X", "er wird X genannt": a naming frame takes "es" whatever
    the gender of the thing named, so a variant is also correct (any pronoun)."""
    return bool(_clause_around(tokens, index) & NAMING_VERBS)


GERMAN_RULES: dict[str, Callable[[Sequence[GToken], int], bool]] = {
    "german_es_geht_um": _es_geht_um,
    "german_es_idiom": _es_idiom,
    "german_es_identificational": _es_identificational,
    "german_naming_frame": _naming_frame,
    "german_es_extraposed": _es_extraposed,
    "german_copula_noun_predicate": _copula_with_noun_phrase,
    "german_es_evaluative": _es_evaluative,
}


def german_structure_reason(tokens: Sequence[GToken], index: int) -> str:
    """The drop reason of the first German rule that fires for the pronoun at index, or ""."""
    return next((reason for reason, rule in GERMAN_RULES.items() if rule(tokens, index)), "")
