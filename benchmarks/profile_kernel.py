"""Where the jitted kernel spends its time: `perf` samples mapped to numba functions.

    python benchmarks/profile_kernel.py                      # expert at every seat, 4 players
    python benchmarks/profile_kernel.py --strategies random --players 6 --seconds 10
    python benchmarks/profile_kernel.py --strategies search,expert,expert,expert --chunk 20
    python benchmarks/profile_kernel.py --game classic --strategies random
    python benchmarks/profile_kernel.py --game classic --strategies value --annotate 30
    python benchmarks/profile_kernel.py --game tuscany --strategies random --chunk 2000

Linux only; needs `perf` (allowed to sample this process) and `nm`. numba's machine code
has no symbols `perf` can read, so this script keeps the object code of every function numba
loads from its on-disk cache (the batch kernel, the game's loop it calls through an address,
each strategy's decision wrappers: compiled apart since one play loop serves every table),
finds where each object was loaded from a symbol only it defines, and maps every sample to
the function (as numba compiled it, after inlining) it fell in. Samples outside numba's code
(e.g. its reference counting, ``NRT_incref``, Python, the OS) are counted separately: many of
them mean arrays are handed to non-inlined functions. ``--annotate N`` lists the N instructions
sampled most, disassembled (``objdump``): a sample often lands on the instruction after the one
that stalled.

This reads numba internals (``CPUCodeLibrary._set_compiled_object``): a development tool,
checked with numba 0.68.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import numba.core.codegen as codegen

_OBJECTS: dict[str, tuple] = {}  # library name -> (the library, its object code as loaded from numba's cache)
_set_compiled_object = codegen.CPUCodeLibrary._set_compiled_object


def _keep_object(library, value):
    _OBJECTS[library.name] = (library, value)
    _set_compiled_object(library, value)


codegen.CPUCodeLibrary._set_compiled_object = _keep_object


def kernel_symbols(obj: bytes) -> dict[str, tuple[int, int]]:
    """name -> (offset, size) of the functions in an object file."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        listing = subprocess.run(["nm", "-S", f.name], capture_output=True, text=True, check=True).stdout
    symbols = {}
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            symbols[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return symbols


def loaded_ranges() -> list[tuple[int, int, str, str, int]]:
    """(start, end, symbol, library name, the library's load address) of every function of the object
    code numba loaded, by address. An object's functions include copies of its callees (numba links
    them in), so where it lies is found from a symbol no other object defines."""
    listed = {name: kernel_symbols(obj) for name, (_, obj) in _OBJECTS.items()}
    defined_in = collections.Counter(symbol for symbols in listed.values() for symbol in symbols)
    ranges = []
    for name, symbols in listed.items():
        library = _OBJECTS[name][0]
        own = next((s for s in symbols if defined_in[s] == 1 and library.get_pointer_to_function(s)), None)
        if own is None:
            continue
        base = library.get_pointer_to_function(own) - symbols[own][0]
        ranges += [(base + offset, base + offset + size, symbol, name, base)
                   for symbol, (offset, size) in symbols.items()]
    return sorted(ranges)


def short_name(symbol: str) -> str:
    """`_ZN10medici_sim10strategies6expert10prepare_nbB3v69..E..` -> `expert.prepare_nb`."""
    if not symbol.startswith("_ZN"):
        return symbol
    names, rest = [], symbol[3:]
    while (match := re.match(r"\d+", rest)) is not None:  # <length><name>, repeated
        length = int(match.group())
        names.append(rest[match.end():match.end() + length])
        rest = rest[match.end() + length:]
    return ".".join(names[-2:]).replace("_3cdynamic_3e", "dispatch")  # "<dynamic>": the generated switch


def make_kernel(args):
    """The kernel of the run profiled (seats rotated, one thread)."""
    import medici_sim.games  # noqa: F401  the games register themselves
    from medici_sim.cli.common import load_game_components, parse_strategies
    from medici_sim.core.driver import PreparedRun, RunConfig
    from medici_sim.core.registry import get_game

    return PreparedRun(RunConfig(components=load_game_components(get_game(args.game), None), players=args.players,
                                 games=1, threads=1, seating="rotate", game=args.game,
                                 strategies=parse_strategies(args.strategies, args.players, args.game)))


def fail(message: str) -> None:
    print(f"profile_kernel: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    from medici_sim.cli.script_options import Parser, check_players, count, number

    parser = Parser(__doc__)
    parser.add_argument("--game", choices=("card", "classic", "tuscany"), default="card")
    parser.add_argument("--strategies", default="expert")
    parser.add_argument("--players", type=count(), default=4)
    parser.add_argument("--seconds", type=number(0, 3600, above=True), default=5.0)
    parser.add_argument("--top", type=count(), default=25)
    parser.add_argument("--chunk", type=count(1, 10**8), default=20_000,
                        help="games a kernel call (fewer for search: slow games)")
    parser.add_argument("--annotate", type=count(0, 10**4), default=0,
                        help="also list the N instructions sampled most, disassembled")
    parser.add_argument("--compile-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    check_players(parser, [args.players], [args.game])
    try:
        make_kernel(args)
    except ValueError as exc:  # a strategy list that names none, or not one a seat
        parser.refuse("--strategies", str(exc))
    for tool in ("perf", "nm"):
        if shutil.which(tool) is None:
            fail(f"`{tool}` is not installed")

    if args.compile_only:
        make_kernel(args).play(0, 10)
        return
    # Compile into numba's cache in a child process, so this one loads (and keeps) the object.
    subprocess.run([sys.executable, __file__, *sys.argv[1:], "--compile-only"], check=True)

    kernel = make_kernel(args)
    kernel.play(0, min(100, args.chunk))  # loads the kernel, the game's loop and the decisions from the cache
    ranges = loaded_ranges()
    stop = threading.Event()

    def play() -> None:
        game = 0
        while not stop.is_set():
            kernel.play(game, args.chunk)
            game += args.chunk

    player = threading.Thread(target=play)
    player.start()
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        recorded = subprocess.run(["perf", "record", "-q", "-F", "2000", "-p", str(os.getpid()), "-o", data,
                                   "--", "sleep", str(args.seconds)], capture_output=True, text=True)
        stop.set()
        player.join()
        if recorded.returncode != 0:  # typically kernel.perf_event_paranoid
            fail("perf record failed: " + " ".join(recorded.stderr.split())[:300])
        samples = subprocess.run(["perf", "script", "-i", data, "-F", "ip"],
                                 capture_output=True, text=True, check=True).stdout.split()

    starts = [start for start, *_ in ranges]
    counts: collections.Counter[str] = collections.Counter()
    at: collections.Counter[tuple[str, int]] = collections.Counter()  # (library, offset in its object) -> samples
    for sample in samples:
        address = int(sample, 16)
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or address >= ranges[i][1]:
            counts["(outside numba's code: its runtime, Python, the OS)"] += 1
        else:
            counts[short_name(ranges[i][2])] += 1
            at[ranges[i][3], address - ranges[i][4]] += 1
    total = sum(counts.values())
    print(f"{total:,} samples over {args.seconds:g} s: {args.strategies} at {args.players} players "
          f"(self time of each function as compiled, callees inlined into it included)")
    for name, samples_in in counts.most_common(args.top):
        print(f"{100 * samples_in / total:6.1f}%  {name}")
    if args.annotate:
        print(f"\nthe {args.annotate} instructions sampled most (object offset, samples, instruction):")
        annotate(at, total, args.annotate)


def annotate(at, total: int, top: int) -> None:
    """The ``top`` instructions sampled most, disassembled (``objdump``) from the objects they lie in."""
    listings = {}
    for (library, offset), samples_at in at.most_common(top):
        if library not in listings:
            with tempfile.NamedTemporaryFile(suffix=".o") as f:
                f.write(_OBJECTS[library][1])
                f.flush()
                text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f.name], capture_output=True,
                                      text=True, check=True).stdout
            listings[library] = {int(m.group(1), 16): m.group(2).strip()
                                 for m in re.finditer(r"^\s*([0-9a-f]+):\s*(.*)$", text, re.M)}
        print(f"{offset:8x} {100 * samples_at / total:5.1f}%  {listings[library].get(offset, '?')}")


if __name__ == "__main__":
    main()
