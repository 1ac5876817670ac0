"""A person noun after "en" that describes the subject: "il s'est conduit en citoyen modèle" -> "elle s'est
conduite en citoyenne modèle" (blind round 8, class 4: the variant kept "en citoyen" after "elle").

The noun agrees with the subject's referent, so it flips with the pronoun. Only nouns of the table below are
flipped (their pairs written for mtprobes from French grammar); nouns with one form for both genders stay; a
bare noun after "en" that looks like a person noun (-eur, -ien, -ant, -ier ... endings) but is in neither
table drops the item with a counted reason, since no rule can tell its other form or whether it is a person.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from builders.pronouns.french_reach import GENDERED_PERSONS
from builders.pronouns.german import word_set

# masculine singular -> feminine singular
PERSON_PAIRS = {
    "citoyen": "citoyenne", "ami": "amie", "héros": "héroïne", "gagnant": "gagnante",
    "roi": "reine", "prince": "princesse", "champion": "championne", "patron": "patronne", "expert": "experte",
    "professionnel": "professionnelle", "pionnier": "pionnière", "voisin": "voisine", "étranger": "étrangère",
    "invité": "invitée", "gardien": "gardienne", "protecteur": "protectrice", "guerrier": "guerrière",
    "conquérant": "conquérante", "frère": "sœur", "père": "mère", "époux": "épouse", "compagnon": "compagne",
    "ennemi": "ennemie", "allié": "alliée", "messager": "messagère", "médiateur": "médiatrice",
    "observateur": "observatrice", "étudiant": "étudiante", "débutant": "débutante", "rival": "rivale",
    "martyr": "martyre", "bourgeois": "bourgeoise", "paysan": "paysanne", "spectateur": "spectatrice",
    "acteur": "actrice", "héritier": "héritière", "serviteur": "servante", "chrétien": "chrétienne",
    "musicien": "musicienne", "magicien": "magicienne", "technicien": "technicienne", "vendeur": "vendeuse",
    "danseur": "danseuse", "chanteur": "chanteuse", "joueur": "joueuse", "voyageur": "voyageuse",
    "président": "présidente", "souverain": "souveraine", "leader": "leader",
    # trades after "comme" ("elles travaillent comme apicultrices"; blind round 9, class 7)
    "apiculteur": "apicultrice", "agriculteur": "agricultrice", "infirmier": "infirmière",
    "boulanger": "boulangère", "cuisinier": "cuisinière", "ouvrier": "ouvrière", "serveur": "serveuse",
    "employé": "employée", "directeur": "directrice", "instituteur": "institutrice", "avocat": "avocate",
    "enseignant": "enseignante", "assistant": "assistante", "cousin": "cousine", "fermier": "fermière",
    "couturier": "couturière", "coiffeur": "coiffeuse", "traducteur": "traductrice",
    "berger": "bergère", "mendiant": "mendiante", "inconnu": "inconnue", "saint": "sainte", "dieu": "déesse",
    # predicate nouns with a definite or possessive determiner (blind round 10, class 1)
    "libérateur": "libératrice", "créateur": "créatrice", "fondateur": "fondatrice", "sauveur": "salvatrice",
    "perdant": "perdante", "favori": "favorite",
    "candidat": "candidate", "habitant": "habitante", "survivant": "survivante", "dernier-né": "dernière-née",
}
# one form for both genders: kept as they are ("elle est morte en victime", "il a réagi en adulte")
EPICENE_PERSONS = word_set(
    "adulte enfant artiste spécialiste touriste élève témoin victime esclave arbitre partenaire complice novice "
    "philosophe poète diplomate stratège camarade collègue responsable propriétaire juge guide chef star"
)
# endings of person nouns with a gendered pair; a bare noun after "en" so ending and in neither table is unsure
PERSON_ENDINGS = ("eur", "euse", "rice", "ien", "ienne", "ant", "ante", "ier", "ière")
# "en" + noun locutions with such endings that describe no person: "en particulier", "en couleur", "en avant"
EN_LOCUTIONS = word_set(
    "particulier entier premier dernier intérieur extérieur couleur couleurs hauteur profondeur douceur faveur "
    "vigueur valeur largeur longueur horreur erreur fleur fleurs cœur heure avant arrière plein train vrac "
    "ce moment même main certain permanence attendant partant passant courant amont aval chantier chemin "
    "vain terrain acier papier osier palier escalier français anglais chinois japonais portugais italien "
    "néerlandais américain africain mexicain norvégien"
)
FEMININE_TO_MASCULINE = {feminine: masculine for masculine, feminine in PERSON_PAIRS.items()}

Swap = Callable[[Any, str, str, str], "str | None"]


class UnsureRole(Exception):
    """A bare noun after "en" that may be a person noun of the referent with no known other form."""


def _plural(singular: str, gender: str) -> str:
    if gender == "Fem" or singular.endswith(("s", "x")):
        return singular if singular.endswith(("s", "x")) else singular + "s"
    if singular.endswith("al"):
        return singular[:-2] + "aux"
    return singular + "s"


def _forms(gender: str) -> dict[tuple[str, str], str]:
    """(form, number) -> its counterpart, for nouns of ``gender``."""
    pairs = PERSON_PAIRS.items() if gender == "Masc" else FEMININE_TO_MASCULINE.items()
    other = "Fem" if gender == "Masc" else "Masc"
    table = {(form, "Sing"): counterpart for form, counterpart in pairs}
    table |= {(_plural(form, gender), "Plur"): _plural(counterpart, other) for form, counterpart in pairs}
    return table


# articles a role noun may have after "comme" ("comme des apicultrices", "comme une reine"); a possessive or
# definite article names a given person ("elle parle comme sa mère"), which need not share the gender
COMME_ARTICLES = {"un": "une", "une": "un", "des": "des"}


def _after_comme(token: Any) -> bool:
    """A noun right after "comme", or after "comme" and an indefinite article."""
    doc = token.doc
    before = doc[token.i - 1].lower_ if token.i > 0 else ""
    if before in COMME_ARTICLES:
        return token.i > 1 and doc[token.i - 2].lower_ == "comme"
    return before == "comme"


def _indefinite_article(token: Any) -> Any:
    return next((c for c in token.children if c.dep_ == "det" and c.lower_ in COMME_ARTICLES), None)


# determiners of a predicate noun and their form for the other gender ("elle est la libératrice" -> "il est le
# libérateur", "elles sont mes invitées" -> "ils sont mes invités"; blind round 10, class 1); before a vowel
# "ma/ta/sa" are "mon/ton/son" and "le/la" elide (not done: such an item drops)
PREDICATE_DETERMINERS = {
    **COMME_ARTICLES, "le": "la", "la": "le", "les": "les", "mon": "ma", "ma": "mon", "ton": "ta", "ta": "ton",
    "son": "sa", "sa": "son", "mes": "mes", "tes": "tes", "ses": "ses", "nos": "nos", "vos": "vos",
    "leurs": "leurs", "notre": "notre", "votre": "votre", "leur": "leur",
}
VOWEL_POSSESSIVES = {"ma": "mon", "ta": "ton", "sa": "son"}


def _determiner(token: Any) -> Any:
    """The noun's determiner, with adjectives only between ("toutes les deux cassées": "deux" between, none)."""
    return next((c for c in token.children if c.dep_ in {"det", "nmod:poss"} and c.lower_ in PREDICATE_DETERMINERS
                 and all(t.pos_ == "ADJ" for t in token.doc[c.i + 1: token.i])), None)


