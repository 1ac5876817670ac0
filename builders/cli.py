"""The `mtprobes` command line. Heavy libraries load inside commands, so `--help` and `ls` are instant."""

from __future__ import annotations

import copy
import importlib
import json
import logging
import shutil
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from builders import __version__
from builders.core.errors import BuildInterrupted, MtprobesError

QUIET_HELP = "No progress bars, warnings only (also after the command)."
VERBOSE_HELP = "Show third-party warnings, progress bars and INFO lines (transformers, eflomal ...)."


def _output_flag(ctx: Any, param: Any, value: bool) -> None:
    """-q / -v given after the command: added to what the options before it said."""
    from builders.core.chatter import configure_output

    if value:
        configure_output(**{str(param.name): True})


def _add_output_options(command: Any, templates: list[Any]) -> None:
    """`mtprobes score ... -q` as well as `mtprobes -q score ...`: every command that lacks its own -q/-v gets
    a copy of the main options (a build's own --quiet also reaches the builder)."""
    for sub in getattr(command, "commands", {}).values():
        _add_output_options(sub, templates)
    if hasattr(command, "commands"):
        return
    names = {param.name for param in command.params}
    for template in templates:
        if template.name not in names:
            option = copy.copy(template)
            option.expose_value, option.callback = False, _output_flag
            command.params.append(option)


class _OutputOptionsGroup(TyperGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        templates = [param for param in self.params if param.name in ("quiet", "verbose")]
        for command in self.commands.values():
            _add_output_options(command, templates)


app = typer.Typer(
    name="mtprobes",
    help="Build, validate and publish evaluation sets for (multimodal) machine translation.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish and PowerShell
    pretty_exceptions_enable=False,
    cls=_OutputOptionsGroup,
    # Plain help (no boxes), -h as well as --help, as wide as the terminal (120 columns when piped) up to 120.
    rich_markup_mode=None,
    context_settings={
        "help_option_names": ["-h", "--help"],
        "terminal_width": shutil.get_terminal_size((120, 24)).columns,
        "max_content_width": 120,
    },
)

# Modules that add their own commands (score, evaluate, analyze ...) through `register(app)`.
COMMAND_MODULES = (
    "builders.scoring.cli",
    "builders.scoring.image_features",
    "builders.metrics.cli",
    "builders.pronouns.cli",
    "builders.variations.cli",
    "builders.commute_ext.cli",
    "builders.validation.cli",
)

OutOption = Annotated[Path, typer.Option("--out", "-o", help="Output root; datasets go to OUT/<builder>/<config>/v1")]


def _print_version(value: bool) -> None:
    # Eager, so `mtprobes --version` works without a command.
    if value:
        typer.echo(f"mtprobes {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True)
    ] = False,
) -> None:
    from builders.core.chatter import configure_output

    level = getattr(logging, log_level.upper(), None)
    if not isinstance(level, int):
        raise MtprobesError(f"--log-level: unknown level {log_level!r}")
    configure_output(quiet=quiet, verbose=verbose, level=level)


@app.command("ls")
def list_builders() -> None:
    """List the registered builders with a one-line description."""
    from builders.core.registry import entries

    for entry in entries():
        typer.echo(f"{entry.name:<16} {entry.summary}")


