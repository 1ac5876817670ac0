"""The pronoun fallback of the word alignment (issue 23): an English *it/they* the aligner left without a link
takes the one free target pronoun of its clause.

Why: the statistical aligner sometimes links a target pronoun to no English word, or to English *you* (the
formal German *Sie* makes *you -> sie* a frequent pair, so a lower-case *sie* that renders *it* is linked to a
*you* nearby: "You can't catch it." / "Man kann sie nicht kriegen."), and in French it sometimes links *they*
to the elided complementiser before the pronoun ("that they're" / "qu'ils vont": *they -> qu'*). Hand-read
development drops (docs/alignment.md, "Pronoun fallback") show that most unaligned *it* have no target pronoun
at all (a dropped subject, a relative clause, *darüber*, *en/y*), so the rule is narrow and refuses whenever a
second reading exists. Each refusal is recorded per English token; the packs add it to the
``it_not_aligned`` / ``they_not_aligned`` reason, so dropped.jsonl counts them.

The rule, for one segment:

1. a candidate English pronoun (the pack's ``source_pronouns``) is *unlinked* when it has no link, or only
   links to an elided French complementiser (``qu'``, ``s'``, ``lorsqu'`` ...), which never translates it;
2. its *clause window* is the span of target positions linked to the non-punctuation English words at most
   ``WINDOW`` tokens before or after it (at least ``MIN_ANCHORS`` such words and at most ``MAX_SPAN`` target
   tokens wide, else ``_no_window``); an English prepositional object is refused (``_prepositional``): German
   renders it by *da(r)-* (*longs for it* / *lechzt danach*) and a pronoun near it is another word's;
3. a target pronoun of a testable form is *free* when nothing links it, or only English *you* and it is
   written in lower case (the formal *Sie* is capitalised), or only the English auxiliary or verb right
   after the pronoun ("they 're going" / "ils vont": *ils* linked to *'re*);
4. a non-subject English pronoun may not take a subject-only form (German *er*, every French form): an
   object *it* is *ihn*, *le/la* there;
5. it takes the free pronoun only when exactly one lies in its window (none: plain ``_not_aligned``; several:
   ``_several_free_pronouns``), and no other unlinked English personal pronoun of the segment has that
   pronoun in its own window (``_competing_pronoun``). Its links to elided complementisers and the *you*
   links of the taken pronoun are removed.

Deterministic: a function of the parse, the tokens and the links alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from builders.pronouns.german import GToken

Link = tuple[int, int]

WINDOW = 3  # English tokens on each side whose links make the clause window
MIN_ANCHORS = 2  # linked English words needed to place the window at all
# the widest window taken: a far link of a neighbour (*for -> für* forty words back) would otherwise open the
# window over other clauses ("he longs for it" took the *sie* of "er will sie haben"; IWSLT17 dev)
MAX_SPAN = 8
# elided French complementisers and conjunctions: "qu'ils", "s'il", "lorsqu'elle" (never a pronoun's rendering)
ELIDED_LINKERS = frozenset(
    f"{stem}{mark}" for stem in ("qu", "s", "lorsqu", "puisqu", "quoiqu", "jusqu") for mark in ("'", "’")
)
# English personal pronouns that compete for a free target pronoun
COMPETITORS = frozenset({"it", "they", "he", "she", "him", "her", "them"})
# target forms only a subject can take, per pack code (the object pronouns differ: ihn; le/la/les)
SUBJECT_ONLY_FORMS: Mapping[str, frozenset[str]] = {
    "de": frozenset({"er"}),
    "fr": frozenset({"il", "elle", "ils", "elles"}),
}
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})


@dataclass(frozen=True)
class Repair:
    """The repaired links of a segment and, per English token refused by the fallback, the reason suffix."""

    links: frozenset[Link]
    refused: Mapping[int, str]


def _real_targets(links: frozenset[Link], tokens: list[GToken], source: int) -> list[int]:
    return [j for i, j in links if i == source and tokens[j].text.lower() not in ELIDED_LINKERS]


def _window(doc: Doc, links: frozenset[Link], source: int) -> tuple[int, int] | None:
    near = {t.i for t in doc[max(0, source - WINDOW) : source + WINDOW + 1] if t.i != source and not t.is_punct}
    anchors = {i for i, _ in links if i in near}
    if len(anchors) < MIN_ANCHORS:
        return None
    targets = [j for i, j in links if i in anchors]
    low, high = min(targets), max(targets)
    return (low, high) if high - low < MAX_SPAN else None


def _free(links: frozenset[Link], doc: Doc, tokens: list[GToken], j: int, source: int) -> bool:
    """Nothing links target ``j``; or only a *you* while ``j`` is lower-case; or only the verb or auxiliary
    right after the English pronoun (a contraction: "they 're" / "ils vont", *ils* linked to *'re*)."""
    english = {i for i, jj in links if jj == j}
    if not english:
        return True
    if {doc[i].lower_ for i in english} == {"you"}:
        return tokens[j].text == tokens[j].text.lower()
    return english == {source + 1} and doc[source + 1].pos_ in {"AUX", "VERB"}


def _candidates(
    doc: Doc, tokens: list[GToken], links: frozenset[Link], source: Token, forms: Mapping[str, object],
    subject_only: frozenset[str],
) -> list[int] | None:
    """Free target pronouns in the source's window that it may take (None: no window)."""
    window = _window(doc, links, source.i)
    if window is None:
        return None
    subject = source.dep_ in SUBJECT_DEPS
    return [
        j for j in range(window[0], window[1] + 1)
        if (word := tokens[j].text.lower()) in forms
        and (subject or word not in subject_only)
        and _free(links, doc, tokens, j, source.i)
    ]


def repair_pronoun_links(
    doc: Doc | None,
    tokens: list[GToken],
    links: frozenset[Link],
    source_pronouns: frozenset[str],
    forms: Mapping[str, object],
    code: str,
) -> Repair:
    """The segment's links with the pronoun fallback applied (see the module docstring)."""
    if doc is None:
        return Repair(links, {})
    subject_only = SUBJECT_ONLY_FORMS.get(code, frozenset())
    unlinked = [t for t in doc if t.lower_ in COMPETITORS and not _real_targets(links, tokens, t.i)]
    claims = {t.i: _candidates(doc, tokens, links, t, forms, subject_only) for t in unlinked}
    claimed = [j for found in claims.values() for j in found or []]
    added: set[Link] = set()
    refused: dict[int, str] = {}
    for token in unlinked:
        found = claims[token.i]
        if token.lower_ not in source_pronouns:
            continue
        if found is None:
            refused[token.i] = "_no_window"
        elif found and token.dep_ == "pobj":
            refused[token.i] = "_prepositional"
        elif len(found) > 1:
            refused[token.i] = "_several_free_pronouns"
        elif found and claimed.count(found[0]) > 1:
            refused[token.i] = "_competing_pronoun"
        elif found:
            added.add((token.i, found[0]))
    if not added:
        return Repair(links, refused)
    taken = {j for _, j in added}
    sources = {i for i, _ in added}
    # the taken pronoun's old links (to "you" or the next verb) and the source's complementiser links go
    kept = {
        (i, j) for i, j in links
        if not (j in taken or (i in sources and tokens[j].text.lower() in ELIDED_LINKERS))
    }
    return Repair(frozenset(kept | added), refused)
