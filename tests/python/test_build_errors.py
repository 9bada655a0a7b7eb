"""`partita build` puts the first real error of a failed make first (issue 11, item 6)."""

from __future__ import annotations

from partita.run.build import first_error

LOG = """\
riscv64-unknown-elf-gcc -march=rv64imac_zicsr_zifencei -c -o build/x/obj/kernel/a.c.o kernel/a.c
riscv64-unknown-elf-gcc ... -T arch/riscv64/kernel.ld -o build/x/partita.elf build/x/obj/a.o
/usr/lib/gcc/riscv64-unknown-elf/ld: build/x/obj/gen/pt_config.c.o:(.rodata+0x18): \
undefined reference to `app_fri'
collect2: error: ld returned 1 exit status
make: *** [mk/kernel.mk:40: build/x/partita.elf] Error 1
"""


def test_first_error_is_the_linker_line_not_the_summary() -> None:
    assert first_error(LOG) == (
        "/usr/lib/gcc/riscv64-unknown-elf/ld: build/x/obj/gen/pt_config.c.o:(.rodata+0x18): "
        "undefined reference to `app_fri'")


def test_compiler_error_and_nothing() -> None:
    assert first_error("a.c:3:5: warning: unused\napps/m/a.c:7:1: error: expected ';'\n"
                       "a.c:9:1: error: later") == "apps/m/a.c:7:1: error: expected ';'"
    assert first_error("all fine\n") is None
