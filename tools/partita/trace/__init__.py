"""Trace rings: the layout (format), the timeline built from them, and what is drawn or
counted from it (Perfetto, Gantt, per-task statistics, checks)."""
