"""The `coproc:` section: the system's RTOS coprocessors (subsys/coproc, docs/offload.md).

    coproc:
      - name: schedcp            # referenced by the clients
        service: sched           # the coprocessor's function (SERVICES)
        backend: hart            # hart | inline | device
        cpu: 2                   # backend hart: the cpu with `role: coproc` that runs it
        base: 0x10200000         # backend device: its MMIO base (default DEVICE_BASE + 64 KiB
                                 # per device coprocessor before it; docs/devices.md)
        priority_order: low_first  # service sched: low_first (0 highest) | high_first
        clients: [core0]         # service sched: the `policy: offload` scheduler instances;
                                 # service dftsm: the dataflow graphs, in their order

Each client scheduler instance gets its own slot (its own ready structure) in the
coprocessor, in the order listed.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from partita.config.errors import Problem

MAX_COPROCS = 4   # PT_COPROC_MAX
MAX_CLIENTS = 8   # PT_COPROC_MAX_CLIENTS
# backend device: the emulated scheduler coprocessor `partita-sched` in build/qemu's QEMU
# (platform/qemu-virt/devices/, docs/devices.md); `virt` has nothing mapped from 0x10101000 to
# 0x20000000, each device takes a 64 KiB-aligned 64 KiB window there.
DEVICE_BASE = 0x10200000
DEVICE_WINDOW = 0x10000
DEVICE_SPAN = (0x10200000, 0x20000000)
DEVICE_SERVICES = ("sched",)

# service name -> its struct pt_coproc_service and the C type of its configuration record
SERVICES: dict[str, str] = {"sched": "pt_schedsvc", "dftsm": "pt_df_tsmsvc"}


class Backend(StrEnum):
    hart = "hart"
    inline = "inline"
    device = "device"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CoprocCfg(Strict):
    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,30}$")
    service: str
    backend: Backend = Backend.hart
    cpu: int | None = Field(default=None, ge=0, description="backend hart: its cpu")
    base: int | None = Field(default=None, description="backend device: its MMIO base")
    priority_order: Literal["low_first", "high_first"] | None = None
    clients: list[str] = Field(default_factory=list, max_length=MAX_CLIENTS)

    @model_validator(mode="after")
    def _fields(self) -> CoprocCfg:
        if self.service not in SERVICES:
            raise ValueError(f"coprocessor {self.name}: unknown service {self.service!r} "
                             f"(known: {', '.join(SERVICES)})")
        if self.backend == Backend.hart and self.cpu is None:
            raise ValueError(f"coprocessor {self.name}: backend hart needs `cpu:` (a cpu "
                             "with role: coproc)")
        if self.backend != Backend.hart and self.cpu is not None:
            raise ValueError(f"coprocessor {self.name}: `cpu:` is for backend hart only")
        if self.backend == Backend.device and self.service not in DEVICE_SERVICES:
            raise ValueError(f"coprocessor {self.name}: backend device exists for service "
                             f"{', '.join(DEVICE_SERVICES)} only")
        if self.backend != Backend.device and self.base is not None:
            raise ValueError(f"coprocessor {self.name}: `base:` is for backend device only")
        if self.base is not None and (
                self.base % DEVICE_WINDOW or not
                DEVICE_SPAN[0] <= self.base <= DEVICE_SPAN[1] - DEVICE_WINDOW):
            raise ValueError(f"coprocessor {self.name}: base {self.base:#x} must be 64 KiB "
                             f"aligned in [{DEVICE_SPAN[0]:#x}, {DEVICE_SPAN[1]:#x}) (the "
                             "free window of the virt machine)")
        if self.priority_order is not None and self.service != "sched":
            raise ValueError(f"coprocessor {self.name}: priority_order is for service sched")
        if len(set(self.clients)) != len(self.clients):
            raise ValueError(f"coprocessor {self.name}: a client is listed twice")
        return self

    @property
    def high_first(self) -> bool:
        return self.priority_order == "high_first"


class CoprocSection(Strict):
    coprocs: list[CoprocCfg] = Field(min_length=1, max_length=MAX_COPROCS)


def parse(raw: Any) -> tuple[CoprocSection | None, list[Problem]]:
    if not isinstance(raw, list):
        return None, [Problem(("coproc",), "a list of coprocessors "
                              "({name, service, backend, ...} each)")]
    try:
        return CoprocSection.model_validate({"coprocs": raw}), []
    except ValidationError as e:
        return None, [Problem(("coproc", *(x for x in err["loc"][1:])),  # type: ignore[misc]
                              err["msg"].removeprefix("Value error, "))
                      for err in e.errors()]


def check(section: CoprocSection, ncpus: int, roles: dict[int, str]) -> list[Problem]:
    """Names unique; every hart back end on its own cpu of role coproc, and every cpu of role
    coproc running one."""
    out: list[Problem] = []
    seen: dict[str, int] = {}
    on_cpu: dict[int, str] = {}
    at: dict[int, str] = {}
    for i, base in device_bases(section).items():
        name = section.coprocs[i].name
        if not DEVICE_SPAN[0] <= base <= DEVICE_SPAN[1] - DEVICE_WINDOW:
            out.append(Problem(("coproc", i, "base"), f"coprocessor {name}: no room for its "
                               f"device at {base:#x} (set `base:`)"))
        elif base in at:
            out.append(Problem(("coproc", i, "base"), f"coprocessor {name}: base {base:#x} "
                               f"is coprocessor {at[base]}'s"))
        at[base] = name
    for i, c in enumerate(section.coprocs):
        if c.name in seen:
            out.append(Problem(("coproc", i, "name"), f"coprocessor {c.name} is defined twice"))
        seen[c.name] = i
        if c.cpu is None:
            continue
        path = ("coproc", i, "cpu")
        if c.cpu >= ncpus:
            out.append(Problem(path, f"coprocessor {c.name}: cpu {c.cpu} does not exist "
                               f"(ncpus = {ncpus})"))
        elif roles.get(c.cpu) != "coproc":
            out.append(Problem(path, f"coprocessor {c.name}: cpu {c.cpu} has role "
                               f"{roles.get(c.cpu)}, not coproc (cpus: [{{id: {c.cpu}, "
                               "role: coproc}])"))
        elif c.cpu in on_cpu:
            out.append(Problem(path, f"coprocessor {c.name}: cpu {c.cpu} already runs "
                               f"coprocessor {on_cpu[c.cpu]}"))
        else:
            on_cpu[c.cpu] = c.name
    return out


def device_bases(section: CoprocSection) -> dict[int, int]:
    """coprocessor index -> MMIO base of every backend-device coprocessor: its `base:`, or
    DEVICE_BASE + one window per device coprocessor before it."""
    out: dict[int, int] = {}
    for i, c in enumerate(section.coprocs):
        if c.backend == Backend.device:
            out[i] = c.base if c.base is not None else DEVICE_BASE + DEVICE_WINDOW * len(out)
    return out


def qemu_devices(section: CoprocSection) -> list[str]:
    """The -device option of every backend-device coprocessor (one device instance per
    client slot; its priority order at reset)."""
    out = []
    for i, base in device_bases(section).items():
        c = section.coprocs[i]
        out.append(f"partita-sched,addr={base:#x},instances={max(1, len(c.clients))},"
                   f"high-first={'on' if c.high_first else 'off'}")
    return out


def claims(raw: Any) -> dict[int, str]:
    out: dict[int, str] = {}
    if isinstance(raw, list):
        for c in raw:
            if isinstance(c, dict) and c.get("backend", "hart") == "hart" \
                    and isinstance(c.get("cpu"), int):
                out[c["cpu"]] = "coproc"
    return out


def client_of(raw: Any, sched: str) -> tuple[int, str] | None:
    """(index, name) of the coprocessor whose clients list scheduler `sched`, from the raw
    section (None if none does)."""
    if isinstance(raw, list):
        for i, c in enumerate(raw):
            if isinstance(c, dict) and sched in (c.get("clients") or []):
                return i, str(c.get("name"))
    return None


def gen_c(section: CoprocSection) -> str:
    """coproc_config.c: the coprocessors, their slots and state, the offload bindings."""
    lines = [
        "/* GENERATED by partita config from the coproc: section - do not edit. */",
        "#include <partita/coproc.h>",
        *sorted({f"#include <{_STATE[c.service][0]}>" for c in section.coprocs}),
        "",
    ]
    binds: list[str] = []
    bases = device_bases(section)
    for i, c in enumerate(section.coprocs):
        n = max(1, len(c.clients))
        svc = SERVICES[c.service]
        lines += [
            f"/* {c.name}: service {c.service}, backend {c.backend.value} */",
            f"static struct pt_coproc_slot cp{i}_slots[{n}];",
            f"static {_STATE[c.service][1]} cp{i}_state;",
        ]
        cfg = "0"
        if c.service == "sched":
            lines.append(f"static const struct pt_schedsvc_cfg cp{i}_cfg = "
                         f"{{ .high_first = {int(c.high_first)} }};")
            cfg = f"&cp{i}_cfg"
        lines += [
            f"static struct pt_coproc cp{i} = {{",
            f'\t.name = "{c.name}", .id = {i}, .hart = {c.cpu if c.cpu is not None else 0},'
            f" .base = {bases.get(i, 0):#x},",
            f"\t.nclients = {n}, .svc = &{svc}, .be = &pt_coproc_backend_{c.backend.value},",
            f"\t.svc_cfg = {cfg}, .state = &cp{i}_state, .slots = cp{i}_slots,",
            "};",
            "",
        ]
        if c.service == "sched":  # the offload policy finds its slot here
            binds += [f'\t{{ "{s}", &cp{i}, {k} }},' for k, s in enumerate(c.clients)]
    lines += [
        "struct pt_coproc *const pt_coprocs[] = { "
        + ", ".join(f"&cp{i}" for i in range(len(section.coprocs))) + " };",
        f"const uint32_t pt_ncoprocs = {len(section.coprocs)};",
        "const struct pt_coproc_binding pt_coproc_sched_binding[] = {",
        *binds,
        "\t{ 0, 0, 0 },",
        "};",
        "",
    ]
    return "\n".join(lines)


# service -> (header declaring its state type, the type), kernel-relative include
_STATE = {"sched": ("sched/offload/schedsvc.h", "struct pt_schedsvc_state"),
          "dftsm": ("partita/df_tsmsvc.h", "struct pt_df_tsmsvc_state")}
