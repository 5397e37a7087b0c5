"""The Medici games' shared toolkit: what the card game (games/card) and the classic game
(games/classic) have in common and no other game need have.

- ``days.py``: the day loop (a game of days, each of turns, scored at its end), its events
  and phases, who starts the next day (the poorest), and the stepping entry points of a
  game of days;
- ``scoring.py``: florins, where they come from (ships, majorities, bonuses: the score
  sources both games declare) and the days as the scoring moments their designer metrics
  are counted over;
- ``narration.py``: what the two narrators tell alike (payout rankings, a day's florins,
  who starts the next day, the winners);
- ``console.py``: what the two consoles show alike (a day's scoring, the day's payouts,
  the final standings);
- ``chance.py``: their chance events as the game-AI adapters see them (cards turned up, a
  tied starter) and the deck's order dealt again;
- ``study.py``: what both declare to the studies (the ladder's players, search's and
  strong's shipped files).

Core knows none of it: the games use it, and declare to core what core needs (their score
sources, unit and scoring moments) in the parts of their ``Game`` record (core.contract).
"""
