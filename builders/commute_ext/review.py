"""A static review page (one HTML file, no server, no external resources): per ambiguous source both
translations with their original image and the retrieved candidates, pre-selected ones ticked. The reviewer
changes the ticks and exports a JSON selection that ``--set selection=FILE`` applies to the next build."""

from __future__ import annotations

import base64
import html
import io
import json
from typing import Any

from .config import CommuteExtConfig
from .filters import decode_rgb
from .select import SELECTION_FORMAT

REASON_TEXT = {
    "near_duplicate": "near-duplicate of #{of}",
    "near_original": "near-duplicate of the original",
    "other_translation": "closer to the other translation",
}

STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;background:#fafafa;color:#222}
section.group{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.8em 1em;margin-bottom:1.2em}
.translation{border-top:1px solid #eee;padding-top:.5em;margin-top:.5em}
.contrast{color:#888;font-weight:normal;font-size:.85em}
.row{display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-start}
figure{margin:0;width:140px;font-size:.75em;text-align:center}
figure img,.noimg{width:128px;height:128px;object-fit:contain;background:#eee;display:block;margin:auto}
.noimg{display:flex;align-items:center;justify-content:center;word-break:break-all;font-size:.7em}
label.cand{cursor:pointer;border:2px solid transparent;border-radius:4px;padding:2px}
label.cand:has(input:checked){border-color:#2a7}
label.suppressed figure{opacity:.45}
.original{border:2px solid #36c;border-radius:4px;padding:2px}
.count{font-size:.85em;margin:.3em 0}.count.bad{color:#c22;font-weight:bold}
#bar{position:sticky;top:0;background:#fafafa;padding:.5em 0;z-index:1}
textarea{width:100%;height:8em;font-family:monospace;font-size:.75em}
"""

SCRIPT = """
const FORMAT = %(format)s, PER = %(per)d;
function collect() {
  const selections = {};
  document.querySelectorAll("section.group").forEach(group => {
    const chosen = {};
    group.querySelectorAll(".translation").forEach(t => {
      chosen[t.dataset.t] = [...t.querySelectorAll("input[type=checkbox]:checked")].map(box => box.dataset.uid);
    });
    selections[group.dataset.id] = chosen;
  });
  return {format: FORMAT, builder: "commute_ext.v1", per_translation: PER, selections: selections};
}
function updateCounts() {
  let bad = 0;
  document.querySelectorAll(".translation").forEach(t => {
    const n = t.querySelectorAll("input[type=checkbox]:checked").length, counter = t.querySelector(".count");
    counter.textContent = n + " / " + PER + " selected";
    counter.classList.toggle("bad", n !== PER);
    if (n !== PER) bad += 1;
  });
  document.getElementById("status").textContent = bad ? bad + " translation(s) do not have " + PER + " images" : "";
}
document.addEventListener("change", updateCounts);
document.getElementById("export").addEventListener("click", () => {
  const text = JSON.stringify(collect(), null, 1);
  document.getElementById("export-json").value = text;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  link.download = "selection.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
});
updateCounts();
"""


def thumbnail_uri(data: bytes, size: int) -> str:
    """A small JPEG as a data: URI, so the page stays one self-contained file."""
    image = decode_rgb(data)
    if image is None:
        return ""
    image.thumbnail((size, size))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=75)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure(uri: str, label: str, caption: str) -> str:
    escaped = html.escape(label)
    picture = f'<img src="{uri}" alt="{escaped}">' if uri else f'<div class="noimg">{escaped}</div>'
    return f"<figure>{picture}<figcaption>{caption}</figcaption></figure>"


def _candidate(candidate: dict[str, Any], thumbs: dict[str, str]) -> str:
    reason = candidate["suppressed"]
    why = REASON_TEXT.get(reason, reason).format(of=candidate["duplicate_of"]) if reason else ""
    uri = thumbs.get(f"{candidate['collection']}\x1f{candidate['path']}", "")
    text = (f"#{candidate['rank']} · {candidate['similarity']:.3f}<br>{html.escape(candidate['uid'])}"
            + (f'<br><i>{html.escape(why)}</i>' if why else ""))
    checked = " checked" if candidate["selected"] else ""
    css = "cand suppressed" if reason else "cand"
    return (f'<label class="{css}" title="{html.escape(candidate["caption"])}">'
            f'<input type="checkbox" data-uid="{html.escape(candidate["uid"])}"{checked}>'
            f"{_figure(uri, candidate['uid'], text)}</label>")


def _translation(index: int, translation: dict[str, Any], thumbs: dict[str, str]) -> str:
    original = translation["images"][0]
    original_figure = _figure(thumbs.get(f"commute\x1f{original['path']}", ""), original["path"],
                              f"original · {original['similarity']:.3f}")
    candidates = "".join(_candidate(c, thumbs) for c in translation["candidates"])
    return (f'<div class="translation" data-t="{index}">'
            f"<h3>{html.escape(translation['text'])} <span class=\"contrast\">(not: "
            f"{html.escape(translation['contrast'])})</span></h3>"
            f"<div>query caption: <b>{html.escape(translation['caption'])}</b> · line {translation['line']}</div>"
            f'<div class="count"></div>'
            f'<div class="row"><div class="original">{original_figure}</div>{candidates}</div></div>')


def render_review(records: list[dict[str, Any]], thumbs: dict[str, str], config: CommuteExtConfig) -> str:
    groups = "".join(
        f'<section class="group" data-id="{html.escape(r["id"])}"><h2>{html.escape(r["id"])}: '
        f"{html.escape(r['source'])}</h2>"
        + "".join(_translation(i, t, thumbs) for i, t in enumerate(r["translations"]))
        + "</section>"
        for r in records
    )
    script = SCRIPT % {"format": json.dumps(SELECTION_FORMAT), "per": config.per_translation}
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>commute_ext review ({html.escape(config.name)})</title>
<style>{STYLE}</style></head><body>
<div id="bar"><button id="export">Export selection JSON</button> <span id="status"></span>
<p>Tick exactly {config.per_translation} images per translation (greyed = suppressed automatically, still
selectable), export, and rebuild with <code>--set selection=selection.json</code>.</p>
<textarea id="export-json" readonly></textarea></div>
{groups}
<script>{script}</script>
</body></html>
"""
