"""One helper for the tests of the English non-referential rules: the reason the first "it" of a sentence is
non-referential ('' when it may refer), parsed by the installed English pipeline (skips without one)."""

from __future__ import annotations

import pytest


def it_reason(sentence: str) -> str:
    from builders.core.compat import spacy_english

    probe = spacy_english()
    if not probe.available:
        pytest.skip(probe.reason)
    from builders.pronouns.english import load_pipeline, pleonastic_reason

    doc = load_pipeline().nlp(sentence)
    return pleonastic_reason(next(t for t in doc if t.lower_ == "it"))
