"""Tests of the Alhambra engine."""
