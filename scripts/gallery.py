"""The gallery: sample board images of every game, drawn from seeded random games played through the engine
contract, written to docs/gallery/ for review.

    python -m scripts.gallery            # every game whose engine exists (from the repository root)
    python -m scripts.gallery alhambra   # just one
    python -m scripts.gallery --lang hu,cs,es,de   # also the public boards in those languages
    python -m scripts.gallery --lang long --out /tmp/gallery   # a made-up language of long words (overflow check)

For each game: the smallest and the largest player count, mid-game (just after a placement, so the last move is
marked) and at the end (public images), plus a private image (one player's view) mid-game; games with expansion modules get their own entries (MODULE_GAMES:
Alhambra with all four Vizier's Favour modules). Actions are chosen at random among the legal ones, with a mild
bias toward building (buying/placing rather than hoarding), so the boards look like real games.
`playthrough` is shared with the tests and the benchmark.

Languages (`--lang`, comma-separated; English is the default gallery): for each other language the public
boards of every game (mid-game and the end, at the largest player count, and the module game) go to
`docs/gallery/<lang>/`. Besides our languages (i18n.LANGUAGES), two made-up ones for checking layouts:
`long` (`Long`: every word of every text 60% longer, longer than German or Hungarian: nothing may overflow or be
cut) and `qps`, the tests' pseudo-language (every text wrapped in ⟦ ⟧).
"""

from __future__ import annotations

import argparse
import functools
import gettext
import math
import random
import re
from pathlib import Path
from typing import Any

import i18n
from engine import GAMES, get_rules

OUT = Path(__file__).resolve().parent.parent / "docs" / "gallery"

# Relative weights for action kinds when picking a random legal action (unlisted kinds weigh 1).
BIAS: dict[str, dict[str, float]] = {
    "alhambra": {
        "buy_tile": 4,
        "place_tile": 6,
        "reserve_tile": 1,
        "give_to_dirk": 0.5,
        "take_money": 2,
        "redesign_add": 0.5,
        "redesign_remove": 0.05,
        "redesign_swap": 0.2,
        "pass": 0.3,
        "vizier_buy": 2,
        "take_hut": 0.7,
        "reactivate_vizier": 0.4,
    },
    "gardens": {},
    "queens_garden": {"place_tile": 4, "place_expansion": 3, "acquire": 2, "buy_expansion": 0.3, "pass": 0.4},
}


# Expansion-module sample games: game -> (player count, options, file-name tag).
MODULE_GAMES: dict[str, tuple[int, dict[str, Any], str]] = {
    "alhambra": (4, {"vizier": True, "huts": True, "exchange": True, "bonus": True}, "modules"),
}


def names_for(n: int) -> dict[str, str]:
    """Display names for the sample players (ids as in tests/engine/playout.players_for)."""
    sample = ["Ana", "Bartholomew", "Chen", "Dorota", "Emeka", "Fatima"]
    return {str(1000 + i): sample[i] for i in range(n)}


def playthrough(
    game: str, n_players: int, seed: int, options: dict[str, Any] | None = None, max_steps: int = 5000
) -> list[Any]:
    """Every state of one seeded random game, from new_game to the end (legal actions only)."""
    rules = get_rules(game)
    players = [str(1000 + i) for i in range(n_players)]
    state = rules.new_game(players, options or {}, seed)
    rnd = random.Random(seed)
    weights = BIAS.get(game, {})
    states = [state]
    for _ in range(max_steps):
        if rules.is_over(state):
            break
        if options and hasattr(rules, "free_actions") and rnd.random() < 0.1:
            # free actions (Alhambra's bonus cards, V62): sometimes a player plays one by hand
            who = rnd.choice(players)
            plays = [a for a in rules.free_actions(state, who) if a.kind == "play_bonus"]
            if plays:
                state = rules.apply(state, who, rnd.choice(plays))
                states.append(state)
                continue
        player = rnd.choice(rules.to_move(state))
        legal = rules.legal_actions(state, player)
        action = rnd.choices(legal, weights=[weights.get(a.kind, 1.0) for a in legal])[0]
        state = rules.apply(state, player, action)
        states.append(state)
    return states


def mid_state(states: list[Any], fraction: float = 0.6) -> Any:
    return states[int(len(states) * fraction)]


PLACING = {"place_tile", "place_expansion", "redesign_add", "redesign_swap"}  # action kinds that fill a position


def showcase_state(states: list[Any], fraction: float = 0.6, within: int = 30) -> Any:
    """The mid-game state for the gallery: the first one from `fraction` on whose last action (the engine's "move"
    event in its log, which holds that action's events) placed something, so the image shows the last-move
    marks; else the plain mid state."""
    start = int(len(states) * fraction)
    for state in states[start : start + within]:
        last = next((e for e in reversed(state.log) if e.kind == "move"), None)
        if last is not None and last.data.get("action", {}).get("kind") in PLACING:
            return state
    return states[start]


