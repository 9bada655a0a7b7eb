"""Partita host tooling: configuration, analysis, run, trace, report, bench, experiments."""

__version__ = "0.1.0"
