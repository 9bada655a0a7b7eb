"""Read a YAML configuration: parse with line numbers, convert durations, validate the schema,
check relations between fields. Every problem becomes a `Problem` with its field path."""

from __future__ import annotations

import re
from pathlib import Path as FsPath
from typing import Any

import yaml
from pydantic import ValidationError

from partita.config.errors import ConfigError, Path, Problem
from partita.config.schema import SystemCfg
from partita.config.units import convert, format_ns

# Where durations live: (list key or None for the root, base names).
DURATIONS: list[tuple[str | None, tuple[str, ...]]] = [
    (None, ("run_for",)),
    ("schedulers", ("rr_slice",)),
    ("threads", ("period", "deadline", "offset", "wcet", "jitter")),
]


def _line_of(node: yaml.Node | None, path: Path) -> int | None:
    """1-based line of the deepest node along `path` in the composed YAML tree."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in path:
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            nxt = None
            for k, v in node.value:
                key = k.value
                if key == part or (isinstance(key, str) and key.rsplit("_", 1)[0] == part):
                    nxt = v if key == part else k
                    break
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            node = node.value[part] if 0 <= part < len(node.value) else None
        else:
            node = None
        if node is None:
            break
        line = node.start_mark.line + 1
    return line


def _normalize(raw: dict[str, Any]) -> list[Problem]:
    """Turn every `<base>_<unit>` duration into `<base>_ns`, in place."""
    problems: list[Problem] = []
    for listkey, bases in DURATIONS:
        if listkey is None:
            targets: list[tuple[Path, Any]] = [((), raw)]
        else:
            items = raw.get(listkey)
            targets = [((listkey, i), it) for i, it in enumerate(items)] if isinstance(
                items, list
            ) else []
        for path, obj in targets:
            if isinstance(obj, dict):
                problems += [Problem((*path, e.key), str(e)) for e in convert(obj, bases)]
    return problems


def _pydantic_path(loc: tuple[Any, ...]) -> Path:
    """Pydantic location -> user-facing path: drop the embedded `task`, strip `_ns`."""
    out: list[str | int] = []
    for part in loc:
        if part == "task":
            continue
        if isinstance(part, str) and part.endswith("_ns"):
            part = part[:-3]
        if isinstance(part, str) and (part.startswith("function-") or part in ("str", "int")):
            continue
        out.append(part)
    return tuple(out)


_WCET = re.compile(r"wcet_ns (\d+) exceeds deadline (\d+)")


def _pydantic_problem(err: dict[str, Any]) -> Problem:
    path = _pydantic_path(err["loc"])
    msg = _pydantic_message(err)
    m = _WCET.search(msg)
    if m:  # Task's own check, reported on the field the user can fix
        path = (*path, "wcet")
        msg = (f"wcet {format_ns(int(m.group(1)))} exceeds the deadline "
               f"{format_ns(int(m.group(2)))}")
    return Problem(path, msg)


def _pydantic_message(err: dict[str, Any]) -> str:
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    if err["type"] == "extra_forbidden":
        return "unknown field"
    if err["type"] == "missing":
        return "required field missing"
    if err["type"] == "string_pattern_mismatch" and err["loc"] and err["loc"][-1] == "entry":
        return f"entry {err['input']!r} is not a C identifier"
    if err["type"] == "string_pattern_mismatch":
        return f"{err['input']!r} is not a valid name (letters, digits, _; no leading digit)"
    msg = msg.replace("Input should be", "must be")
    return msg[0].lower() + msg[1:] if msg else msg


MAX_NESTING = 64  # far beyond any real configuration; keeps PyYAML's recursion bounded


def _nesting_problem(text: str) -> Problem | None:
    """Reject absurd nesting before PyYAML recurses into it (RecursionError otherwise)."""
    depth = 0
    for ev in yaml.parse(text):
        if isinstance(ev, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                return Problem((), f"nested more than {MAX_NESTING} levels deep",
                               ev.start_mark.line + 1)
        elif isinstance(ev, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _duplicate_keys(node: yaml.Node | None) -> list[Problem]:
    """Every mapping key given twice (YAML would silently keep the last one)."""
    out: list[Problem] = []
    stack: list[tuple[yaml.Node, Path]] = [(node, ())] if node is not None else []
    while stack:  # iterative: no recursion on deep documents
        n, path = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, v in n.value:
                key = str(k.value) if isinstance(k, yaml.ScalarNode) else None
                if key is not None and key in seen:
                    out.append(Problem((*path, key), f"duplicate key {key!r} (first given on "
                                       f"line {seen[key]})", k.start_mark.line + 1))
                elif key is not None:
                    seen[key] = k.start_mark.line + 1
                stack.append((v, (*path, key) if key is not None else path))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend((v, (*path, i)) for i, v in enumerate(n.value))
    return sorted(out, key=lambda p: p.line or 0)


def decode_text(data: bytes, file: str) -> str:
    """The file's text; a non-UTF-8 file is a one-line ConfigError, not a traceback."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ConfigError(file, [Problem((), f"not UTF-8 text (byte 0x{data[e.start]:02x} at "
                                         f"offset {e.start})", line)]) from None