class Long(gettext.NullTranslations):
    """A made-up language for layout checks: every word of a text (outside its {fields}) 60% longer, single
    letters (codes such as "J") and rule ids (A61) kept: "Building market" -> "Buildingbuil marketmar"."""

    WORD = re.compile(r"\{[^{}]*\}|[^\W\d_]{2,}")

    @staticmethod
    @functools.cache  # like a catalog's lookup: the words are made once per text
    def longer(text: str) -> str:
        def grow(m: re.Match[str]) -> str:
            word = m.group(0)
            return word if word.startswith("{") else word + word[: math.ceil(len(word) * 0.6)].lower()

        return Long.WORD.sub(grow, text)

    def gettext(self, message: str) -> str:
        return self.longer(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.longer(msgid1 if n == 1 else msgid2)


LONG = "long"


def install_made_up(lang: str) -> None:
    """Installs `long` or the pseudo-language `qps` (i18n.PSEUDO) when asked for (our languages need nothing)."""
    if lang == LONG:
        i18n.install(LONG, Long())
    elif lang == i18n.PSEUDO:
        from i18n import catalogs

        i18n.install(i18n.PSEUDO, catalogs.pseudo(catalogs.code_entries()[0]))


def write_languages(games: list[str], langs: list[str], out: Path = OUT) -> list[Path]:
    """The public boards of `games` in each of `langs` (mid-game and the end at the largest player count, and the
    module games' mid-game), written to `out/<lang>/`."""
    from render import render_png

    written = []
    for lang in langs:
        install_made_up(lang)
        folder = out / lang
        folder.mkdir(parents=True, exist_ok=True)
        for game in games:
            rules = get_rules(game)
            n = rules.player_counts[-1]
            states = playthrough(game, n, seed=100 + n)
            names = names_for(n)
            images = {
                f"{game}_{n}p_mid.png": render_png(
                    game, rules.view(showcase_state(states), None), names=names, lang=lang
                ),
                f"{game}_{n}p_end.png": render_png(game, rules.view(states[-1], None), names=names, lang=lang),
            }
            if game in MODULE_GAMES:
                n, options, tag = MODULE_GAMES[game]
                states = playthrough(game, n, seed=200 + n, options=options)
                mid = showcase_state(states)
                view = rules.view(mid, None)
                images[f"{game}_{n}p_{tag}_mid.png"] = render_png(game, view, names=names_for(n), lang=lang)
                viewer = mid.players[0]
                view = rules.view(mid, viewer)
                images[f"{game}_{n}p_{tag}_mid_private.png"] = render_png(
                    game, view, viewer=viewer, names=names_for(n), lang=lang
                )
            if game == "alhambra":  # the 2-player game has Dirk
                states = playthrough(game, 2, seed=102)
                images[f"{game}_2p_end.png"] = render_png(game, rules.view(states[-1], None), lang=lang)
            written += _write(folder, images)
    return written


def write_gallery(games: list[str], out: Path = OUT) -> list[Path]:
    from render import render_png

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game in games:
        rules = get_rules(game)
        counts = rules.player_counts
        for n in sorted({counts[0], counts[-1]}):
            states = playthrough(game, n, seed=100 + n)
            names = names_for(n)
            mid, end = showcase_state(states), states[-1]
            images = {
                f"{game}_{n}p_mid.png": render_png(game, rules.view(mid, None), names=names),
                f"{game}_{n}p_end.png": render_png(game, rules.view(end, None), names=names),
            }
            if n == counts[-1]:
                viewer = mid.players[0]
                images[f"{game}_{n}p_mid_private.png"] = render_png(
                    game, rules.view(mid, viewer), viewer=viewer, names=names
                )
                images[f"{game}_{n}p_mid_focus.png"] = render_png(
                    game, rules.view(mid, viewer), viewer=viewer, names=names, focus=True
                )
            written += _write(out, images)
        if game in MODULE_GAMES:
            n, options, tag = MODULE_GAMES[game]
            states = playthrough(game, n, seed=200 + n, options=options)
            names = names_for(n)
            mid, end = showcase_state(states), states[-1]
            viewer = mid.players[0]
            written += _write(
                out,
                {
                    f"{game}_{n}p_{tag}_mid.png": render_png(game, rules.view(mid, None), names=names),
                    f"{game}_{n}p_{tag}_mid_private.png": render_png(
                        game, rules.view(mid, viewer), viewer=viewer, names=names
                    ),
                    f"{game}_{n}p_{tag}_end.png": render_png(game, rules.view(end, None), names=names),
                },
            )
    return written


def _write(out: Path, images: dict[str, bytes]) -> list[Path]:
    written = []
    for name, png in images.items():
        path = out / name
        path.write_bytes(png)
        written.append(path)
        print(f"{path}  {len(png) // 1024} KiB")
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scripts.gallery", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games (default: every game)")
    parser.add_argument("--lang", default="en", help="languages, comma-separated: en, hu, cs, es, de, long, qps")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: docs/gallery)")
    args = parser.parse_args(argv)
    games = args.games or list(GAMES)
    langs = [lang for lang in args.lang.split(",") if lang]
    if i18n.SOURCE in langs:
        write_gallery(games, args.out)
    others = [lang for lang in langs if lang != i18n.SOURCE]
    if others:
        write_languages(games, others, args.out)


if __name__ == "__main__":
    main()
