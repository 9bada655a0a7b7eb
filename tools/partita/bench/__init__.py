"""The benchmark suite (bench) and its per-function cycle profile (profile)."""
