"""Which German pronouns and possessives of a segment belong to the probed pronoun's chain (issue 11, class 6).

Policy (stated in docs/pronouns.md and the dataset card): a variant swaps the probed pronoun **and every
other pronoun or possessive of the same referent in the segment**, and nothing else. Every German form in
the segment that could be of the source gender (*er/ihn/ihm/sein-* for a masculine pronoun, *sie/ihr/ihr-*
for a feminine one, *es/ihm/sein-* for a neuter one) is classified by what it translates:

- an English *it/its/itself* that is referential: same chain, swapped, unless another singular noun or name
  of that German gender (or of unknown gender) stands between the antecedent and it, which could be its
  referent instead (*Hamas … its power*): the item is dropped;
- an English personal pronoun or possessive of another referent (*he, she, they, his, her, their, you …*),
  a noun other than the antecedent, an expletive *it*/*there*: another chain, left as it is; a possessive
  counts as another referent's only through an English possessive or possessor noun (*his*, *the man's*), not
  through the noun it determines (*ihr Panzer* ↔ *the shell*: left unexplained, below);
- a noun with the antecedent's lemma: the translator used a pronoun for a repeated noun, same chain;
- nothing (unaligned): a lone unaligned *its* pairs with a lone possessive; an *es* of *es gibt/geht* is an
  expletive; anything else cannot be decided and the item is dropped.

Issue 23 (class 1 of the DE blind checks: another referent's pronoun swapped, or a second pronoun of the
referent left unswapped) drops as undecided or as another referent's: a form linked to an *it* and to a
*he/she* of its gender; an unexplained form while a *he/she* of its gender is linked to nothing; an oblique
form or possessive (*ihn, ihm, ihr, sein-*) linked to an *it* judged expletive (German has no expletive
there); an *er/sie* of the probed form linked to a referential *it* before a non-subject antecedent (*Sie hat
eine Linse und sie kann …*: the first one may be the probed referent).

A swapped *sie*/*es* takes its case from its own German clause (``german_case``); when that is undecided the
item is dropped. The caller turns a returned reason into a counted drop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from builders.pronouns.german import GENDER_OF_PRONOUN, GToken, NounEntry, is_formal_sie, word_set
from builders.pronouns.german_antecedent import role_class
from builders.pronouns.german_case import clause_start, german_case
from builders.pronouns.quality import german_structure_reason
from builders.pronouns.variants import POSSESSIVE_STEMS, ChainToken, possessive_parts

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

CHAIN_WORDS = word_set("it its itself")
OTHER_REFERENT_WORDS = word_set(
    "he him his himself she her hers herself they them their theirs themselves you your yours we our us i me my "
    "there one this that these those which who whom whose"
)
EXPLETIVE_NEXT = word_set("gibt gab gäbe geht ging ginge gehen")
PERSONAL_FORMS_OF = {
    "Masc": word_set("er ihn ihm"),
    "Fem": word_set("sie ihr"),
    "Neut": word_set("es ihm"),
}


GIVE_FORMS = word_set("gibt gab gäbe geben gegeben")
WEATHER_VERBS = word_set(
    "regnet regnete schneit schneite hagelt hagelte donnert donnerte blitzt blitzte dämmert dämmerte"
    # body sensations without a subject (issue 23, class 5: "deshalb juckt es", "es juckt mich")
    " juckt juckte friert fror graut graute schwindelt schwindelte kribbelt kribbelte"
)
IDIOM_REASONS = frozenset({"german_es_geht_um", "german_es_idiom"})


# Intransitive verbs after which a noun phrase is the subject: "Es steht sein Name drauf", "Es kommen viele
# Leute" (issue 23, class 5): the Vorfeld "es" is then a placeholder, never the referent.
INTRANSITIVE_PLACEHOLDER_VERBS = word_set(
    "steht stehen stand standen liegt liegen lag lagen sitzt sitzen saß saßen hängt hängen hing hingen kommt "
    "kommen kam kamen herrscht herrschen herrschte entsteht entstehen entstand existiert existieren existierte "
    "fehlt fehlen fehlte fehlten"
)
SUBJECT_OPENERS = word_set(
    "sein seine ein eine kein keine viele mehrere einige zwei drei die das mein meine dein deine unser unsere"
)


def _placeholder_es(tokens: Sequence[GToken], index: int) -> bool:
    """ "Es steht sein Name drauf": sentence-initial es, an intransitive verb, then a noun phrase (opener and
    capitalised noun) that is the verb's real subject."""
    if index > 0 and tokens[index - 1].text not in {".", "!", "?", '"', "„", "“", ":"}:
        return False
    following = [t.text for t in tokens[index + 1 : index + 4]]
    return (
        len(following) == 3
        and following[0].lower() in INTRANSITIVE_PLACEHOLDER_VERBS
        and following[1].lower() in SUBJECT_OPENERS
        and following[2][:1].isupper()
    )


