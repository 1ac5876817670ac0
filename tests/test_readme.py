"""The README's quick starts name real commands, bundled files that exist and pages that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import typer

from builders.cli import app
from builders.core.resources import resources_root

REPO_ROOT = Path(__file__).resolve().parents[1]
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
# Written on other branches of the same change (varq, pronq); drop from this set once merged.
def _command_lines() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", README, re.S)
    text = "\n".join(blocks).replace("\\\n", " ")
    return [line.split("#")[0].strip() for line in text.splitlines() if line.strip().startswith("mtprobes ")]


def test_every_readme_command_is_a_command_of_the_cli() -> None:
    root = typer.main.get_command(app)
    lines = _command_lines()
    assert len(lines) >= 20
    for line in lines:
        words = [w for w in shlex.split(line)[1:] if not w.startswith("-")]
        command = root
        for word in words:
            subcommands = getattr(command, "commands", None)
            if not subcommands:
                break
            assert word in subcommands, f"README: {line!r}: no command {word!r}"
            command = subcommands[word]


def test_every_bundled_path_in_the_readme_exists() -> None:
    paths = set(re.findall(r"\$R/([\w./-]+)", README))
    assert paths
    for relative in paths:
        assert (resources_root() / relative).exists(), f"README names $R/{relative}, which is not bundled"


def test_every_local_link_in_the_readme_exists() -> None:
    links = {link for link in re.findall(r"\]\(([^)#]+)\)", README) if not link.startswith("http")}
    assert "docs/metrics.md" in links and "docs/inputs.md" in links
    missing = sorted(link for link in links if not (REPO_ROOT / link).exists())
    assert not missing, f"README links to missing pages: {missing}"


def test_every_local_link_in_the_docs_exists() -> None:
    missing = []
    for page in sorted((REPO_ROOT / "docs").rglob("*.md")):
        for link in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            target = (page.parent / link).resolve()
            if not link.startswith("http") and not target.exists():
                missing.append(f"{page.relative_to(REPO_ROOT)} -> {link}")
    assert not missing, missing


def test_the_readme_says_which_wilcoxon_reproduces_elliotts_table_1() -> None:
    # Issue 14: offer both alternatives and say, in the output and the README, which one reproduces Table 1.
    from builders.metrics.awareness import TABLE1_ALTERNATIVE

    assert re.search(rf"-O alternative={TABLE1_ALTERNATIVE}`?\*?\*? reproduces\s+Elliott's Table 1", README)
