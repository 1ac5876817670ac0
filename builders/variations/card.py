"""The ``variations.v1`` card's "Fields" table."""

from __future__ import annotations

FIELD_MEANINGS = {
    "id": "`<line id>-<TYPE>-<n>`: the n-th variation of this type of the line",
    "source_id": "the line's id (`L000001`…, or the JSONL id)",
    "line": "1-based input line",
    "type": "DEL (an adverb removed on both sides), INS (a meaning-light word inserted), SUBNUM (a number "
            "changed), SUBGEN (3rd-person pronouns of one gender swapped; with gendered_nouns also nouns)",
    "direction": "`en-de` or `de-en`: which side is the source",
    "original_src": "the source sentence as read",
    "original_ref": "its reference translation",
    "varied_src": "the source with the variation",
    "varied_ref": "the reference with the matching variation: what a model should now translate",
    "parameters": "`k` (SUBNUM: the change of the number), `word_src`/`word_ref` (the word removed or replaced), "
                  "`new_src`/`new_ref` (the word put in), `position` (English spaCy token), `detail` (year/ordinal, "
                  "m2f/f2m, INS probability)",
    "edits_src": "every edit of the source: its span in the original and in the varied text, old and new text",
    "edits_ref": "the same for the reference",
}
