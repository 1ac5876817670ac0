from __future__ import annotations

import os
from pathlib import Path

import pytest

# Every hub miss otherwise costs ~45 s of retries; nothing in the tests may download.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent (real public data for tests; CI has it)")
    return SHARED_DATA


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT
