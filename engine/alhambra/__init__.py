"""Alhambra (Dirk Henn, Queen Games): the base game for 2–6 players, with Dirk in the 2-player game.

`RULES` is the contract object; `cell_name`/`parse_cell` convert grid cells to the human notation ("M13" is
the fountain) used by the renderer, the menus and the bot.
"""

from engine.alhambra.components import cell_name, parse_cell, tile_name
from engine.alhambra.rules import AlhambraRules

RULES = AlhambraRules()

__all__ = ["RULES", "AlhambraRules", "cell_name", "parse_cell", "tile_name"]