def expletive_es(tokens: Sequence[GToken], index: int) -> bool:
    """An *es* that names nothing (blind round 6, class 3): the *es* of *es geht um/darum*, of an idiom (*es
    handelt sich um*, *es kommt darauf an*), the first *es* of *es gibt es* (*Aber es gibt es*; a lone
    *es gibt* may be a referential *give*: *Es gibt seinen Bauern Geld*) or of a weather verb. It is never
    part of a referent's chain and never the probed pronoun."""
    if tokens[index].text.lower() != "es":
        return False
    following = tokens[index + 1].text.lower() if index + 1 < len(tokens) else ""
    previous = tokens[index - 1].text.lower() if index > 0 else ""
    start = clause_start(tokens, index)
    end = next((k for k in range(index, len(tokens)) if tokens[k].text in {".", "!", "?", ";"}), len(tokens))
    clause_es = [k for k in range(start, end) if tokens[k].text.lower() == "es"]
    # "es gibt seinen Bauern Geld" is a referential give: only a second es in the clause ("es gibt es") shows
    # that one of them is the expletive, the first
    gives = len(clause_es) > 1 and clause_es[0] == index and GIVE_FORMS & {following, previous}
    weather = bool({following, previous} & WEATHER_VERBS)
    placeholder = _placeholder_es(tokens, index)
    return bool(gives) or weather or placeholder or german_structure_reason(tokens, index) in IDIOM_REASONS


@dataclass(frozen=True)
class ChainContext:
    """What the chain decision needs from the segment of the probed pronoun."""

    doc: Doc
    german: Sequence[GToken]
    links: frozenset[tuple[int, int]]
    it_index: int  # the probed English "it"
    german_index: int  # its German pronoun
    antecedent_head: int  # English token index of the antecedent head in this segment, -1 when earlier
    antecedent_lemma: str
    is_pleonastic: Callable[[Token], bool]
    noun_entry: Callable[[int], NounEntry | None]  # German noun at a German index, or None


def _english_of(context: ChainContext, german_index: int) -> list[Token]:
    return [context.doc[i] for i, j in sorted(context.links) if j == german_index]


def _german_of(context: ChainContext, english_index: int) -> list[int]:
    return sorted(j for i, j in context.links if i == english_index)


def _form_kind(german: Sequence[GToken], index: int, source: str) -> str:
    """'pronoun', 'possessive' or '' for a German token that could be of the source gender."""
    word = german[index].text.lower()
    parts = possessive_parts(german[index].text)
    following = german[index + 1].text if index + 1 < len(german) else ""
    if parts is not None and parts[0] == POSSESSIVE_STEMS[source]:
        if parts[1]:
            return "possessive"
        # bare "sein"/"ihr": a possessive before a noun or an adjective, else the verb "sein" or dative "ihr"
        after = german[index + 2].text if index + 2 < len(german) else ""
        adjective = following[:1].islower() and following.endswith(("e", "en", "er", "es")) and after[:1].isupper()
        if following[:1].isupper() or adjective:
            return "possessive"
    if word in PERSONAL_FORMS_OF[source]:
        if word == "sie" and is_formal_sie(list(german), index):
            return ""
        return "pronoun"
    return ""


def _competing_noun(context: ChainContext, english: Token, source: str) -> bool:
    """A singular noun or name between the antecedent and ``english`` whose German gender is the source
    gender or unknown: it could be the referent of this it/its instead."""
    start = context.antecedent_head + 1 if context.antecedent_head >= 0 else 0
    for token in context.doc[start : english.i]:
        if token.tag_ not in {"NN", "NNP"} or token.i == context.antecedent_head:
            continue
        for j in _german_of(context, token.i):
            genders = _genders(context, j)
            # a name the lexicon does not know ("Hamas") may have any gender
            unknown_name = not genders and token.tag_ == "NNP" and context.german[j].text[:1].isupper()
            if source in genders or unknown_name:
                return True
    return False


def _genders(context: ChainContext, german_index: int) -> frozenset[str]:
    entry = context.noun_entry(german_index)
    return entry.genders if entry is not None else frozenset()


def _before_antecedent(context: ChainContext, token: Token) -> bool:
    """An it/its before the antecedent mentioned in this segment cannot continue that mention ("It's a
    reminder of how wonderful the universe is, that it allows …"): another referent or none."""
    return 0 <= token.i < context.antecedent_head


