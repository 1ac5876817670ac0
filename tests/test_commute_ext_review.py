"""commute_ext: the static review page in headless Chromium: tick, export, apply the export to a build."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from builders.commute_ext.backends import chromium_executable, headless_chromium
from builders.commute_ext.builder import CommuteExtBuilder
from builders.commute_ext.config import CommuteExtConfig
from builders.commute_ext.select import SELECTION_FORMAT

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]


def build(out: Path, *overrides: str) -> Path:
    config = CommuteExtConfig.from_sources(SAMPLE / "demo.yaml", list(overrides))
    return CommuteExtBuilder(config).build(out, overwrite=True, quiet=True)


def test_review_page_tick_export_and_apply(tmp_path: Path) -> None:
    probe = headless_chromium()
    if not probe.available:
        pytest.skip(probe.reason)
    from playwright.sync_api import sync_playwright

    cache = f"cache_dir={tmp_path / 'cache'}"
    built = build(tmp_path / "first", cache)
    page_path = built / "review" / "index.html"
    shots = Path(os.environ.get("COMMUTE_EXT_SCREENSHOTS", tmp_path))
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_executable(), args=LAUNCH_ARGS)
        page = browser.new_page(accept_downloads=True, viewport={"width": 1400, "height": 1000})
        page.goto(page_path.as_uri())
        first = page.locator('section.group[data-id="en-de-0001"] .translation[data-t="0"]')
        boxes = first.locator("input[type=checkbox]")
        assert boxes.count() == 15
        assert first.locator(".count").inner_text() == "4 / 4 selected"
        ticked = [i for i in range(15) if boxes.nth(i).is_checked()]
        free = [i for i in range(15) if not boxes.nth(i).is_checked()]
        dropped_uid = boxes.nth(ticked[0]).get_attribute("data-uid")
        added_uid = boxes.nth(free[-1]).get_attribute("data-uid")
        boxes.nth(ticked[0]).click()
        assert first.locator(".count").inner_text() == "3 / 4 selected"
        assert "do not have 4 images" in page.locator("#status").inner_text()
        boxes.nth(free[-1]).click()
        assert first.locator(".count").inner_text() == "4 / 4 selected"
        with page.expect_download() as download_info:
            page.locator("#export").click()
        download = download_info.value
        assert download.suggested_filename == "selection.json"
        exported = tmp_path / "selection.json"
        download.save_as(exported)
        page.screenshot(path=str(shots / "commute_ext_review.png"), full_page=False)
        browser.close()
    data = json.loads(exported.read_text())
    assert data["format"] == SELECTION_FORMAT and data["per_translation"] == 4
    assert sorted(data["selections"]) == ["en-de-0001", "en-de-0002", "en-de-0003"]
    chosen = data["selections"]["en-de-0001"]["0"]
    assert added_uid in chosen and dropped_uid not in chosen and len(chosen) == 4
    rebuilt = build(tmp_path / "second", cache, f"selection={exported}")
    record = json.loads((rebuilt / "jsonl" / "test.jsonl").read_text().splitlines()[0])
    translation = record["translations"][0]
    assert translation["selected_by"] == "review"
    assert {i["uid"] for i in translation["images"][1:]} == set(chosen)
