"""Named evaluations (`partita experiment <name>`): CSV + PNG under out/experiments/<name>/."""