def _predicate_noun(subject: Any, token: Any) -> bool:
    """The noun after "être" with an article or a possessive ("elles sont des infirmières", "elle est une
    excellente infirmière", "elles sont mes invitées"): it names the referent, so a person noun of its gender
    agrees with it (blind round 9, class 7; round 10, class 1)."""
    copula = any(c.dep_ == "cop" for c in token.children)
    return (token.i == subject.head.i and token.i > subject.i and token.pos_ == "NOUN" and copula
            and _determiner(token) is not None and not any(c.dep_ == "case" for c in token.children))


def _determiner_form(determiner: Any, counterpart: str) -> str:
    """The determiner for the noun's other form; UnsureRole where elision would change it."""
    form = PREDICATE_DETERMINERS[determiner.lower_]
    vowel = counterpart[:1] in "aeiouyhâàéèêîôû"
    if vowel and form in VOWEL_POSSESSIVES:
        return VOWEL_POSSESSIVES[form]
    if vowel and form in {"le", "la"}:
        raise UnsureRole("agreement_unresolved_en_role_noun")
    return form


def _role_noun(subject: Any, token: Any) -> bool:
    """A noun after "en" or "comme" attached to the subject's verb ("s'est conduit en citoyen", "travaillent
    comme des apicultrices", "est comme une reine")."""
    case = [c for c in token.children if c.dep_ == "case"]
    if token.pos_ == "NOUN" and _after_comme(token) and token.i > subject.i and token.is_alpha:
        return token.head.i == subject.head.i or token.i == subject.head.i
    if _predicate_noun(subject, token):
        return True
    bare = not any(c.dep_ in {"det", "nmod:poss"} for c in token.children)
    after_en = len(case) == 1 and case[0].lower_ == "en" and case[0].i == token.i - 1
    # "un pull en laine": after a noun, "en" + noun describes that noun, whatever the parse attached it to
    after_noun = after_en and case[0].i > 0 and token.doc[case[0].i - 1].pos_ in {"NOUN", "PROPN"}
    return (after_en and not after_noun and bare and token.head.i == subject.head.i and token.i > subject.i
            and token.is_alpha)


