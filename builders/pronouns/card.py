"""The ``pronouns.v1`` section of the dataset card: the language pack's own paragraph."""

from __future__ import annotations

FR_CARD_SECTION = """## Language pack: EN->FR

Built with `tgt_lang: fr`, the method carried to French as in Lopes et al. (2020): English *it* whose
French reference has the subject pronoun *il* or *elle*, and English *they* with *ils* or *elles* (a class of
its own), the antecedent found as above and checked against the gender and number of the aligned French noun
(spaCy `fr_core_news_sm`). Each item has one contrastive variant: the other gender of the same number, with
predicative adjectives, *être* participles, floating *tout* and the elision *s'il/si elle* repaired; items
whose agreement cannot be repaired with certainty are dropped and counted. Impersonal *il* (*il faut, il y a,
il est important de*), *ce/c'*, *ça/cela* and object clitics (*le/la/l'/les*) are not testable and counted.
Token ids of the French side are positions in the builder's French tokenisation (elided words such as *l'*,
*qu'*, *s'* are tokens of their own). Field names follow ContraPro; `ref ante head pos` is `NOUN`."""

PACK_SECTIONS = {"fr": FR_CARD_SECTION}


def pack_section(tgt_lang: str) -> str:
    """The pack's paragraph; EN->DE has none (the builder's description is its card)."""
    return PACK_SECTIONS.get(tgt_lang, "")
