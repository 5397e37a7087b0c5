"""The Tuscany strength claim, paired: ``expert`` at one seat against each other built-in at the others.

For each player count and rival, ``expert`` plays one seat and the rival every other, seats rotated,
games 0 .. N - 1 one by one (strategies/strength.py's ``versus``, what the slow strength test asserts).
It prints expert's mean red points and the best rival seat's, the mean per-game difference (expert's
less the rival seat's whose difference has the lowest z) with its standard error, expert's win rate and
z. The seats share every game, so the standard error is the per-game difference's, not the two means'
taken as independent.

    python scripts/tuscany_versus.py --games 3000 --seed 2026
"""
from __future__ import annotations

import medici_sim.games  # noqa: F401  (registers the games)
from medici_sim.cli.script_options import Parser, count
from medici_sim.games.tuscany.strategies.strength import versus

RIVALS = ("random", "builder", "colour_racer", "castle_chainer", "trader")


def main() -> None:
    parser = Parser(__doc__.splitlines()[0])
    parser.add_argument("--games", type=count(2, 10**7), default=3000, help="games per rival [default: 3000]")
    parser.add_argument("--seed", type=count(0, 2**63 - 1), default=2026, help="the seed [default: 2026]")
    parser.add_argument("--components", help="a shipped component set or a component file [default: reconstructed]")
    args = parser.parse_args()
    print(f"expert at one seat, the rival at the others, seats rotated, {args.games:,} games each, seed {args.seed}, "
          f"components {args.components or 'reconstructed'}, standard rules; points: mean red points\n")
    print("| players | rival | expert points | rival points | difference ± SE (paired) | expert's win rate | z |")
    print("|---|---|---|---|---|---|---|")
    for players in (2, 3, 4):
        for rival in RIVALS:
            m = versus("expert", rival, players, args.games, args.seed, component_set=args.components)
            print(f"| {players} | {rival} | {m.strategy.mean:.2f} | {max(s.mean for s in m.rivals):.2f} | "
                  f"{m.score_diff:+.2f} ± {m.score_se:.2f} | {m.strategy.win:.3f} | {m.z:.1f} |", flush=True)


if __name__ == "__main__":
    main()
