"""`mtprobes publish`: dry-run by default (files, sizes, card); ``push`` uploads with huggingface_hub.

The token comes from HF_TOKEN or the huggingface_hub login and is never printed: errors from the Hub client
are reduced to their type and a message with any token removed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from builders.core.dataset_dir import BuiltDataset
from builders.core.errors import MtprobesError, UsageError

# What goes to the Hub: parquet data, JSONL mirror, card, manifest and the builder's extras.
# The save_to_disk copy (hf/) is for local use only; the Hub serves the parquet files.
EXCLUDED_DIRS = ("hf",)


@dataclass(frozen=True)
class PublishPlan:
    folder: Path
    repo_id: str
    files: list[tuple[str, int]]
    card: str
    private: bool
    revision: str | None

    def render(self) -> str:
        total = sum(size for _, size in self.files)
        visibility = "private" if self.private else "public"
        lines = [f"Dry run: would upload {len(self.files)} files ({total:,} bytes) to dataset repo "
                 f"{self.repo_id} ({visibility}, revision {self.revision or 'main'}):"]
        lines += [f"  {size:>12,}  {name}" for name, size in self.files]
        lines += ["", "Dataset card (README.md):", self.card, "Run again with --push to upload."]
        return "\n".join(lines)


def plan_publish(path: str | Path, repo_id: str, private: bool = False, revision: str | None = None,
                 force: bool = False) -> PublishPlan:
    check_repo_id(repo_id)
    ds = BuiltDataset.open(path)
    refuse_symlinks(ds.path)
    total = sum(sum(splits.values()) for splits in ds.info["records"].values())
    if total == 0 and not force:
        raise MtprobesError(f"{ds.path}: the set has 0 records; nothing worth publishing (pass --force to publish it)")
    files = sorted(
        (str(p.relative_to(ds.path)), p.stat().st_size)
        for p in ds.path.rglob("*")
        if p.is_file() and p.relative_to(ds.path).parts[0] not in EXCLUDED_DIRS
    )
    card = (ds.path / "README.md").read_text(encoding="utf-8")
    return PublishPlan(ds.path, repo_id, files, card, private, revision)


def check_repo_id(repo_id: str) -> None:
    """ORG/NAME under the Hub's own naming rules, so a dry run accepts only what a push would (not ../evil)."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise UsageError(f"--repo-id must look like ORG/NAME, got {repo_id!r}")
    try:
        validate_repo_id(repo_id)
    except HFValidationError as err:
        rule = " ".join(str(err).split())
        raise UsageError(f"--repo-id {repo_id!r} is not a name the Hub accepts: {rule}") from None


def resolve_token() -> str:
    token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if not token:
        from huggingface_hub import get_token

        token = get_token()
    if not token:
        raise MtprobesError("no Hugging Face token: set HF_TOKEN or run `hf auth login`; nothing was uploaded")
    return token


def push(plan: PublishPlan, endpoint: str | None = None) -> str:
    """Create the repo if needed and upload the planned files in one commit; returns the commit URL."""
    from huggingface_hub import HfApi

    token = resolve_token()
    api = HfApi(endpoint=endpoint, token=token)
    try:
        api.create_repo(plan.repo_id, repo_type="dataset", private=plan.private, exist_ok=True)
        if plan.revision:
            api.create_branch(plan.repo_id, repo_type="dataset", branch=plan.revision, exist_ok=True)
        commit = api.upload_folder(
            folder_path=str(plan.folder),
            repo_id=plan.repo_id,
            repo_type="dataset",
            revision=plan.revision,
            allow_patterns=[name for name, _ in plan.files],
            commit_message=f"mtprobes: upload {plan.folder.name}",
        )
    except Exception as err:  # the Hub client raises many types; report one clean line without the token
        # The client's messages span several lines (status, docs link, server text): keep one line.
        message = " ".join(str(err).replace(token, "***").split())
        raise MtprobesError(f"upload to {plan.repo_id} failed: {type(err).__name__}: {message[:300]}") from None
    return str(getattr(commit, "commit_url", commit))


def refuse_symlinks(folder: Path) -> None:
    """The upload follows links, so a link inside the folder would publish a file from outside it."""
    links = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_symlink())
    if links:
        raise MtprobesError(f"{folder}: refusing to publish symbolic links ({', '.join(links[:5])}); "
                            "replace them by the files themselves or remove them")