def role_noun_edits(subject: Any, old: tuple[str, str], new: tuple[str, str], swap: Swap) -> list[tuple[Any, str]]:
    """(token, new form) for the person nouns after "en" describing the subject and their adjectives; raises
    UnsureRole for a likely person noun with no known other form."""
    table = _forms(old[0])
    edits: list[tuple[Any, str]] = []
    for token in subject.doc:
        if not _role_noun(subject, token):
            continue
        form = token.lower_
        if form in EPICENE_PERSONS or form.rstrip("s") in EPICENE_PERSONS:
            continue
        counterpart = table.get((form, old[1]))
        if counterpart is None:
            if _unsure_person(token, old[0]):
                raise UnsureRole("agreement_unresolved_en_role_noun")
            continue
        edits.append((token, counterpart))
        article = _determiner(token) if _predicate_noun(subject, token) else _indefinite_article(token)
        if article is not None:
            edits.append((article, _determiner_form(article, counterpart)))  # "comme une reine" -> "comme un roi"
        for adjective in (c for c in token.children if _modifier(c)):
            swapped = swap(adjective, old[0], new[0], old[1])
            if swapped is None:
                raise UnsureRole("agreement_unresolved_en_role_noun")
            edits.append((adjective, swapped))
    return edits


# feminine endings of person nouns ("apicultrice", "coiffeuse", "fermière", "musicienne"): after "comme" or
# "être une" such a noun of a feminine subject is taken for a person; masculine endings are not ("comme un moteur")
FEMININE_PERSON_ENDINGS = ("rice", "euse", "ière", "ienne", "rices", "euses", "ières", "iennes")


def _unsure_person(token: Any, gender: str) -> bool:
    """A likely person noun with no known other form. After "en" a person ending is enough (the old rule);
    after "comme" or as the noun of "être un(e)" things are common ("comme un moteur"), so only a person noun
    of one gender from french_reach's list or a feminine person ending for a feminine subject counts."""
    form = token.lower_
    determined = _determiner(token) is not None
    if not (_after_comme(token) or determined):
        return form.endswith(PERSON_ENDINGS) and form not in EN_LOCUTIONS and token.pos_ in {"NOUN", "ADJ"}
    singular = form[:-1] if form.endswith(("s", "x")) else form
    listed = form in GENDERED_PERSONS[gender] or singular in GENDERED_PERSONS[gender]
    # a noun made from a participle ("mes invitées", "ses employés") has both forms: unsure without the table
    participle_noun = determined and singular.endswith("ée" if gender == "Fem" else "é")
    if determined and _indefinite_article(token) is None and _adjective_lemma(token):
        return False  # "elles étaient les premières": an adjective used as a noun, repaired as an adjective
    return listed or participle_noun or (gender == "Fem" and form.endswith(FEMININE_PERSON_ENDINGS))


def _adjective_lemma(token: Any) -> bool:
    from builders.pronouns.french import known_adjectives  # the French analyser imports this module's users

    lemma = token.lemma_.lower()
    # the small model gives the feminine as the lemma of a feminine noun reading ("premières" -> "première")
    bases = {lemma, lemma.removesuffix("e"), lemma.removesuffix("ère") + "er" if lemma.endswith("ère") else lemma}
    return bool(bases & known_adjectives()) and not token.lower_.endswith(("ée", "ées"))


def _modifier(token: Any) -> bool:
    """An adjective of the noun, also when tagged as a participle ("citoyen loyal": loyal VERB acl)."""
    participle = token.dep_ in {"amod", "acl"} and token.morph.get("VerbForm") == ["Part"]
    return token.pos_ == "ADJ" or participle
