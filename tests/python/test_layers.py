"""The include rules of partita.layers catch what they forbid (and the tree keeps them)."""

from __future__ import annotations

from pathlib import Path

from partita.layers import violations


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root


def test_the_tree_keeps_the_layer_rules() -> None:
    assert violations() == []


def test_relative_include_into_another_top_level_folder_is_caught(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "platform/dev/dev.h": "",
        "subsys/io/net.c": '#include "../../platform/dev/dev.h"\n#include "../io/x.h"\n',
        "subsys/io/x.h": "",
    })
    assert violations(root) == [
        'subsys/io/net.c:1: "../../platform/dev/dev.h" reaches into another top-level folder']


def test_kernel_including_arch_or_platform_headers_is_caught(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "kernel/include/partita/hal.h": "",
        "arch/riscv64/csr.h": "",
        "kernel/core/a.c": ("#include <stdint.h>\n#include <partita/hal.h>\n"
                            "#include <partita/hal_inline.h>\n#include \"csr.h\"\n"
                            "#include <virt.h>\n"),
    })
    got = violations(root)
    assert len(got) == 2
    assert got[0].startswith('kernel/core/a.c:4: "csr.h" is not a kernel/ header')
    assert got[1].startswith("kernel/core/a.c:5: <virt.h>")


def test_clint_address_outside_its_header_is_caught(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "platform/qemu-virt/virt.h": "#define VIRT_CLINT_BASE 0x02000000ul\n",
        "subsys/spm/wait.c": "int x;\n#define MTIMECMP 0x2004000ul\n",
        "arch/riscv64/entry.S": "li t2, 0x02000000\nli t3, 0x10000000\n",
        "kernel/svc/ok.c": "unsigned y = 0x2010000u; /* just past the window */\n",
    })
    got = violations(root)
    tail = " is a CLINT address outside platform/qemu-virt/virt.h (use the HAL)"
    assert got == ["arch/riscv64/entry.S:1: 0x02000000" + tail,
                   "subsys/spm/wait.c:2: 0x2004000" + tail]
