/* System call numbers (a7) of the ecall ABI: arguments in a0..a5, result in a0. */
#ifndef PARTITA_SYSCALL_H
#define PARTITA_SYSCALL_H

enum pt_syscall_nr {
	PT_SYS_THREAD_CREATE = 1,
	PT_SYS_THREAD_DELETE,
	PT_SYS_THREAD_SUSPEND,
	PT_SYS_THREAD_RESUME,
	PT_SYS_THREAD_SET_PRIORITY,
	PT_SYS_THREAD_YIELD,
	PT_SYS_THREAD_SELF,
	PT_SYS_THREAD_EXIT,
	PT_SYS_SLEEP_NS,
	PT_SYS_SLEEP_UNTIL,
	PT_SYS_WAIT_NEXT_PERIOD,
	PT_SYS_SPORADIC_RELEASE,
	PT_SYS_CONSOLE_WRITE,
	PT_SYS_TRACE_MARK,
	PT_SYS_SEM_CREATE,
	PT_SYS_SEM_TAKE,
	PT_SYS_SEM_GIVE,
	PT_SYS_MUTEX_CREATE,
	PT_SYS_MUTEX_LOCK,
	PT_SYS_MUTEX_UNLOCK,
	PT_SYS_MQ_CREATE,
	PT_SYS_MQ_SEND,
	PT_SYS_MQ_RECV,
	PT_SYS_SEM_DELETE,
	PT_SYS_MUTEX_DELETE,
	PT_SYS_MQ_DELETE,
	PT_SYS_HEAP_ALLOC,   /* a0 = n, a1 = size, a2 = color | PT_HEAP_SYS_* flags */
	PT_SYS_HEAP_FREE,    /* a0 = pointer */
	PT_SYS_HEAP_REALLOC, /* a0 = pointer, a1 = bytes */
	PT_SYS_HEAP_INFO,    /* a0 = PT_HEAP_INFO_*, a1 = pointer */
	PT_SYS_THREAD_STATE,
	PT_SYS_THREAD_PRIORITY,
	PT_SYS_MQ_SEND_FRONT,
	PT_SYS_MQ_PEEK,
	PT_SYS_MQ_OVERWRITE,
	PT_SYS_MQ_COUNT,
	PT_SYS_SEM_COUNT,
	PT_SYS_SCHED_RR_SLICE,
	PT_SYS_IRQ_WAIT,     /* handler threads (docs/interrupts.md) */
	PT_SYS_THREAD_ABORT_WAIT, /* a0 = tid (kernel/core/abort_wait.c) */
	PT_SYS_COUNT,
	/* numbers from here on belong to subsystems (<partita/subsys.h>) */
	PT_SYS_SUBSYS_FIRST = 64,
};

/* PT_SYS_HEAP_ALLOC a2: the color in the low 16 bits, and these flags */
#define PT_HEAP_SYS_OS 0x10000u   /* OS-centric: the kernel picks the color (pt_malloc) */
#define PT_HEAP_SYS_ZERO 0x20000u /* zero the block (pt_calloc) */
enum { PT_HEAP_INFO_LAST_ERROR = 0, PT_HEAP_INFO_COLOR_OF = 1 };

#if defined(__riscv)
/* One system call from U-mode: number in a7, arguments in a0..a5, result in a0. The pt_*
 * stubs (kernel/core/api_stubs.c) use it; so may a program that must pass arbitrary values
 * (the system-call fuzzer, tests/system/fuzz/fuzz.c). */
static inline __attribute__((always_inline)) long pt_syscall6(long nr, long a0, long a1,
							      long a2, long a3, long a4, long a5)
{
	register long r0 __asm__("a0") = a0;
	register long r1 __asm__("a1") = a1;
	register long r2 __asm__("a2") = a2;
	register long r3 __asm__("a3") = a3;
	register long r4 __asm__("a4") = a4;
	register long r5 __asm__("a5") = a5;
	register long r7 __asm__("a7") = nr;
	__asm__ volatile("ecall"
			 : "+r"(r0)
			 : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7)
			 : "memory");
	return r0;
}
#endif

#endif
