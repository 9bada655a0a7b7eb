"""Partita host tooling: configuration, analysis, run, trace, report, bench, experiments.

The library API (for notebooks and scripts) is documented in docs/python-api.md:
`partita.config.load_resolved`, `partita.analysis`, `partita.run.run.run_config`,
`partita.run.report.collect`, `partita.experiments`.
"""

__version__ = "0.2.0"
