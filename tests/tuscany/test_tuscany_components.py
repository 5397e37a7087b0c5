"""Tuscany component sets (T1-T9): the shipped sets, the geometry's claims, every fault of a
component file refused in one line."""
from __future__ import annotations

import copy
import itertools
import json

import pytest

from medici_sim.games.tuscany.components import (
    ComponentError,
    components,
    load_components,
    named_components,
    parse_components,
)
from medici_sim.games.tuscany.geometry import (
    ESTATE_FIELDS,
    N_ASSEMBLIES,
    axial,
    contacts,
    estate_colours,
    legal_assemblies,
    neighbours,
    regions,
)
from medici_sim.games.tuscany.strategies.strength import play

DEFAULT = json.loads(components().to_json())


def test_the_shipped_sets_load_the_default_first_each_a_reconstruction():
    shipped = named_components()
    assert list(shipped)[:1] == ["reconstructed"] and "large-regions" in shipped
    assert len({c.fingerprint() for c in shipped.values()}) == len(shipped)
    for c in shipped.values():
        assert "reconstruction" in c.note
        assert c.n_region_cards == 122 and c.n_yield_cards == 27  # T5, T6
        assert sum(c.player_tiles) == 21 and sum(c.neutral_tiles) == 32  # T1, T2


def test_at_least_three_shipped_sets_each_loading_playing_and_differing_from_the_default():
    """Beside the default, at least two other plausible sets (issue 33): each checked by the loader (its own
    file read back is itself), each playing whole games, each changing what the default's games give."""
    shipped = named_components()
    assert len(shipped) >= 3 and {"large-regions", "other-values"} <= set(shipped)
    default_score = [s.mean for s in play(["expert", "builder", "trader"], 60, seed=4)[1]]
    for name, comp in shipped.items():
        assert parse_components(comp.to_json(), name) == comp  # the loader's checks pass on the file
        _, seats = play(["expert", "builder", "trader"], 60, seed=4, component_set=name)
        assert all(s.games == 60 and s.mean > 20 for s in seats)
        if name != "reconstructed":
            assert [s.mean for s in seats] != default_score, name


def test_the_other_values_set_changes_only_the_colour_bonuses_and_yield_deck():
    other, default = json.loads(components("other-values").to_json()), DEFAULT
    changed = {k for k in default if default[k] != other[k]}
    assert changed == {"name", "note", "colour_bonus", "yield_cards"}
    assert other["colour_bonus"]["L"] == [5, 3] and other["colour_bonus"]["U"] == [2, 1]  # grow with the fields
    assert sum(card["count"] for card in other["yield_cards"]) == 27  # T6


def test_the_fingerprint_is_the_contents_not_the_name():
    data = copy.deepcopy(DEFAULT)
    data["name"], data["note"] = "mine", "my box"
    assert parse_components(json.dumps(data), "x").fingerprint() == components().fingerprint()
    data["region_cards"]["D"] += 1
    assert parse_components(json.dumps(data), "x").fingerprint() != components().fingerprint()
    assert parse_components(components().to_json(), "x") == components()


@pytest.mark.parametrize("shift", [-5, -3, -1, 0, 2, 4])
def test_geometry_adjacency_is_symmetric_and_hexagonal(shift):
    touching = neighbours(shift)
    for f in range(ESTATE_FIELDS):
        assert 1 <= len(touching[f]) <= 6 and f not in touching[f]
        for n in touching[f]:
            assert f in touching[n]
    assert len({axial(f, shift) for f in range(ESTATE_FIELDS)}) == ESTATE_FIELDS
    assert contacts(shift) >= 1


def test_t9_the_layouts_contacts_between_boards():
    assert contacts(-1) == 9  # the reconstruction: all five fields of an edge row touch the next board
    assert contacts(2) == contacts(-3) == 5  # the rulebook's 3 fields on each side
    assert {n for f in range(10) for n in neighbours(2)[f] if n >= 10} == {10, 11, 12}
    cells = ("LOROGWLYUD", "GYLYRDWGLO", "OWGLUDWYOR")
    estates = {estate_colours(cells, a) for a in range(N_ASSEMBLIES)}
    assert len(estates) == N_ASSEMBLIES == 48  # T9: 48 different assemblies


def test_t9_every_default_triple_has_8_to_48_legal_assemblies_and_mostly_single_fields():
    comp = components()
    by_type = [[b.cells for b in comp.boards_of_type(t)] for t in range(3)]
    counts, sizes = [], {1: 0, 2: 0, 3: 0}
    for triple in itertools.product(*by_type):
        legal = legal_assemblies(triple)
        counts.append(len(legal))
        for a in legal:
            colours = estate_colours(triple, a)
            assert sorted(colours.count(c) for c in range(8)) == sorted([3, 3, 2, 5, 5, 4, 4, 4])  # T9's totals
            for region in regions(colours):
                sizes[len(region)] += 1
    assert len(counts) == 64 and min(counts) == 8 and max(counts) == 48
    assert round(sizes[1] / sum(sizes.values()), 2) == 0.82
    assert round(sizes[1] / sum(n * k for n, k in sizes.items()), 2) == 0.68


def test_the_large_regions_set_keeps_the_estate_totals_with_larger_regions():
    comp = components("large-regions")
    by_type = [[b.cells for b in comp.boards_of_type(t)] for t in range(3)]
    single = fields = 0
    for triple in itertools.product(*by_type):
        legal = legal_assemblies(triple)
        assert len(legal) >= 8
        colours = estate_colours(triple, legal[0])
        assert [colours.count(c) for c in range(8)] == [3, 3, 2, 5, 5, 4, 4, 4]  # D R U L O Y W G
        for region in regions(colours):
            single += len(region) == 1
            fields += len(region)
    assert single / fields < 0.5  # the default's first legal assemblies: about two thirds single


