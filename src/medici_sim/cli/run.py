"""The main command: play one configuration many times; per-seat and per-strategy tables.

The options make one :class:`~medici_sim.api.RunRequest` (with --resume, the API makes the
run the checkpoint holds, and checks the options given with it); the API plays it
(``api.play_run``) with this command's progress bar and Ctrl-C, saving the checkpoints and starting
the cluster its options name (``api.Watch``), and its report is written and printed here."""
from __future__ import annotations

import sys

import click

from ..api import RunRequest, play_run
from ..core.output import write_tables
from ..core.registry import get_game
from ..study.metrics import METRICS_TABLE, how_the_games_went
from .common import (
    CompileNotice,
    RunFiles,
    components_file,
    given_fields,
    nothing_played,
    progress_bar,
    shorter_hint,
)
from .signals import interrupted_code, interruptible
from .tables import first_seat, print_summary, print_table, print_text, section, warn_ran_out

TABLES = ["seats", "strategies", METRICS_TABLE]


def run_main(options: dict, given: set[str]) -> None:
    files = RunFiles(out=options["out_path"], checkpoint=options["checkpoint_path"], resume=options["resume_path"],
                     overwrite_checkpoint=options["overwrite_checkpoint"],
                     components=components_file(options["components_path"]),
                     plugins=options["plugins"], report=options["report_path"])
    config, done = RunRequest(game=options["game_name"], players=options["players"], strategies=options["strategies"],
                              games=options["games"], seed=options["seed"], rules=options["rules"],
                              seating=options["seating"], threads=options["threads"],
                              components=options["components_path"],
                              resume=files.resume, given=given_fields(given, RunRequest),
                              plugins=files.plugins).start()
    game = get_game(config.game)
    files.check(TABLES)
    warning = config.components.shortage_warning(config.players) if config.components is not None else None
    if warning:
        click.echo(f"medici-sim: warning: {warning}", err=True)

    bar = progress_bar(config.games, options["quiet"], done.games if done is not None else 0,
                       shorter=shorter_hint("fewer --games", [s.name for s in config.strategies]))
    notice = CompileNotice(options["quiet"])
    with files.locked(), interruptible() as stop:
        try:
            report = play_run(config, files.watch(options, progress=bar, stop=stop, compiling=notice), done)
        finally:
            notice.close()
            if bar:
                bar.close()
    if report is None:
        nothing_played()
    seats, by_strategy, run = report.seats, report.strategies, report.summary
    written = write_tables(files.out, {"seats": seats, "strategies": by_strategy, METRICS_TABLE: report.metrics},
                           run) if files.out else []
    if files.report:
        _write_page(files.report, config, report)
        written.append(files.report)
    if not report.complete:
        section(f"PARTIAL RESULTS: interrupted after {run['games']:,} of {config.games:,} games")
    wide = options["wide"]
    print_table(f"Per seat ({first_seat(game)}; a win shared by k players counts 1/k)", seats, "seats", wide,
                summary=run)
    if config.seating != "fixed" or len(by_strategy) > 1:
        print_table("Per strategy (best first)", by_strategy, "strategies", wide, explain=False, summary=run)
    went = how_the_games_went(report.metrics, game)
    if went:
        print_text(went, wide)
    warn_ran_out(report.metrics, config.game)
    print_summary("Run", run, pad=19)
    for path in written:
        click.echo(f"  wrote {path}")
    if not report.complete:
        sys.exit(interrupted_code())


def _write_page(path: str, config, report) -> None:
    """--report: the run's page (study.report_pages)."""
    from ..study.report import write_report
    from ..study.report_pages import run_page

    write_report(path, run_page(get_game(config.game).title, report.summary, report.seats, report.strategies,
                                report.metrics))
