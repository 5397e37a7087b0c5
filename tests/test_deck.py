"""Deck files: the default reconstruction (R3, R4) and validation (R5)."""
from __future__ import annotations

import pytest
from conftest import HEADER

from medici_sim.games.card.deck import ComponentsError, default_deck, load_deck, parse_deck
from medici_sim.games.card.rules import GOODS, NO_GOOD


def test_default_deck_is_the_r4_reconstruction(deck):
    """R4: 20 cards per good (2 two-icon 0s, 4 each of 2-5, 2 green 0s), 5 green 2s, 5 black 7s."""
    assert deck.n_cards == 110
    good, icons, value, green = deck.card_arrays()
    for g in range(len(GOODS)):
        mine = good == g
        assert mine.sum() == 20
        assert ((value == 0) & (icons == 2) & (green == 0) & mine).sum() == 2
        for v in (2, 3, 4, 5):
            assert ((value == v) & (icons == 1) & (green == 0) & mine).sum() == 4
        assert ((value == 0) & (icons == 1) & (green == 1) & mine).sum() == 2
    none = good == NO_GOOD
    assert ((value == 2) & (green == 1) & none).sum() == 5
    assert ((value == 7) & (green == 0) & none).sum() == 5
    assert (icons[none] == 0).all()


def test_card_ids_follow_file_rows():
    deck = parse_deck(HEADER + "2,fur,1,3,no\n1,none,0,7,no\n", "t")
    good, icons, value, green = deck.card_arrays()
    assert list(good) == [GOODS.index("fur")] * 2 + [NO_GOOD]
    assert list(value) == [3, 3, 7]


def test_round_trip_and_fingerprint(deck):
    again = parse_deck(deck.to_csv(), "again")
    assert again.kinds == deck.kinds
    assert again.fingerprint() == deck.fingerprint()


@pytest.mark.parametrize("row,message", [
    ("0,fur,1,3,no", "count must be a positive integer"),
    ("-2,fur,1,3,no", "count must be a positive integer"),
    ("x,fur,1,3,no", "count must be an integer"),
    ("2,silk,1,3,no", "unknown good 'silk'"),
    ("2,fur,0,3,no", "must show at least one icon"),
    ("2,none,1,3,no", "no good cannot show icons"),
    ("2,fur,1,-1,no", "value must be between 0"),
    ("2,fur,3,1,no", "icons must be 0, 1 or 2"),
    ("2,fur,1,3,maybe", "green must be yes or no"),
    ("2,fur,1,3", "expected 5 fields"),
])
def test_r5_invalid_entries_are_named(row, message):
    """R5: the error names the file, the line and what is wrong with it."""
    with pytest.raises(ComponentsError) as err:
        parse_deck(HEADER + "1,grain,1,2,no\n" + row + "\n", "bad.csv")
    assert message in str(err.value)
    assert "bad.csv, line 3" in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text,message", [
    ("", "no cards"),
    ("# only a comment\n", "no cards"),
    (HEADER, "no cards"),
    ("a,b,c\n1,fur,1,1,no\n", "expected the header"),
    (HEADER + "2000,fur,1,1,no\n", "more than the 1000 allowed"),
])
def test_r5_unusable_files(text, message):
    with pytest.raises(ComponentsError, match=message):
        parse_deck(text, "x.csv")


def test_load_deck_errors(tmp_path):
    with pytest.raises(ComponentsError, match="cannot read"):
        load_deck(tmp_path / "missing.csv")
    binary = tmp_path / "garbage.csv"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(ComponentsError, match="not a UTF-8 text file|not a text file"):
        load_deck(binary)
    with pytest.raises(ComponentsError, match="not a regular file"):
        load_deck(tmp_path)


def test_r5_too_few_cards_is_only_a_warning():
    """R5: fewer non-green cards than players x capacity x 3 warns; R12 handles running out."""
    deck = parse_deck(HEADER + "30,fur,1,3,no\n", "small")
    assert "fewer than 60" in deck.shortage_warning(4)
    assert default_deck().shortage_warning(6) is None
