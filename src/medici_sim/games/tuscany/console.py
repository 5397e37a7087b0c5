"""The Castles of Tuscany at the keyboard (``medici-sim play --game tuscany``): a person against the bots.

core.human.GameConsole plays the game stepped on the engine (stepped.py): at each of the person's decisions
(T12-T32) the table shows what the seat sees (board_text.py: the display, tracks, bonus tiles, supplies, its
hand, every estate as a hex map, its own with field numbers) and lists every choice the rules allow,
numbered (the engine's own legal choices: every option, every payment the seat can make, the marble or not),
so it refuses nothing a rule allows; the bots' decisions are told as they are made, and each turn's score.
"""
from __future__ import annotations

from ...core import human
from ...core.replaying import DECIDED
from ...core.resumable import STEP_CHOICE, STEP_PHASE, TURN_END, TURN_START
from . import stepped
from .board_text import LEGEND, assembly_lines, fitted, side_by_side, table_lines
from .game import PHASE_SCORED
from .recording import winners
from .seat_view import WORDS, choice_text
from .state import DECISIONS, EMPTY, ROUND

ACTION, ASSEMBLY = DECISIONS.index("action_nb"), DECISIONS.index("assembly_nb")


class TuscanyConsole(human.GameConsole):
    """The Python side of a game of The Castles of Tuscany with a person at seat ``human_seat`` (0-based)."""

    engine = stepped

    def __init__(self, kernel, human_seat, strategies, say, ask):
        super().__init__(kernel, human_seat, strategies, lambda text: say(fitted(text)), ask)

    def legend(self) -> str:
        return "\n".join([*LEGEND, "Choices are numbered: type the number. Payments (T18): two cards of the "
                          "field's colour, a worker for a card, a pair of other cards for a card."])

    def view(self) -> str:
        return "\n".join(table_lines(self.s, self.me, numbers=True))

    def decide(self, decision: int, seat: int) -> int:
        choices = self.legal_choices()
        if decision == ACTION:
            self.say(self.with_legend(self.view()))
        elif decision == ASSEMBLY:  # 48 numbers say nothing: each estate drawn, colour letters as in the legend
            self.say("\n".join([*LEGEND, "The estates your three boards can make (T9, T12):", *side_by_side(
                [[f"{number})", *assembly_lines(self.s, self.me, int(self.s["options"][choice]))]
                 for number, choice in enumerate(choices, 1)], gap=3)]))
        lines = [f"Your decision: {WORDS[decision]}"]
        lines += [f"  {number}) {choice_text(self.s, decision, choice)}" for number, choice in enumerate(choices, 1)]
        self.say("\n".join(lines))
        if len(choices) == 1:
            self.say("(the only choice the rules allow: taken)")
            return choices[0]
        number = self.question(f"Your choice (1-{len(choices)})", default="1",
                               parse=lambda text: human.number_in(text, 1, len(choices)))
        return choices[int(number) - 1]

    def event(self, kind: int, seat: int, a: int, b: int) -> None:
        s = self.s
        if kind == DECIDED and seat != self.me:
            k, choice = int(s["step"][STEP_PHASE]), int(s["step"][STEP_CHOICE])
            if not (WORDS[k] == WORDS[-1] and choice == 0):
                self.say(f"  {self.names[seat]}: {choice_text(s, k, choice)}")
        elif kind == TURN_START and seat == self.me:
            self.say(f"\n=== Round {int(s['counts'][ROUND])}, phase {a}: your turn ===")
        elif kind == TURN_END:
            self.say(f"  {self.names[seat]} ends the turn: red {int(s['red'][seat])}, green {int(s['green'][seat])}")
        elif kind == PHASE_SCORED:
            red = ", ".join(f"{self.names[p]} {int(s['red'][p])}" for p in range(self.players))
            self.say(f"\nPhase {a} is over: each seat banks its green into red. Red: {red}.")

    def standings(self) -> str:
        s = self.s
        empty = [int((s["field_item"][p] == EMPTY).sum()) for p in range(self.players)]
        order = sorted(range(self.players), key=lambda p: (-int(s["red"][p]), -empty[p], int(s["green"][p]),
                                                           int(s["hand_total"][p]), p))
        lines = ["Final standings (most red; ties: most empty fields, fewest green, fewest cards):"]
        lines += [f"  {i + 1}. {self.names[p]}: red {int(s['red'][p])}, {empty[p]} empty fields, green "
                  f"{int(s['green'][p])}, {int(s['hand_total'][p])} cards" for i, p in enumerate(order)]
        won = winners(s)
        lines.append(("You win!" if won == [self.me] else "Shared win: " if len(won) > 1 else "Winner: ")
                     + ("" if won == [self.me] else ", ".join(self.names[p] for p in won)))
        return "\n".join(lines + table_lines(s, self.me))
