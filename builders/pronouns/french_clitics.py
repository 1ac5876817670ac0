"""Object clitics of the referent: "elle est partout ; je l'ai vue hier" -> "il est partout ; je l'ai vu hier",
"il gèle et on le gélera" -> "elle gèle et on la gélera" (blind round 8, class 2: the variant flipped the subject
and kept "vue", "le").

A clitic is the referent's when the English pronoun it renders is another "it" of the chain (french_pack passes
those, the same evidence that flips the chain's subject pronouns). Then "le" <-> "la" flips, "l'" stays, and the
words that agree with it flip too: the participle after an "avoir" auxiliary ("l'ai vue") and an adjective right
after its verb ("je la trouve belle", "je l'ai trouvée renommée"). Any other clitic whose agreeing words have the
old gender may be the referent or not: the item is dropped (french_agreement's leftover checks).

The small model often tags the clitic as a determiner and its verb as a noun ("je la garde": la DET, garde NOUN),
so a clitic is also recognised by the word before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from builders.pronouns.french import known_verbs, verb_of_past_participle
from builders.pronouns.french_verbs import AVOIR
from builders.pronouns.german import word_set

OBJECT_CLITIC_FORMS = word_set("le la l' l’ les")
# words after which "le/la/l'/les" can only be an object clitic ("je la garde", "on l'a vue", "ne la voit")
CLITIC_HOSTS = word_set("je j' j’ tu il elle on nous vous ils elles ne n' n’ me m' m’ te t' t’")
INFINITIVE_PREPOSITIONS = word_set("pour de d' d’ à sans")
# clitics that may stand between the object clitic and its verb ("je la lui ai donnée", "on l'y a mise")
INNER_CLITICS = word_set("lui leur y en")
# the auxiliary after an object clitic, any person and tense ("je l'ai vue", "tu l'aurais vue", "dès que je l'eus
# vue", "il l'eût vue"), and its non-finite forms ("pour l'avoir vue", "l'ayant vue", "l'a eue")
AVOIR_FORMS = AVOIR.finite() | AVOIR.non_finite()
FLIPPED = {("le", "Fem"): "la", ("la", "Masc"): "le"}
OWN_FORM = {"Masc": "le", "Fem": "la"}

Swap = Callable[[Any, str, str, str], "str | None"]


class CliticProblem(Exception):
    """A chain clitic or one of its agreeing words that cannot be flipped with certainty."""


def object_clitic(token: Any) -> bool:
    """An object clitic "le/la/l'/les": tagged as a pronoun, after a subject or negation word, or between a
    preposition and an infinitive ("pour la garder"). (The tags of the next word do not tell a verb: "est la
    dactylo" has "dactylo" a finite verb.) The parse's "obj" relation alone is not trusted: it marks
    articles too ("celle que j'ai essayée l'été dernier")."""
    if token.lower_ not in OBJECT_CLITIC_FORMS:
        return False
    doc = token.doc
    before = doc[token.i - 1].lower_ if token.i > 0 else ""
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    infinitive = after is not None and after.morph.get("VerbForm") == ["Inf"] and before in INFINITIVE_PREPOSITIONS
    # "il faut la toucher", "je vais la garder": after a verb and before an infinitive, whatever the tags say
    # (the small model makes "la toucher" an article and a noun; blind EN->FR round 10, class 2)
    after_verb = _verb_before(doc, token.i) and before not in {"est", "sont", "était"}
    infinitive = infinitive or (after is not None and after_verb and after.lower_ in known_verbs())
    # a clitic stands before a finite verb or an infinitive, never right after or before a bare participle
    participle_around = any(t is not None and t.morph.get("VerbForm") == ["Part"]
                            for t in (after, doc[token.i - 1] if token.i > 0 else None))
    return (token.pos_ == "PRON" or before in CLITIC_HOSTS or infinitive) and not participle_around


NEGATION_WORDS = word_set("pas plus jamais rien point guère")


def _verb_before(doc: Any, position: int) -> bool:
    """A verb right before ``position``, or before the negation words there ("il ne faut pas la toucher")."""
    k = position - 1
    while k >= 0 and doc[k].lower_ in NEGATION_WORDS:
        k -= 1
    return k >= 0 and doc[k].pos_ in {"VERB", "AUX"}


def _next_word(doc: Any, position: int, skip: frozenset[str] | set[str]) -> int:
    """The first position at or after ``position`` whose word is not to be skipped, nor an adverb."""
    while position < len(doc) and (doc[position].lower_ in skip or doc[position].pos_ == "ADV"):
        position += 1
    return position


def agreeing_words(clitic: Any) -> Iterator[tuple[Any, bool]]:
    """(word, is a participle) agreeing with the object clitic: the participle after an "avoir" auxiliary and a
    bare adjective right after the verb or participle."""
    doc = clitic.doc
    position = _next_word(doc, clitic.i + 1, INNER_CLITICS)
    if position >= len(doc):
        return
    participle = doc[position].lower_ in AVOIR_FORMS
    if participle:
        position = _next_word(doc, position + 1, set())
        if position >= len(doc) or not doc[position].is_alpha:
            return
        if _before_infinitive(doc[position]):
            return  # "je l'ai fait réparer": the participle before an infinitive does not agree
        yield doc[position], True
    after = position + 1
    if after < len(doc) and doc[after].pos_ == "ADJ" and not any(c.dep_ == "det" for c in doc[after].children):
        yield doc[after], False


def _before_infinitive(participle: Any) -> bool:
    after = participle.doc[participle.i + 1] if participle.i + 1 < len(participle.doc) else None
    return after is not None and after.morph.get("VerbForm") == ["Inf"]


def clitic_edits(clitics: list[Any], gender: str, new_gender: str, number: str,
                 swap: Swap) -> list[tuple[Any, str]]:
    """(token, new form) for the referent's object clitics and their agreeing words; CliticProblem when one
    cannot be flipped (a "la" for a masculine referent is another thing's, so the alignment is not trusted)."""
    edits: list[tuple[Any, str]] = []
    for clitic in clitics:
        form = clitic.lower_
        if form in {"le", "la"}:
            if form != OWN_FORM[gender] or number != "Sing":
                raise CliticProblem("agreement_unresolved_object_clitic")
            edits.append((clitic, FLIPPED[(form, new_gender)]))
        for word, participle in agreeing_words(clitic):
            tagged = word.morph.get("VerbForm") == ["Part"] or word.pos_ in {"VERB", "ADJ"}
            if participle and not tagged and not verb_of_past_participle(word.lower_):
                continue  # "l'a dit", tagged as expected; anything else is no participle of the clitic, unless
                # its form is one ("tu l'aurais vue": "vue" tagged NOUN kept its gender in the variant)
            swapped = swap(word, gender, new_gender, number)
            if swapped is None:
                raise CliticProblem("agreement_unresolved_object_clitic_participle")
            edits.append((word, swapped))
    return edits