def read_text(path: str | FsPath) -> str:
    file = str(path)
    try:
        data = FsPath(path).read_bytes()
    except OSError as e:
        raise ConfigError(file, [Problem((), f"cannot read: {e.strerror}")]) from None
    return decode_text(data, file)


def parse_text(text: str, file: str) -> tuple[dict[str, Any], yaml.Node | None]:
    try:
        deep = _nesting_problem(text)
        if deep is not None:
            raise ConfigError(file, [deep])
        node = yaml.compose(text)
        raw = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(e, "problem", None) or getattr(e, "reason", None) or str(e)
        if isinstance(e, yaml.reader.ReaderError):
            problem = f"character {e.character!r} at position {e.position} is not allowed"
        raise ConfigError(file, [Problem((), f"YAML syntax error: {problem}", line)]) from None
    except RecursionError:
        raise ConfigError(file, [Problem((), "nested too deeply")]) from None
    if not isinstance(raw, dict):
        raise ConfigError(file, [Problem((), "the file must be a YAML mapping", 1)])
    dups = _duplicate_keys(node)
    if dups:
        raise ConfigError(file, dups)
    return raw, node


def validate(raw: dict[str, Any], node: yaml.Node | None, file: str) -> SystemCfg:
    """Schema and relations; raises ConfigError listing every problem found."""
    from partita import subsys
    from partita.config.checks import check

    problems = _normalize(raw)
    bad_units = {p.path for p in problems}
    if "subsys" in raw:  # filled by the loader only, never written by hand
        problems.append(Problem(("subsys",), "unknown field"))
    # the sections of subsystems (top-level keys named by the registry) are validated by each
    # subsystem (load_resolved)
    sections = {k: raw[k] for k in subsys.names() if raw.get(k) is not None}
    core = {k: v for k, v in raw.items() if k not in subsys.names() and k != "subsys"}
    cfg: SystemCfg | None = None
    try:
        cfg = SystemCfg.model_validate({**core, "subsys": sections})
    except ValidationError as e:
        for err in e.errors():
            p = _pydantic_problem(dict(err))
            if p.path not in bad_units and not (
                    p.path[-1:] == ("wcet",) and any(b[:-1] == p.path[:-1] for b in bad_units)):
                problems.append(p)
    if cfg is not None and not problems:
        problems.extend(check(cfg))
    if problems:
        raise ConfigError(file, [Problem(p.path, p.message, _line_of(node, p.path))
                                 for p in problems])
    assert cfg is not None
    return cfg


def load(path: str | FsPath) -> SystemCfg:
    """Load and validate one configuration file."""
    file = str(path)
    raw, node = parse_text(read_text(path), file)
    return validate(raw, node, file)