def _set(path, value):
    def change(data):
        *keys, last = path
        target = data
        for key in keys:
            target = target[key]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
    return change


FAULTS = [
    (_set(["format"], "tuscany 2"), "format must be 'tuscany-components 1'"),
    (_set(["extra"], 1), "unknown key 'extra'"),
    (_set(["boards"], KeyError), "missing key 'boards'"),
    (_set(["name"], "a b"), "name must be"),
    (_set(["player_tiles", "X"], 1), "player_tiles names an unknown colour 'X'"),
    (_set(["neutral_tiles", "G"], KeyError), "neutral_tiles lacks colour 'G'"),
    (_set(["player_tiles", "O"], -1), "player_tiles O=-1 is out of range 0-60"),
    (_set(["player_tiles", "O"], 2.5), "player_tiles O must be a whole number, got 2.5"),
    (_set(["player_tiles"], dict.fromkeys("DRULOYWG", 0)), "player_tiles holds 0 tiles"),
    (_set(["player_tiles", "L"], 5), "player_agriculture needs one list of types per L tile (5), got 4"),
    (_set(["neutral_agriculture", 0], ["olives", "figs"]), 'neutral_agriculture tile 1 shows an unknown type "figs"'),
    (_set(["player_agriculture", 1], []), "player_agriculture tile 2 must be a list of 1-4 different types"),
    (_set(["region_cards"], dict.fromkeys("DRULOYWG", 0)), "region_cards holds no card"),
    (_set(["region_cards", "U"], 501), "region_cards U=501 is out of range 0-500"),
    (_set(["yield_cards", 2, "kind"], "gold"), 'yield_cards entry 3: unknown kind "gold"'),
    (_set(["yield_cards", 0, "amount"], 0), "yield_cards entry 1: amount=0 is out of range 1-20"),
    (_set(["yield_cards", 0, "colour"], "D"), "yield_cards entry 1 must have exactly count, kind and amount"),
    (_set(["yield_cards"], []), "yield_cards must be a non-empty list"),
    (_set(["colour_bonus", "L"], [4]), "colour_bonus L must be [front, back]"),
    (_set(["colour_bonus", "L"], [4, 51]), "colour_bonus L back=51 is out of range 0-50"),
    (_set(["boards", "A1"], ["LOROG", "WLYU"]), "board A1 must have 10 fields"),
    (_set(["boards", "A1"], ["LOROGW", "LYUD"]), "board A1 must have 10 fields"),
    (_set(["boards", "A1"], ["LOROX", "WLYUD"]), "board A1: unknown colour 'X'"),
    (_set(["boards", "D1"], ["LOROG", "WLYUD"]), "board D1: a board's name is its type"),
    (_set(["boards", "A4"], KeyError), "3 boards of type A; each type needs 4-20"),
    (lambda data: data["boards"].update(A1=["LOROG", "WLYUR"], B1=["GYLYR", "GWGLO"], C1=["OWGLU", "GWYOR"]),
     "boards A1+B1+C1 have no dark-green (D) field"),
    (_set(["boards", "A1"], ["LLLLL", "LLLLD"]), "boards A1+B1+C1 have no legal assembly"),
    (_set(["slot_shift"], 5), "slot_shift=5 is out of range -5-4"),
    (_set(["slot_shift"], KeyError), "missing key 'slot_shift'"),
]


@pytest.mark.parametrize("change, message", FAULTS, ids=[m[:40] for _, m in FAULTS])
def test_every_fault_of_a_component_file_is_one_line_naming_it(change, message):
    data = copy.deepcopy(DEFAULT)
    change(data)
    with pytest.raises(ComponentError) as caught:
        parse_components(json.dumps(data), "components mine.json")
    text = str(caught.value)
    assert message in text and "\n" not in text and text.startswith("components mine.json")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("content, message", [
    (b"{", "not a valid JSON file"),
    (b"[1, 2]", "one JSON object"),
    (b"\xff\xfe", "not a UTF-8 text file"),
])
def test_unreadable_component_files_are_one_line(tmp_path, content, message):
    path = tmp_path / "set.json"
    path.write_bytes(content)
    with pytest.raises(ComponentError, match=message):
        load_components(path)
    with pytest.raises(ComponentError, match="cannot read|not a regular file"):
        load_components(tmp_path / "missing.json")


def test_a_box_owners_file_loads_by_path(tmp_path):
    path = tmp_path / "mine.json"
    data = copy.deepcopy(DEFAULT)
    data["name"] = "mine"
    path.write_text(json.dumps(data))
    assert components(path).name == "mine" and components(str(path)).fingerprint() == components().fingerprint()


def test_t40_rule_parameters_presets_ranges_and_one_line_refusals():
    from medici_sim.core.rules import RulesError
    from medici_sim.games.tuscany.rules import RULE_BOOK

    standard = RULE_BOOK.resolve(None, 4)
    assert standard["draw"] == 3 and standard["region_scores"] == (1, 3, 6) and standard["stack_size"] == 7
    assert (standard["storage_green"], standard["no_room_red"], standard["round_limit"]) == (2, 2, 300)
    assert RULE_BOOK.resolve("original", 2)["draw"] == 2 and RULE_BOOK.resolve("draw=2", 3).spec == "original"
    for spec, message in [("draw=21", "out of range"), ("region_scores=1/3", "needs 3 values"),
                          ("colour=2", "colour"), ("standard,stack_size=0", "out of range")]:
        with pytest.raises(RulesError, match=message) as caught:
            RULE_BOOK.resolve(spec, 3)
        assert "\n" not in str(caught.value)
    with pytest.raises(RulesError, match="2-4 players"):
        RULE_BOOK.resolve(None, 5)
