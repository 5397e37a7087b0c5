"""``compare --ladder`` and ``balance --ladder``: the command's question at every level of play
(study.ladder), one study per level through the API, then the ladder's table, words, --out
and --report."""
from __future__ import annotations

from pathlib import Path

import click

from ..api import StudyRequest, Watch, balance_report, compare_report, play_study
from ..core.arguments import named
from ..core.driver import ConfigError, shared_kernels
from ..core.output import atomic_write_all, table_writes
from ..core.registry import FITTED_KEY, get_game
from ..study import ladder, studies, tuning
from .common import LISTED, CompileNotice, RunFiles, progress_bar, shorter_hint, wrapped
from .tables import fit, print_text, section, width

REFUSED = {"checkpoint_path": "--checkpoint", "resume_path": "--resume", "tuned_spec": "--tuned",
           "precision": "--precision", "component_sets_spec": LISTED, "plot_path": "--plot",
           "scheduler": "--scheduler", "cluster_spec": "--cluster"}


def play_ladder(options: dict, command: str) -> None:
    """Play every level of the ladder and report it."""
    for name, option in REFUSED.items():
        if options.get(name):
            raise ConfigError(f"--ladder plays its own levels: leave out {option}")
    game = get_game(options["game_name"])
    if len(options["components_path"]) > 1:
        raise ConfigError(f"--ladder plays one {game.data_noun}: give {named('components')} once")
    strategies = options["strategies_spec"].split(",") if options["strategies_spec"] else None
    try:
        levels = ladder.ladder_levels(game, strategies, options["games"], tuning.shipped_path(game.name).exists(),
                                      with_random=command == "balance")
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    files = RunFiles(out=options["out_path"], report=options["report_path"])
    files.check([ladder.LADDER_TABLE])
    rows, fitted = [], {}  # fitted: the levels whose strategy plays rules it was not fitted to, in words
    started = [StudyRequest(command, games=level.games, game=game.name, players=options["players_spec"],
                            strategies=list(level.strategies), seed=options["seed"], threads=options["threads"],
                            components=list(options["components_path"]) or None,
                            tuned="shipped" if level.tuned else None,
                            rules=options.get("rules"), vs=options.get("vs"),
                            plugins=options["plugins"]).start() for level in levels]
    bar = progress_bar(sum(studies.planned_games(t, s) for s, t in started), options["quiet"],
                       shorter=shorter_hint("fewer --games or player counts",
                                            [name for level in levels for name in level.strategies], cluster=False))
    # the levels of heuristics (random among them) play in the kernel of the game's built-in heuristics, plain
    # balance's and compare's, and the rollout and learned players' levels in one kernel of every strategy
    # the ladder plays: two compilations at most, not one a level
    played = {s.split(":")[0] for level in levels for s in level.strategies}
    heuristics = {name for name in game.built_ins if game.registry.origin.get(name) == "built-in"}
    try:
        with shared_kernels(game.name, heuristics, played | heuristics):
            for level, (study, tournaments) in zip(levels, started, strict=True):
                if not options["quiet"]:
                    click.echo(f"level {level.name}: {level.games:,} games per configuration", err=True)
                notice = CompileNotice(options["quiet"])
                try:
                    play_study(study, tournaments, Watch(compiling=notice, progress=bar))
                finally:
                    notice.close()
                names = dict(zip([s.label for s in study.strategies], level.stands_for, strict=True))
                if command == "balance":
                    answer = balance_report(study, tournaments, True)
                    rows += ladder.balance_rows(level, names, answer.strategies, answer.rules)
                else:
                    answer = compare_report(study, tournaments, True)
                    rows += ladder.compare_rows(level, names, answer.strategies)
                if FITTED_KEY in answer.summary:
                    fitted[level.name] = answer.summary[FITTED_KEY]
    finally:
        if bar is not None:
            bar.close()
    table = ladder.ladder_frame(rows)
    words = ladder.ladder_words(table)
    components = {game.data.noun: ", ".join(options["components_path"]) or "default"} if game.data is not None else {}
    rules = study.rules_played(command)  # the rule sets asked for (balance: --rules and --vs, or their defaults)
    summary = {"game": game.name, "seed": options["seed"], "rules": ", ".join(rules), **components,
               "levels": ",".join(lv.name for lv in levels),
               "games_per_level": ",".join(str(lv.games) for lv in levels),
               **({FITTED_KEY: "; ".join(f"level {name}: {said}" for name, said in fitted.items())} if fitted
                  else {})}
    writes = table_writes(files.out, {ladder.LADDER_TABLE: table}, summary) if files.out else []
    if files.report:
        from ..study.report import Report, report_writer

        question = (f"Does the effect of {rules[1]} against {rules[0]} hold as play gets stronger?"
                    if command == "balance" else "Which strategy is best at every level of play?")
        page = Report(title=f"{game.title}: the ladder of skill", question=question, answer=ladder.ladder_answer(table),
                      sections=[ladder.ladder_section(table, words)], reproduce=summary,
                      note=summary.get(FITTED_KEY, ""))
        writes.append(("--report", Path(files.report), report_writer(page)))
    atomic_write_all(writes)
    wide = options["wide"]
    if wide:
        section("The ladder of skill (value: percentage of games as a share, 95% intervals)")
        click.echo(table.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    else:
        section("The ladder of skill (each finding in percentage points, 95% intervals)")
        click.echo(fit(ladder.ladder_shown(table)))
    print_text(words, wide)
    if fitted:
        click.echo(wrapped(f"* {summary[FITTED_KEY]}", hang=2, width=width()))
    for path in dict.fromkeys(target for _, target, _ in writes):
        click.echo(f"  wrote {path}")
