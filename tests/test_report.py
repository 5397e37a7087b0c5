"""--report FILE.html (issue 20): one self-contained page with the question, the answer, the
tables, the figures and how to reproduce it; no network; it renders in a real browser."""
from __future__ import annotations

import html
import re
import shutil
import subprocess

import numpy as np
import pytest
from conftest import run

from medici_sim.cli import main as cli

NETWORK = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|@import|url\(\s*["']?(?:https?:)?//""", re.I)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """A main run's page, a balance's page and a sweep's page (small runs)."""
    folder = tmp_path_factory.mktemp("report")
    main, balance, sweep = folder / "run.html", folder / "balance.html", folder / "sweep.html"
    for args in (["-p", "4", "-s", "greedy,random,greedy,random", "--seating", "rotate", "-n", "2000", "-q",
                  "--seed", "7", "--report", str(main)],
                 ["balance", "-p", "4", "-n", "1200", "-q", "--report", str(balance)],
                 ["sweep", "--rule", "big_bonus=0..40:20", "--rules", "bonus20", "-p", "3", "-s", "greedy,collector",
                  "-n", "600", "-q", "--report", str(sweep)]):
        try:
            cli(args)
        except SystemExit as stop:
            assert stop.code in (0, None)
    return main, balance, sweep


def test_the_page_holds_every_section_in_order(pages):
    text = pages[0].read_text()
    order = ["Question:", "Answer:", "Win rates", "Seat advantage", "How the games went", "Designer metrics",
             "How to reproduce it", "medici-sim --games 2000 --players 4 --strategies greedy,random,greedy,random",
             "seed", "numba"]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
    assert "comeback_after_day1" not in text and "leader after day 1 did not win" in text  # headers, measures: words
    assert re.search(r"<td>\d+\.\d% \(\d+\.\d\u2013\d+\.\d\)</td>", text)  # a share in percent with its interval
    assert "True" not in text and "False" not in text and "<li>" in text  # yes/no; the answer a short list
    assert text.count("data:image/png;base64,") >= 3


def test_the_page_needs_no_network(pages):
    for page in pages:
        text = page.read_text()
        assert not NETWORK.search(text)
        assert "<script" not in text and "<link" not in text


def test_the_balance_page_answers_with_the_verdict(pages):
    text = pages[1].read_text()
    assert "does bonus20 change the balance?" in text and "Answer:</strong><ul><li>4 players: bonus20 changes" in text
    assert "<td>bonus20 minus standard</td>" in text and "<td>comebacks after day 1</td>" in text  # metric changes
    assert "Their changes between the rules" in text and "difference_ci_low" not in text  # joined as intervals
    assert " points (" in text and "0.0" + "1" not in text.split("How to reproduce")[0]  # points, not fractions


def page_of(folder, *args) -> str:
    """The --report page of the command ``args`` (run in this process)."""
    page = folder / "page.html"
    try:
        cli([*args, "--report", str(page)])
    except SystemExit as stop:
        assert stop.code in (0, None)
    return page.read_text()


def test_the_balance_page_names_the_rule_sets_it_compared(tmp_path):
    """--rules days=1 --vs standard: the page asked "does bonus20 change the balance?" and called
    the differences "bonus20 minus standard" (the game's default pair, not the rule sets played)."""
    text = page_of(tmp_path, "balance", "-p", "2", "-n", "60", "-q", "--rules", "days=1", "--vs", "standard")
    assert "bonus20" not in text
    assert "does standard change the balance?" in text and "Difference: standard minus days=1" in text
    assert "Answer:</strong><ul><li>2 players: standard changes" in text


def test_a_sweep_of_the_days_has_its_page(tmp_path):
    """sweep --rule days=1..3 --report was a traceback ('All arrays must be of the same length'):
    the metrics table named its days column twice, as the swept rule and as the games' days."""
    text = page_of(tmp_path, "sweep", "--rule", "days=1..3", "-s", "expert,random", "-p", "3", "-n", "30", "-q")
    assert "Designer metrics at each point" in text and "<td>n/a</td>" in text  # 1-day games: no comeback


def test_the_sweep_page_answers_along_the_rule(pages):
    text = pages[2].read_text()
    order = ["Question:</strong> How do the win rates",
             "Answer:</strong><ul><li>At 3 players, as big_bonus goes from 0 to 40",
             "Win rates along the rule", "Seats and spreads", "How the games went along the rule",
             "Designer metrics at each point", "Their changes from the previous point", "How to reproduce it",
             "medici-sim sweep --rule big_bonus=0..40:20"]
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order)
    assert text.count("data:image/png;base64,") == 2  # the curves and the metrics along the rule


def test_a_report_that_is_not_html_is_refused_in_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "-n", "10", "--report", str(tmp_path / "page.txt"))
    assert code == 2 and "--report" in err and ".html" in err and "Traceback" not in err
    assert not (tmp_path / "page.txt").exists()


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="no chromium here (Debian: apt-get install chromium; .ci/run "
                                                 "installs it)")
@pytest.mark.parametrize("which, answer", [(1, "4 players: "), (2, "At 3 players")])
def test_the_page_renders_in_a_real_browser(pages, tmp_path, which, answer):
    """Headless Chromium: a phone-width screenshot that is not blank, and the answer's words in
    the rendered page (balance's verdict, sweep's curves in words)."""
    from matplotlib.image import imread

    page = pages[which]
    browser = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    shot = tmp_path / "page.png"
    subprocess.run([*browser, "--window-size=412,1600", f"--screenshot={shot}", page.as_uri()], check=True,
                   capture_output=True, timeout=60)
    pixels = imread(shot)[..., :3]
    assert pixels.std() > 0.05 and (pixels < 0.5).mean() > 0.005  # text and figures, not an empty page
    dom = subprocess.run([*browser, "--dump-dom", page.as_uri()], check=True, capture_output=True, text=True,
                         timeout=60).stdout
    verdict = re.search(rf"Answer:</strong><ul><li>({answer}[^<]{{20,80}})", page.read_text()).group(1)
    assert html.unescape(verdict.split(";")[0]) in html.unescape(dom) and 'id="answer"' in dom
    assert np.asarray(pixels).shape[1] == 412


@pytest.mark.skipif(_chromium() is None, reason="no chromium here (Debian: apt-get install chromium; .ci/run "
                                                 "installs it)")
def test_the_pages_need_no_sideways_scrolling_at_1200_pixels(pages, tmp_path):
    """Issue 30: the tables needed sideways scrolling at 1,200 px and the ladder's text was cut off:
    cells and text wrap, so no part of the rendered page is wider than the window (a copy of each
    page measures itself with one script; the pages themselves have none)."""
    browser = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,1200"]
    measure = ("<script>document.body.setAttribute('data-widest', Math.max(...[...document.querySelectorAll("
               "'*')].map(e => e.scrollWidth - e.clientWidth)))</script></body>")
    for page in pages:
        probe = tmp_path / f"probe-{page.name}"
        probe.write_text(page.read_text().replace("</body>", measure))
        dom = subprocess.run([*browser, "--dump-dom", probe.as_uri()], check=True, capture_output=True, text=True,
                             timeout=60).stdout
        assert int(re.search(r'data-widest="(-?\d+)"', dom).group(1)) <= 0, page.name  # nothing overflows
