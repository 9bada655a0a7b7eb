/* Bounds of the subsystem registry: the .pt_subsys section (arch/riscv64/kernel.ld). */
#include <partita/subsys.h>

const struct pt_subsys *const pt_subsys_begin = __pt_subsys_start;
const struct pt_subsys *const pt_subsys_end = __pt_subsys_end;
