"""The tournament gallery: the standings image of a Swiss tournament of eight in 4-player Gardens, paired round by
round by records/tournaments.py, each game played to its end with random legal moves, written to docs/gallery/.

    python -m scripts.gallery_tournament            # from the repository root
    python -m scripts.gallery_tournament --lang hu  # the same in another language

Writes tournament_standings.png (README's picture of standings).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import engine
import present
from i18n import words
from records import tournaments as tr
from render.standings import StandingsCard, standings_png

OUT = Path(__file__).resolve().parent.parent / "docs" / "gallery"
NAMES = dict(zip("12345678", ["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"], strict=True))


def play(players: tuple[str, ...], seed: int) -> dict[str, float]:
    """A game of Gardens played to its end with random legal moves: its final scores."""
    rules, rnd = engine.get_rules("gardens"), random.Random(seed)
    state = rules.new_game(list(players), {}, seed)
    while not rules.is_over(state):
        player = rules.to_move(state)[0]
        state = rules.apply(state, player, rnd.choice(rules.legal_actions(state, player)))
    return {p: float(v) for p, v in rules.scores(state).items()}


def main(lang: str) -> Path:
    _ = words(lang)
    seeds = list(NAMES)
    rounds: list[tr.Round] = []
    for n in range(3):
        order = [s.player for s in tr.standings(seeds, rounds, 4)]
        rnd = tr.swiss_round(order, 4, 2, tr.met_pairs(rounds), {})
        rounds.append(
            tr.Round(tuple(tr.Table(t.players, play(t.players, 40 + n * 10 + i)) for i, t in enumerate(rnd.tables)))
        )
    card = StandingsCard(
        title=f"#1 · {_.text(present.title('gardens'))}",
        subtitle=_("The final standings ({format})", format=_("Swiss")),
        rows=tuple(tr.standings(seeds, rounds, 4)),
        names=NAMES,
    )
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / ("tournament_standings.png" if lang == "en" else f"tournament_standings_{lang}.png")
    path.write_bytes(standings_png(card, lang))
    print(f"written {path}")
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m scripts.gallery_tournament", description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", default="en", help="the language of the image (en, hu, cs, es, de)")
    main(parser.parse_args().lang)