def _same_form_may_be_chain(context: ChainContext, index: int, chain: list[Token], english: list[Token]) -> bool:
    """The probed pronoun's own form (*sie* beside *sie*) aligned to an English *them* or to an *it* judged
    expletive: it may well be the same referent (blind round 6, class 4: *Ich versuche, sie … zu verstecken,
    aber er spuckt sie aus*, both the medicine), so leaving it unswapped may half-swap the variant. An *es*
    beside an expletive *it* is left alone: German has the same expletives."""
    word = context.german[index].text.lower()
    if word != context.german[context.german_index].text.lower() or expletive_es(context.german, index):
        return False
    return (bool(chain) and word != "es") or any(t.lower_ == "them" for t in english)


# English pronouns of a person of the source gender: a German form of that gender may translate one of them
PERSON_WORDS = {
    "Masc": word_set("he him his himself"),
    "Fem": word_set("she her hers herself"),
    "Neut": frozenset[str](),
}


def _earlier_same_form(context: ChainContext, index: int, english: list[Token]) -> bool:
    """ "Sie hat eine gute Zeitauflösung und sie kann …" (*It has … resolution, and it can …*): a German *er/sie*
    of the probed form aligned to a referential *it* before the antecedent may well be the probed referent
    (the antecedent, the nearest noun, is then wrong), so leaving it unswapped may half-swap the variant
    (issue 23, class 1). An *es* is left alone: *It's a reminder … that it allows …* names two things; so is
    a form before an antecedent that is a subject (*It suggests how government could work … as people think it
    should*: the subject between them takes over)."""
    word = context.german[index].text.lower()
    if word == "es" or word != context.german[context.german_index].text.lower():
        return False
    if role_class(context.doc[context.antecedent_head]) == "subject":
        return False
    return any(t.lower_ in CHAIN_WORDS and not context.is_pleonastic(t) for t in english)


def _oblique_beside_expletive(context: ChainContext, index: int, chain: list[Token]) -> bool:
    """A German *ihn, ihm, ihr* or possessive aligned to an *it* that the English rules call expletive: German
    has no expletive in these forms, so either the English rule or the link is wrong, and the form may be the
    referent's (issue 23, class 1: a possessive left unswapped half-swaps the variant)."""
    word = context.german[index].text.lower()
    return bool(chain) and word not in {"es", "er", "sie"}


def _classify(context: ChainContext, index: int, source: str) -> str:
    """'chain', 'other' or a drop reason for one German form of the source gender."""
    if expletive_es(context.german, index):
        return "other"  # "Es geht nur darum, es … zu verfolgen": the first es stays as it is
    english = _english_of(context, index)
    chain = [
        t
        for t in english
        if t.lower_ in CHAIN_WORDS and t.i != context.it_index and not _before_antecedent(context, t)
    ]
    if not chain and any(t.lower_ in CHAIN_WORDS and _before_antecedent(context, t) for t in english):
        return "variant_chain_undecided" if _earlier_same_form(context, index, english) else "other"
    if any(not context.is_pleonastic(t) for t in chain):
        referential = [t for t in chain if not context.is_pleonastic(t)]
        if any(_competing_noun(context, t, source) for t in referential):
            return "variant_chain_other_referent"
        if any(t.lower_ in PERSON_WORDS[source] for t in english):
            return "variant_chain_other_referent"  # linked to "it" and to "him" as well: which one is it?
        return "chain"
    if _same_form_may_be_chain(context, index, chain, english) or _oblique_beside_expletive(context, index, chain):
        return "variant_chain_undecided"
    if chain or any(t.lower_ in OTHER_REFERENT_WORDS for t in english):
        return "other"  # an expletive "it"/"there" or a pronoun of another referent
    nouns = [t for t in english if t.pos_ in {"NOUN", "PROPN"}]
    if _form_kind(context.german, index, source) == "possessive":
        # a possessive linked to the noun it determines ("ihr Panzer" ↔ "the shell") says nothing about its
        # owner; only a possessor noun ("the turtle's shell") does. Otherwise it stays unexplained (paired with an
        # unaligned "its" or the item is dropped), never left unswapped as another referent's (blind round 4)
        nouns = [t for t in nouns if _possessor(t)]
    if nouns:
        return "chain" if any(t.lemma_.lower() == context.antecedent_lemma for t in nouns) else "other"
    following = context.german[index + 1].text.lower() if index + 1 < len(context.german) else ""
    previous = context.german[index - 1].text.lower() if index > 0 else ""
    if context.german[index].text.lower() == "es" and (following in EXPLETIVE_NEXT or previous in EXPLETIVE_NEXT):
        return "other"
    return "unexplained"


