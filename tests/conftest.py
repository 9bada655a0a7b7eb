"""Settings for every test directory.

Hypothesis: no per-example deadline. Its default (200 ms of wall-clock time per example) makes
a property test fail when the machine is busy, and no test may depend on host load (issue 11,
item 1); the number of examples, not their speed, is what the properties need.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("partita", deadline=None)
settings.load_profile("partita")
