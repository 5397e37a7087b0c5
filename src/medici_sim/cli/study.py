"""``compare`` and ``balance``: tournaments that answer questions, with intervals and verdicts.

The options make one :class:`~medici_sim.api.StudyRequest` (with --resume, the API makes the
study the checkpoint holds, and checks the options given with it); the API plays it
(``api.play_study``) with this command's progress bar and Ctrl-C, saving its checkpoints and starting
its cluster (``api.Watch``), and makes its report (``api.compare_report``,
``api.balance_report``), which is written and printed here. This module also checks every
file before the first game.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click
import pandas as pd

from ..api import StudyRequest, balance_report, compare_report, play_study
from ..core.arguments import named
from ..core.driver import ConfigError
from ..core.output import atomic_write_all, table_writes
from ..core.registry import GAMES, default_game, get_game
from ..study import studies
from ..study.across import across_table
from ..study.metrics import (
    METRIC_CHANGES_TABLE,
    METRICS_TABLE,
    STRATEGY_METRICS_TABLE,
    differences_text,
    how_the_games_went,
    strategies_text,
)
from ..study.studies import Study
from .common import (
    LISTED,
    NEEDS_ANALYSIS,
    NEEDS_PARQUET,
    Command,
    CompileNotice,
    GameChoice,
    RunFiles,
    components_file,
    components_option,
    debug_option,
    echo_text,
    game_help,
    given_fields,
    given_options,
    nothing_played,
    per_game,
    progress_bar,
    rules_option,
    shipped_component_sets,
    shorter_hint,
    wide_option,
)
from .ladder import play_ladder
from .signals import interrupted_code, interruptible
from .tables import first_seat, print_summary, print_table, print_text, section, source_words, warn_ran_out


def study_options(command_name: str):
    """The options compare and balance share; balance's --game offers every game, and says which
    rules it compares by default in each (with --rules A --vs B it compares any two)."""
    balanced = [game for game in GAMES.values() if game.balance_rules]
    defaults = "; ".join(f"{g.name}: {' and '.join(g.balance_rules)}" + (f", {g.rule_point('rules')}"
                                                                           if g.rule_point("rules") else "")
                         for g in balanced)
    game_words = game_help() + (f" balance compares by default {defaults}; any game with --rules A --vs B."
                                if command_name == "balance" else "")
    options = [  # balance takes every game, and refuses those without rules to compare with a word on compare
        click.option("--game", "-g", "game_name", type=GameChoice(), default=default_game(), show_default=True,
                     help=game_words),
        click.option("--games", "-n", type=int, default=100_000, show_default=True,
                     help="Games per configuration (player count and rules); with --precision, per batch."),
        click.option("--players", "-p", "players_spec", default="all", show_default=True,
                     help="Player counts: all (every count the game allows), one count, or a comma list "
                          "such as 3,4,5."),
        click.option("--strategies", "-s", "strategies_spec", default=None,
                     help="The strategies to compare (parameters as name:param=value) [default: the game's "
                          "built-ins]. With more strategies than seats every combination plays; each lineup "
                          f"rotates ({per_game('lineups')})."),
        click.option("--seed", type=int, default=0, show_default=True, help=f"Master seed ({per_game('seed')})."),
        click.option("--threads", "-t", type=int, default=None, help="Threads [default: all cores]."),
        components_option(repeatable=True),
        click.option(LISTED, "component_sets_spec", default=None, metavar="all|NAME,...",
                     help="Several component sets at once, as one comma list: all (every shipped set: "
                          f"{', '.join(shipped_component_sets())}) or names or files. Each set plays its own games; "
                          "one table per set, and balance says on how many sets each finding holds."),
        click.option("--out", "out_path", default=None,
                     help="Write the tables: FILE.json holds every table and the summary; FILE.csv or "
                          "FILE.parquet holds the first table, the others go beside it as FILE-<table>.EXT."
                          + NEEDS_PARQUET),
        click.option("--plot", "plot_path", default=None, help="Draw the answer as a PNG figure." + NEEDS_ANALYSIS),
        click.option("--ladder", is_flag=True,
                     help="Ask the question at every level of play (random, the heuristics, tuned, search at two "
                          "budgets) and say whether each finding grows, shrinks or holds as play gets stronger."),
        click.option("--report", "report_path", default=None, metavar="FILE.html",
                     help="Write one self-contained page answering the question: the answer in words, tables "
                          "with intervals, figures, and how to reproduce it." + NEEDS_ANALYSIS),
        click.option("--precision", type=float, default=None,
                     help="Instead of a fixed number of games, play batches of --games until every "
                          "win rate's 95% interval half-width is below this (e.g. 0.005)."),
        click.option("--plugin", "plugins", multiple=True, metavar="FILE", help="Load plug-in strategies."),
        click.option("--checkpoint", "checkpoint_path", default=None, metavar="FILE",
                     help="After every batch, save the configuration and the statistics so far to FILE."),
        click.option("--resume", "resume_path", default=None, metavar="FILE",
                     help="Continue the run saved in FILE with its saved configuration (options given as "
                          "well must agree with it)."),
        click.option("--overwrite-checkpoint", is_flag=True,
                     help="Start over even if --checkpoint FILE already holds a run (its progress is lost)."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on an existing Dask cluster; needs medici-sim[distributed]."),
        click.option("--cluster", "cluster_spec", default=None, metavar="local:N",
                     help="Start a local Dask cluster of N worker processes for the run."),
        click.option("--tuned", "tuned_spec", default=None, metavar="FILE|shipped",
                     help="Play every strategy with its parameters tuned for each rule and player count: a file "
                          "written by `tune --out FILE.json`, or shipped (the package's; see docs/guide/tune.md)."),
        click.option("--quiet", "-q", is_flag=True, help="Print no progress bar."),
        wide_option,
        debug_option,
    ]

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def _components_specs(options: dict) -> list[str]:
    """The component sets asked for: --components (repeated, or all) or --decks, the older comma list, not both."""
    listed = options["component_sets_spec"]
    if listed is None:
        return list(options["components_path"])
    if options["components_path"]:
        one, several = named("components"), named("component_sets")
        raise ConfigError(f"{one} and {several}: give one or the other ({one} repeated, or {several} all or "
                          f"{several} NAME,NAME)")
    specs = [part.strip() for part in listed.split(",")]
    if not all(specs):
        noun = get_game(options["game_name"]).data_noun
        raise ConfigError(f"{named('component_sets')} {listed!r}: an empty {noun} name (all, or names or files "
                          "separated by commas)")
    return specs


def _request(options: dict, given: set[str], command: str) -> StudyRequest:
    return StudyRequest(command, game=options["game_name"], players=options["players_spec"],
                        strategies=options["strategies_spec"], rules=options.get("rules"), vs=options.get("vs"),
                        seed=options["seed"], components=_components_specs(options), games=options["games"],
                        precision=options["precision"], threads=options["threads"], tuned=options.get("tuned_spec"),
                        components_argument="component_sets" if options["component_sets_spec"] else "components",
                        resume=options["resume_path"], given=given_fields(given, StudyRequest),
                        plugins=options["plugins"])


def _setup(options: dict, given: set[str], command: str) -> tuple[Study, list, RunFiles]:
    """Resolve the study (its plug-ins loaded) and its tournaments, check every file before any game."""
    specs = _components_specs(options)
    inputs = [spec for spec in specs if components_file(spec)]
    files = RunFiles(out=options["out_path"], plot=options["plot_path"], checkpoint=options["checkpoint_path"],
                     resume=options["resume_path"], overwrite_checkpoint=options["overwrite_checkpoint"],
                     components=inputs[0] if inputs else None, plugins=options["plugins"],
                     tuned=options.get("tuned_spec"), report=options["report_path"])
    study, tournaments = _request(options, given, command).start()
    if study.several_component_sets and files.plot:
        noun, plural = study.game.data_noun, study.game.data_plural_words
        raise ConfigError(f"--plot draws one {noun}'s answer; this run plays {len(study.component_sets)} {plural} "
                          f"(give one {noun}, or leave out --plot)")
    names = table_names(study, command)
    for other in inputs[1:]:  # no output may replace any of the component sets read
        replace(files, components=other).check(names)
    files.check(names)
    return study, tournaments, files


def table_names(study: Study, command: str) -> list[str]:
    """The tables the answer holds (and --out writes)."""
    if command == "compare":
        return studies.COMPARE_TABLES + [METRICS_TABLE, STRATEGY_METRICS_TABLE]
    return (studies.BALANCE_TABLES + ([studies.TUNED_TABLE] if study.tuned is not None else [])
            + ([across_table(study.game)] if study.several_component_sets else [])
            + [METRICS_TABLE, METRIC_CHANGES_TABLE])


def _run(options: dict, given: set[str], command: str):
    """Play the study with progress, checkpoints and Ctrl-C; (study, files, tournaments, complete)."""
    study, tournaments, files = _setup(options, given, command)
    bar = progress_bar(studies.planned_games(tournaments, study), options["quiet"], sum(t.games for t in tournaments),
                       shorter=shorter_hint("fewer --games (or a larger --precision), strategies or player counts",
                                            [s.name for s in study.strategies]))

    notice = CompileNotice(options["quiet"])
    with files.locked():  # the API saves the checkpoints and starts the cluster (files.watch)
        try:
            with interruptible() as stop:
                complete = play_study(study, tournaments, files.watch(
                    options, progress=bar, stop=stop, on_more=bar.grow if bar else None, compiling=notice), command)
        finally:
            notice.close()
            if bar:
                bar.close()
    if not studies.played_any(tournaments, command):
        nothing_played()
    return study, files, tournaments, complete


def _report(tables: dict[str, pd.DataFrame], titles: dict[str, str], run: dict, files: RunFiles, wide: bool,
            figure=None, verdict_text: str | None = None, went: str = "", page=None) -> None:
    """Write the files first (all or none), then print: a closed stdout cannot lose them.
    Tables with a column naming the component set (several sets: the game's ``data_noun``) are printed set by
    set."""
    writes = table_writes(files.out, tables, run) if files.out else []
    if figure is not None:
        writes.append(("--plot", Path(files.plot), figure))
    if page is not None:
        from ..study.report import report_writer

        writes.append(("--report", Path(files.report), report_writer(page)))
    atomic_write_all(writes)
    if run["partial"]:
        section(f"PARTIAL RESULTS: interrupted after {run['games']:,} games")
    shown = {name: frame for name, frame in tables.items() if name in titles}  # across: in the verdict
    noun = get_game(run["game"]).data_noun
    component_sets = list(dict.fromkeys(next(iter(shown.values())).get(noun, pd.Series([None]))))
    for components in component_sets:
        for name, frame in shown.items():
            if components is None:
                print_table(titles[name], frame, name, wide, summary=run)
            else:
                print_table(f"{noun.capitalize()} {components}: {titles[name]}",
                            frame[frame[noun] == components].drop(columns=noun),
                            name, wide, explain=components == component_sets[0], summary=run)
    if went:
        print_text(went, wide)
    warn_ran_out(tables.get(METRICS_TABLE), run["game"])
    print_summary("Run", run, skip=("verdict",))
    if verdict_text is not None:
        section("Verdict")
        echo_text(verdict_text, wide)  # wrapped to the terminal, as trace's lines
    for path in dict.fromkeys(target for _, target, _ in writes):
        click.echo(f"  wrote {path}")


@click.command(cls=Command)
@study_options("compare")
@rules_option()
@click.pass_context
def compare(ctx, **options):
    """Which strategy is best, and by how much: a rotated tournament with ratings."""
    if options["ladder"]:
        return play_ladder(options, "compare")
    study, files, tournaments, complete = _run(options, given_options(ctx), "compare")
    report = compare_report(study, tournaments, complete)
    tables = {name: getattr(report, name) for name in table_names(study, "compare")}
    titles = {
        "strategies": "Per strategy (a win shared by k players counts 1/k; 95% intervals)",
        "ratings": f"Bradley-Terry ratings (log-odds of finishing above {tables['ratings']['strategy'].iloc[0]}, "
                   "95% intervals)",
        "head_to_head": "Head to head (finishes above: how often strategy finished above opponent; a tie counts "
                        "half)",
    }
    figure = None
    if files.plot:
        from ..study.plots import plot_compare

        figure = plot_compare(tables["ratings"], tables["head_to_head"])
    page = _compare_page(study, report) if files.report else None
    went = "\n\n".join(part for part in (how_the_games_went(report.metrics, study.game),
                                          strategies_text(report.strategy_metrics, study.game.name)) if part)
    _report(tables, titles, report.summary, files, options["wide"], figure, went=went, page=page)
    if not complete:
        sys.exit(interrupted_code())


def _balance_help() -> str:
    """balance's help: each game's rules it compares (``Game.balance_rules``)."""
    return ("Does a change of rules change the balance? Two rule sets (--rules A --vs B) played in the same games, "
            "side by side, with a verdict in words. By default: " + " ".join(
                f"{g.title}: does the {other} variant ({g.rule_point('rules')}) change the balance? "
                f"{base.capitalize()} against {other}."
                for g in GAMES.values() if g.balance_rules for base, other in [g.balance_rules]))


@click.command(cls=Command, help=_balance_help())
@study_options("balance")
@rules_option()
@click.option("--vs", default=None, metavar="SPEC",
              help="The rule set compared with --rules's, as --rules writes it [default: the game's variant "
                   "(see --game), or its standard rules when --rules names that variant or the game has none; "
                   "without --rules, --rules is the standard rules, or the variant when --vs names those].")
@click.pass_context
def balance(ctx, **options):
    if options["ladder"]:
        return play_ladder(options, "balance")
    study, files, tournaments, complete = _run(options, given_options(ctx), "balance")
    report = balance_report(study, tournaments, complete)
    across = across_table(study.game)  # the report's ``across``, written under the game's words
    tables = {name: getattr(report, "across" if name == across else name) for name in table_names(study, "balance")}
    text = report.verdict
    base, other = study.rules_played("balance")
    titles = {
        "strategies": f"Win rate by rules (difference: {other} minus {base}, 95% intervals)"
                      + (f"; tuned parameters ({study.tuned.source})" if study.tuned is not None else ""),
        "rules": f"Seat advantage ({first_seat(study.game)}), {source_words(study.game)}, margin of victory, games "
                 "the variant decided",
        studies.TUNED_TABLE: "Tuned parameters under each rule",
    }
    figure = None
    if files.plot:
        from ..study.plots import plot_balance

        figure = plot_balance(tables["strategies"])
    page = _balance_page(study, report) if files.report else None
    went = "\n\n".join(part for part in (how_the_games_went(report.metrics, study.game),
                                          differences_text(report.metric_changes, study.game)) if part)
    _report(tables, titles, report.summary, files, options["wide"], figure, text, went, page)
    if not complete:
        sys.exit(interrupted_code())


def _compare_page(study: Study, report):
    """compare's --report page (study.report_pages), its figure drawn afresh for the page."""
    from ..study.plots import plot_compare
    from ..study.report_pages import compare_page

    return compare_page(study.game.title, report.summary, report.strategies, report.ratings, report.head_to_head,
                        report.metrics, plot_compare(report.ratings, report.head_to_head),
                        strategy_metrics=report.strategy_metrics, game_name=study.game.name)


def _balance_page(study: Study, report):
    """balance's --report page (study.report_pages)."""
    from ..study.plots import plot_balance
    from ..study.report_pages import balance_page

    return balance_page(study.game.title, report.summary, report.verdict, report.strategies, report.rules,
                        report.metrics, study.rules_played("balance"), plot_balance(report.strategies),
                        changes=report.metric_changes)