def _possessor(token: Token) -> bool:
    """An English noun that owns something: "the turtle's (shell)", or a possessive modifier."""
    return token.dep_ == "poss" or any(child.dep_ == "case" for child in token.children)


def _orphan_its(context: ChainContext, forms: set[int]) -> dict[str, list[Token]]:
    """Referential it/itself and its of the segment (other than the probed one) linked to none of the German
    forms of the source gender, by kind."""
    orphans: dict[str, list[Token]] = {"pronoun": [], "possessive": []}
    for token in context.doc:
        if token.lower_ not in CHAIN_WORDS or token.i == context.it_index or context.is_pleonastic(token):
            continue
        if _before_antecedent(context, token):
            continue
        if not forms & set(_german_of(context, token.i)):
            orphans["possessive" if token.lower_ == "its" else "pronoun"].append(token)
    return orphans


def _pair_orphans(context: ChainContext, source: str, unexplained: list[tuple[int, str]]) -> str:
    """German forms the alignment did not explain pair with the English it/its it did not link, when there are
    exactly as many of each kind (eflomal often leaves pronouns and possessives unaligned); '' on success."""
    forms = {index for index, _ in unexplained}
    if any(t.lower_ in PERSON_WORDS[source] and not _german_of(context, t.i) for t in context.doc):
        # an unaligned "he"/"her" of the source gender may be what the unexplained German form translates
        # (issue 23, class 1: another person's pronoun swapped with the referent's)
        return "variant_chain_other_referent"
    orphans = _orphan_its(context, forms)
    for kind in ("pronoun", "possessive"):
        german = [index for index, k in unexplained if k == kind]
        if german and len(german) != len(orphans[kind]):
            return "variant_chain_undecided"
        if any(_competing_noun(context, token, source) for token in orphans[kind][: len(german)]):
            return "variant_chain_other_referent"
    return ""


GENDERS_OF_FORM = {
    **{word: frozenset({"Masc"}) for word in ("er", "ihn")},
    "ihm": frozenset({"Masc", "Neut"}),
    "es": frozenset({"Neut"}),
    "sie": frozenset({"Fem"}),
}


def _form_genders(word: str) -> frozenset[str]:
    """Genders a German personal pronoun or possessive can have ('' for other words; dative "ihr" is left out:
    it is also the plural possessive and the 2nd person)."""
    parts = possessive_parts(word)
    if parts is not None and parts[1]:
        return frozenset({"Masc", "Neut"}) if parts[0] == "sein" else frozenset({"Fem"})
    return GENDERS_OF_FORM.get(word.lower(), frozenset())


def _other_gender_it(context: ChainContext, source: str) -> bool:
    """Another referential it/its of the segment after the antecedent is translated with a pronoun or
    possessive that cannot have the probed pronoun's gender ("The creature … it …" → "die Kreatur … sie",
    "the beast … hit it" → "das Monstrum … es"): the German names the referent with two genders, or the it
    means another thing that the chain policy cannot tell apart; the item is dropped (second round)."""
    for token in context.doc:
        # an it before the antecedent's mention counts too: it may continue an earlier mention (the beast …
        # hit it … the creature)
        if token.lower_ not in CHAIN_WORDS or token.i == context.it_index or context.is_pleonastic(token):
            continue
        for j in _german_of(context, token.i):
            genders = _form_genders(context.german[j].text)
            if genders and source not in genders and not is_formal_sie(list(context.german), j):
                return True
    return False


def chain_of(context: ChainContext) -> tuple[list[ChainToken], str]:
    """The other German tokens of the probed pronoun's chain with their German case, or a drop reason."""
    source = GENDER_OF_PRONOUN[context.german[context.german_index].text.lower()]
    if _other_gender_it(context, source):
        return [], "variant_chain_other_gender"
    members: list[tuple[int, str]] = []
    unexplained: list[tuple[int, str]] = []
    for index in range(len(context.german)):
        kind = _form_kind(context.german, index, source) if index != context.german_index else ""
        if not kind:
            continue
        verdict = _classify(context, index, source)
        if verdict == "unexplained":
            unexplained.append((index, kind))
        elif verdict == "chain":
            members.append((index, kind))
        elif verdict != "other":
            return [], verdict
    reason = _pair_orphans(context, source, unexplained) if unexplained else ""
    if reason:
        return [], reason
    found: list[ChainToken] = []
    for index, kind in sorted(members + unexplained):
        case = german_case(context.german, index) if kind == "pronoun" else ""
        if kind == "pronoun" and not case:
            return [], "variant_case_undecided"
        found.append(ChainToken(index, kind, case))
    return found, ""
