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
    """A main run's page and a balance's page (small runs), and what the commands printed."""
    folder = tmp_path_factory.mktemp("report")
    main, balance = folder / "run.html", folder / "balance.html"
    for args in (["-p", "4", "-s", "greedy,random,greedy,random", "--seating", "rotate", "-n", "2000", "-q",
                  "--seed", "7", "--report", str(main)],
                 ["balance", "-p", "4", "-n", "1200", "-q", "--report", str(balance)]):
        try:
            cli(args)
        except SystemExit as stop:
            assert stop.code in (0, None)
    return main, balance


def test_the_page_holds_every_section_in_order(pages):
    text = pages[0].read_text()
    order = ["Question:", "Answer:", "Win rates", "Seat advantage", "How the games went", "Designer metrics",
             "How to reproduce it", "medici-sim --games 2000 --players 4 --strategies greedy,random,greedy,random",
             "seed", "numba"]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
    assert "comeback_after_day1" in text and "(0." in text  # a value with its interval
    assert text.count("data:image/png;base64,") >= 3


def test_the_page_needs_no_network(pages):
    for page in pages:
        text = page.read_text()
        assert not NETWORK.search(text)
        assert "<script" not in text and "<link" not in text


def test_the_balance_page_answers_with_the_verdict(pages):
    text = pages[1].read_text()
    assert "does bonus20 change the balance?" in text and "Answer:</strong> With 4 players" in text


def test_a_report_that_is_not_html_is_refused_in_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "-n", "10", "--report", str(tmp_path / "page.txt"))
    assert code == 2 and "--report" in err and ".html" in err and "Traceback" not in err
    assert not (tmp_path / "page.txt").exists()


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="no chromium here (Debian: apt-get install chromium; .ci/run "
                                                 "installs it)")
def test_the_page_renders_in_a_real_browser(pages, tmp_path):
    """Headless Chromium: a phone-width screenshot that is not blank, and the verdict's words in
    the rendered page."""
    from matplotlib.image import imread

    page = pages[1]
    browser = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    shot = tmp_path / "page.png"
    subprocess.run([*browser, "--window-size=412,1600", f"--screenshot={shot}", page.as_uri()], check=True,
                   capture_output=True, timeout=60)
    pixels = imread(shot)[..., :3]
    assert pixels.std() > 0.05 and (pixels < 0.5).mean() > 0.005  # text and figures, not an empty page
    dom = subprocess.run([*browser, "--dump-dom", page.as_uri()], check=True, capture_output=True, text=True,
                         timeout=60).stdout
    verdict = re.search(r"Answer:</strong> (With 4 players[^<]{20,80})", page.read_text()).group(1)
    assert html.unescape(verdict.split(";")[0]) in html.unescape(dom) and 'id="answer"' in dom
    assert np.asarray(pixels).shape[1] == 412
