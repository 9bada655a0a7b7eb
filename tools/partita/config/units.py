"""Time units in configuration files: `period_ms: 10` and `period_ns: 10000000` mean the same.

Every duration field `<base>` may be written as `<base>_ns`, `<base>_us`, `<base>_ms` or
`<base>_s`; exactly one form is allowed. The value must be a whole number of nanoseconds in
[0, PT_MAX_DURATION_NS). This is the one duration parser: system configurations, subsystem
sections and task-set files all go through `convert` (or `pop_duration`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

UNITS: dict[str, int] = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


class UnitError(ValueError):
    """A duration could not be converted; `key` is the field the user wrote."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def to_ns(value: Any, unit: str, key: str) -> int:
    """Convert `value` in `unit` to integer nanoseconds, exactly."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UnitError(key, f"expected a number, got {value!r}")
    try:
        exact = Fraction(str(value)) * UNITS[unit]
    except (ValueError, ZeroDivisionError):
        raise UnitError(key, f"expected a number, got {value!r}") from None
    if exact.denominator != 1:
        raise UnitError(key, f"{value} {unit} is not a whole number of nanoseconds")
    return int(exact)


def pop_duration(data: dict[str, Any], base: str) -> int | None:
    """Remove every `<base>_<unit>` key from `data`; return the value in ns, or None if absent."""
    found = [(f"{base}_{u}", u) for u in UNITS if f"{base}_{u}" in data]
    if len(found) > 1:
        for k, _ in found:
            data.pop(k)
        keys = ", ".join(k for k, _ in found)
        raise UnitError(base, f"give only one of {keys}")
    if not found:
        return None
    key, unit = found[0]
    return to_ns(data.pop(key), unit, key)


def convert(obj: dict[str, Any], bases: Iterable[str]) -> list[UnitError]:
    """Turn every `<base>_<unit>` of `obj` into `<base>_ns`, in place, for each base; the
    problems (key = the base) of those that could not be converted or are out of range.
    A failed base leaves none of its forms behind, so no follow-up "missing" error appears."""
    from partita.limits import PT_MAX_DURATION_NS

    problems: list[UnitError] = []
    for base in bases:
        try:
            ns = pop_duration(obj, base)
        except UnitError as e:
            for unit in UNITS:
                obj.pop(f"{base}_{unit}", None)
            problems.append(UnitError(base, str(e)))
            continue
        if ns is None:
            continue
        if not 0 <= ns < PT_MAX_DURATION_NS:
            problems.append(UnitError(base, (
                f"{ns} ns ({format_ns(ns)}) is out of range: durations must lie in "
                f"[0, 2^62 ns) (PT_MAX_DURATION_NS, about 146 years)")))
        else:
            obj[f"{base}_ns"] = ns
    return problems


def format_ns(ns: int) -> str:
    """Human-readable duration: 1500000 -> '1.5 ms'."""
    for unit in ("s", "ms", "us"):
        if abs(ns) >= UNITS[unit]:
            return f"{ns / UNITS[unit]:g} {unit}"
    return f"{ns} ns"
