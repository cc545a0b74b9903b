"""Random-playout speed of every engine, through the contract only (new_game, to_move, legal_actions, and the
quiet step the AI's playouts use: `rules.step(state, player, action, quiet=True)`; `--apply` measures `apply`).

    python bench/engine.py                 # every game, every player count, ~3 s each
    python bench/engine.py alhambra -s 10  # one game, 10 seconds per player count
    python bench/engine.py alhambra --options all   # Alhambra with every Vizier's Favour module
    python bench/engine.py alhambra --search        # as hard's search runs them: the cyclic collector paused

Targets (issue 21), games per CPU second on one core: Alhambra 4p ≥ 150, 4p with all modules ≥ 80, Queen's
Garden 4p ≥ 300.

Prints complete random games per second and actions per second on one core. The AI players need these speeds.
The engine is the compiled one when the install built it (setup.py; `ENGINE_PURE=1` runs the sources).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.core import paused_gc  # noqa: E402
from engine import BUILD, GAMES, get_rules  # noqa: E402


def playout(rules, n_players: int, seed: int, options: dict, apply: bool = False) -> int:
    """Play one complete random game; return the number of actions."""
    rnd = random.Random(seed)
    state = rules.new_game([str(100 + i) for i in range(n_players)], options, seed)
    actions = 0
    while not rules.is_over(state):
        player = rnd.choice(rules.to_move(state))
        action = rnd.choice(rules.legal_actions(state, player))
        state = rules.apply(state, player, action) if apply else rules.step(state, player, action, quiet=True)
        actions += 1
    return actions


def measure(
    game: str, n_players: int, seconds: float, options: dict | None = None, apply: bool = False
) -> tuple[int, float, float, int]:
    """(games, wall seconds, CPU seconds of this process, actions). CPU time is what one idle core would take;
    wall time also counts waiting for a core on a busy machine."""
    rules = get_rules(game)
    games = actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds or games < 3:
        actions += playout(rules, n_players, games, options or {}, apply)
        games += 1
    return games, elapsed, time.process_time() - cpu_start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("-s", "--seconds", type=float, default=3.0, help="time per player count")
    parser.add_argument("--options", default="", help="'all' (every option on) or a comma list of options")
    parser.add_argument("--apply", action="store_true", help="step through apply (checked, events) instead")
    parser.add_argument(
        "--search", action="store_true", help="with the garbage collector paused, as in hard's search (ai/core.py)"
    )
    parser.add_argument("-n", "--players", type=int, nargs="*", default=None, help="player counts (default all)")
    args = parser.parse_args()
    print(f"engine: {BUILD}" + (", collector paused" if args.search else ""))
    print(
        f"{'game':<14} {'players':>7} {'games':>6} {'games/s':>9} {'games/CPU-s':>12} {'actions/s':>10}"
        f" {'actions/game':>13}"
    )
    for game in args.games:
        try:
            rules = get_rules(game)
        except ImportError:
            print(f"{game:<14} (not implemented yet)")
            continue
        names = list(rules.options) if args.options == "all" else [o for o in args.options.split(",") if o]
        if game == "gardens" and args.options == "all":
            names = ["three_tile_hand"]
        options = {o: True for o in names if o in rules.options}
        for n in args.players or rules.player_counts:
            if n not in rules.player_counts:
                continue
            with paused_gc() if args.search else contextlib.nullcontext():
                games, elapsed, cpu, actions = measure(game, n, args.seconds, options, args.apply)
            print(
                f"{game:<14} {n:>7} {games:>6} {games / elapsed:>9.1f} {games / cpu:>12.1f}"
                f" {actions / elapsed:>10.0f} {actions / games:>13.1f}"
            )


if __name__ == "__main__":
    main()
