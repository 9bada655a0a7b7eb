"""Configuration errors: one clear line each, naming the file, the field path and the problem."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Path = tuple[str | int, ...]


def format_path(path: Path) -> str:
    """('threads', 3, 'period') -> 'threads[3].period'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or "(top level)"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice (difflib), or ''."""
    best = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {best[0]!r}?)" if best else ""


@dataclass(frozen=True)
class Problem:
    path: Path
    message: str
    line: int | None = None

    def render(self, file: str) -> str:
        where = f"{file}:{self.line}" if self.line else file
        message = " ".join(self.message.split())  # always one line, whatever the source
        return f"{where}: {format_path(self.path)}: {message}"


class ConfigError(Exception):
    """One or more problems in a configuration file."""

    def __init__(self, file: str, problems: Sequence[Problem]) -> None:
        self.file = file
        self.problems = list(problems)
        super().__init__("\n".join(p.render(file) for p in self.problems))

    def lines(self) -> list[str]:
        return [p.render(self.file) for p in self.problems]