@app.command()
def build(
    name: Annotated[str, typer.Argument(help="Builder name, e.g. pronouns.v1 (or pronouns for the latest).")],
    config: Annotated[Path | None, typer.Option("--config", "-c", help="YAML/JSON config file.")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", "-s", help="Override a config key: key=value.")] = None,
    out: OutOption = Path("datasets_out"),
    resume: Annotated[bool, typer.Option(help="Continue an interrupted build from its checkpoints.")] = False,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing output.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
    executor: Annotated[str | None, typer.Option(help="Where units run: local | processes | ray.")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes / Ray CPUs (0: all CPUs).")] = None,
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster: auto, ray://host:10001 (empty: local).")] = None,
) -> None:
    """Build a dataset. Existing outputs are refused unless --overwrite (or --resume after a kill).

    --executor/--workers/--ray-address (also config keys) change how the build runs, never its bytes."""
    from builders.core.chatter import configure_output
    from builders.core.progress import is_quiet
    from builders.core.registry import get_builder_class

    if quiet:
        configure_output(quiet=True)
    builder_class = get_builder_class(name)
    run_keys = {"executor": executor, "workers": workers, "ray_address": ray_address}
    run_overrides = [f"{key}={value}" for key, value in run_keys.items() if value is not None]
    cfg = builder_class.config_class.from_sources(config, [*(set_ or []), *run_overrides])
    started = time.perf_counter()
    try:
        path = builder_class(cfg).build(out, resume=resume, overwrite=overwrite, quiet=is_quiet())
    except KeyboardInterrupt as interrupt:  # Ctrl-C ended the command without a word: say what was kept
        raise BuildInterrupted(" ".join(getattr(interrupt, "__notes__", ())) or "interrupted") from None
    info = json.loads((path / "info.json").read_text(encoding="utf-8"))
    typer.echo(f"wrote {path} in {time.perf_counter() - started:.1f} s")
    typer.echo(f"records: {json.dumps(info['records'])}  dropped: {json.dumps(info['counts']['dropped'])}")
    typer.echo(f"signature: {info['signature']}")


@app.command()
def config(
    name: Annotated[str, typer.Argument(help="Builder name, e.g. pronouns.")],
    keys: Annotated[bool, typer.Option("--keys", help="List every key with its type, default and meaning.")] = False,
) -> None:
    """Print a complete, commented starting config (YAML) for a builder; fill in the REQUIRED keys."""
    from builders.core.config_doc import render_key_table, render_starting_config
    from builders.core.registry import get_builder_class

    builder_class = get_builder_class(name)
    if keys:
        typer.echo(render_key_table(builder_class.config_class))
        return
    typer.echo(render_starting_config(builder_class.name, builder_class.config_class), nl=False)


@app.command()
def validate(path: Annotated[Path, typer.Argument(help="A built dataset folder (the one with info.json).")]) -> None:
    """Check schema, JSONL/parquet agreement, manifest counts, extras, file hashes, signature, card and the builder's
    invariants (docs/validation.md)."""
    from builders.core.validate import validate_dataset

    ds = validate_dataset(path)
    total = sum(sum(s.values()) for s in ds.info["records"].values())
    for warning in ds.info.get("notes", {}).get("warnings", []):
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(f"OK {path}: {total} records valid ({ds.info['signature']})")


@app.command()
def inspect(
    path: Annotated[Path, typer.Argument(help="A built dataset folder.")],
    sample: Annotated[
        int, typer.Option("--sample", "--samples", "-n", min=0, help="Number of whole items to show.")
    ] = 5,
    where: Annotated[
        list[str] | None,
        typer.Option("--where", "-w", help="Only items whose FIELD equals VALUE (FIELD=VALUE, repeatable)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Draw the shown items at random with this seed (default: evenly spaced).")
    ] = None,
    dropped: Annotated[
        bool, typer.Option("--dropped", help="Show the dropped candidates (dropped.jsonl) and why, not the items.")
    ] = False,
) -> None:
    """Show counts, counts per class and type, and whole items (a pronoun item with its variants, a variation
    with its edits), spread over subsets and types; --dropped shows the candidates the build left out, with the
    reason and what it knew of them (--where reason=low_confidence)."""
    from builders.core.inspect import render_summary, summarize

    typer.echo(render_summary(summarize(path, sample, where or [], seed, dropped)))


@app.command()
def publish(
    path: Annotated[Path, typer.Argument(help="A built dataset folder.")],
    repo_id: Annotated[str, typer.Option("--repo-id", help="ORG/NAME of the Hub dataset repo.")],
    private: Annotated[bool, typer.Option(help="Create the repo as private.")] = False,
    revision: Annotated[str | None, typer.Option(help="Branch to upload to (created if missing).")] = None,
    push: Annotated[bool, typer.Option("--push", help="Really upload (default: dry run).")] = False,
    endpoint: Annotated[str | None, typer.Option(help="Hub endpoint (default: HF_ENDPOINT or the Hub).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Publish even a set with 0 records.")] = False,
) -> None:
    """Publish a built dataset to the Hugging Face Hub (dry run unless --push)."""
    from builders.core.publish import check_repo_id, plan_publish
    from builders.core.publish import push as push_plan
    from builders.core.validate import validate_dataset

    check_repo_id(repo_id)
    ds = validate_dataset(path)
    plan = plan_publish(path, repo_id, private=private, revision=revision, force=force)
    for warning in ds.info.get("notes", {}).get("warnings", []):  # e.g. shuffles that repeat each other
        typer.echo(f"warning: {warning}", err=True)
    if not push:
        typer.echo(plan.render())
        return
    typer.echo(f"uploaded: {push_plan(plan, endpoint=endpoint)}")


@app.command()
def demo(
    out: OutOption = Path("datasets_out"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Build every builder on its bundled sample, validate, and write OUT/REPORT.md (offline)."""
    from builders.core.chatter import configure_output
    from builders.core.demo import run_demo

    if quiet:
        configure_output(quiet=True)
    typer.echo(f"wrote {run_demo(out, quiet=quiet)}")


@app.command()
def resources() -> None:
    """Print the folder of the bundled samples, demo configs and models, e.g. R=$(mtprobes resources)."""
    from builders.core.resources import resources_root

    typer.echo(str(resources_root()))


def _register_plugins() -> None:
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name and module_name.startswith(err.name):
                continue  # that family's commands are not part of this installation
            raise
        module.register(app)


_register_plugins()


def _plain_metavars(command: Any) -> Any:
    """Help shows `--model MODEL` and `SET_DIR` the way click and argparse do, not typer's `<str>` type tags."""
    for param in command.params:
        if param.metavar is None and param.name and not getattr(param, "is_flag", False):
            param.metavar = param.name.strip("_").upper()
        if param.param_type_name == "argument":
            # typer's arguments print their type next to the name whatever the metavar; the name says enough.
            param.display_type_rich = lambda ctx: None
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)
    return command


def main() -> None:
    try:
        _plain_metavars(typer.main.get_command(app))()
    except MtprobesError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)
