/*
 * The HAL extension for service harts (kernel/svc, <partita/svc.h>): a hart that a service
 * owns for good (brief 0's I/O core and application cores; later the scheduler coprocessor,
 * the user-level-kernel mailbox, the brief 4 coprocessors). Such a hart never returns to the
 * kernel's scheduler, keeps interrupts masked outside hal_svc_call_ticked and takes no trap.
 *
 * Why not hal_timer_arm / hal_ipi_send: those carry the scheduler harts' policies under QEMU's
 * icount turn-taking (a 50 us horizon, a cache of the armed comparator, ending the sender's
 * turn after an IPI), and each of them changes the turn structure a service hart relies on
 * (docs/spm.md, "The QEMU icount limitation"). These calls do exactly one thing each.
 * arch/riscv64/hal_svc.c implements them (CLINT addresses: platform/qemu-virt/virt.h);
 * tests/unit/fake_hal.c fakes them.
 */
#ifndef PARTITA_HAL_SVC_H
#define PARTITA_HAL_SVC_H

#include <stdint.h>

/* Program the calling hart's own comparator for `deadline_cycles` (absolute, hal_cycles()
 * base), rounded up to the timer's resolution; no horizon, no cache. A write that becomes the
 * machine's earliest deadline ends the hart's QEMU turn (pt_svc_yield uses that). */
void hal_svc_timer_arm(uint64_t deadline_cycles);

/* Raise `hart`'s software interrupt after a release fence (stores before it are visible
 * to the woken hart); does not end the sender's turn. */
void hal_svc_kick(uint32_t hart);

/* With interrupts masked: halt until the timer or a kick is pending, then clear it. */
void hal_svc_halt(void);

/* Make instructions that this hart or another one wrote into memory (a task image copied by
 * the application DMA) visible to this hart's instruction fetch. */
void hal_svc_sync_icache(void);

/* Call entry(arg) with interrupts enabled; every timer or kick interrupt meanwhile calls
 * tick() (which re-arms with hal_svc_timer_arm) and returns to entry. An exception in entry
 * calls pt_svc_fault (kernel/svc), which does not return. Restores the previous trap state. */
void hal_svc_call_ticked(uintptr_t entry, void *arg, void (*tick)(void));

/* Call entry(arg) on the stack that ends at sp_top (16-byte aligned), with interrupts masked:
 * no trap is taken during the call (a timer or kick stays pending for the next halt), and the
 * caller's stack is back when it returns. Brief 0's tasks run on a stack in their scratchpad
 * partition this way (docs/spm.md). */
void hal_svc_call_on_stack(uintptr_t entry, void *arg, uintptr_t sp_top);

/* Implemented by kernel/svc: an exception on a service hart inside hal_svc_call_ticked. */
_Noreturn void pt_svc_fault(uint64_t cause, uint64_t pc, uint64_t tval);

#endif
