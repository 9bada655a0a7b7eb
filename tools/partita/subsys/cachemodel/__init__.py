"""The memory-hierarchy timing model: the `cache_model:` section (plugin.py), the QEMU plugin's
arguments and its per-thread / per-job results (model.py). docs/memory.md, "Timing model"."""
