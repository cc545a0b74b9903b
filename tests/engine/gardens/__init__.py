"""Tests of The Gardens of the Alhambra engine (G-rules)."""
